import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioFile

/// A damaged stream is decoded as far as it goes by `AudioFileDecoder.decodeTolerant` and flagged `truncated`, where
/// `decode` refuses it: an Ogg cut inside its last page (no end of stream), a FLAC cut in half, a WAV whose data chunk runs past the
/// end of the file.
@Suite struct TruncatedStreamTests {
    static let rate = 48_000

    /// A 3 s stereo tone, written in `format` to `path`.
    static func write(_ path: String, _ format: EncodeFormat) throws {
        let tone = SignalGenerator.sine(frequency: 440, amplitude: 0.5, frames: 3 * rate, sampleRate: rate)
        try AudioFileEncoder.write(
            SignalGenerator.buffer(tone, channels: 2, sampleRate: rate), to: path,
            options: EncodeOptions(format: format))
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func anOggCutInsideItsLastPageDecodesAsFarAsItGoes() throws {
        let dir = TestFiles.folder("trunc-ogg")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(dir + "/full.ogg", .ogg)
        let full = try Self.bytes(dir + "/full.ogg")
        // Cut inside the last page (after its "OggS" capture pattern): libsndfile then finds no end of stream.
        let magic = Array("OggS".utf8)
        let last = try #require((0..<(full.count - 4)).last { Array(full[$0..<($0 + 4)]) == magic })
        TestFiles.write(Array(full[..<(last + 60)]), to: dir + "/cut.ogg")
        #expect(throws: EnsoError.self) { try AudioFileDecoder.decode(path: dir + "/cut.ogg") }
        let d = try AudioFileDecoder.decodeTolerant(path: dir + "/cut.ogg")
        #expect(d.truncated)
        #expect(d.buffer.duration > 1.5 && d.buffer.duration < 3, "\(d.buffer.duration)")
        #expect(d.info.frames == FrameCount(d.buffer.frameCount))
        // An undamaged file is not flagged.
        #expect(try AudioFileDecoder.decodeTolerant(path: dir + "/full.ogg").truncated == false)
    }

    @Test func aCutFLACAndACutWAVDecodeAsFarAsTheyGo() throws {
        let dir = TestFiles.folder("trunc-flac")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(dir + "/full.flac", .flac)
        let flac = try Self.bytes(dir + "/full.flac")
        TestFiles.write(Array(flac.prefix(flac.count / 2)), to: dir + "/cut.flac")
        let f = try AudioFileDecoder.decodeTolerant(path: dir + "/cut.flac")
        #expect(f.truncated && f.buffer.frameCount > 0 && f.buffer.duration < 3, "\(f.buffer.duration)")
        let wav = TestFiles.wav(frames: 1000)
        TestFiles.write(Array(wav.prefix(500)), to: dir + "/cut.wav")
        #expect(throws: EnsoError.self) { try AudioFileDecoder.decode(path: dir + "/cut.wav") }
        let w = try AudioFileDecoder.decodeTolerant(path: dir + "/cut.wav")
        #expect(w.truncated && w.buffer.frameCount > 0 && w.buffer.frameCount < 1000, "\(w.buffer.frameCount)")
    }
}
