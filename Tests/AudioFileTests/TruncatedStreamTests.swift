import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioFile

/// A damaged stream is decoded as far as it goes by `AudioFileDecoder.decodeTolerant` and flagged `truncated`, where
/// `decode` refuses it: an Ogg cut inside its last page (no end of stream), a FLAC cut in half, a WAV whose data chunk runs past the
/// end of the file. A whole stream followed by bytes that are not audio is not damaged.
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

    /// Every frame of `path` read in chunks past the end, as `enso info` and the streaming readers read: the frames
    /// decoded, and whether the reader called the stream truncated.
    static func readInChunks(_ path: String, toleratingTruncation: Bool) throws -> (frames: Int, truncated: Bool) {
        let reader = try SoundFileReader(path: path, toleratingTruncation: toleratingTruncation)
        let c = reader.info.channels.count
        var scratch = [Float](repeating: 0, count: 16_384 * c)
        var frames = 0
        while true {
            let n = try scratch.withUnsafeMutableBufferPointer {
                try reader.readFrames(into: $0.baseAddress!, maxFrames: 16_384)
            }
            if n == 0 { break }
            frames += n
        }
        return (frames, reader.truncated)
    }

    /// A FLAC with zeros appended (a tool that pads a file, a damaged copy's tail) decodes every frame its header
    /// declares; libsndfile reports an error on the bytes after them, which is no damage to the sound.
    @Test func aWholeFLACWithBytesAfterItsStreamIsNotTruncated() throws {
        let dir = TestFiles.folder("trunc-flac-padded")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(dir + "/full.flac", .flac)
        TestFiles.write(
            try Self.bytes(dir + "/full.flac") + [UInt8](repeating: 0, count: 4096), to: dir + "/padded.flac")
        let tolerant = try Self.readInChunks(dir + "/padded.flac", toleratingTruncation: true)
        #expect(tolerant.frames == 3 * Self.rate && !tolerant.truncated, "\(tolerant)")
        #expect(try Self.readInChunks(dir + "/padded.flac", toleratingTruncation: false).frames == 3 * Self.rate)
        // A stream cut short is still found when read the same way.
        let flac = try Self.bytes(dir + "/full.flac")
        TestFiles.write(Array(flac.prefix(flac.count / 2)), to: dir + "/cut.flac")
        let cut = try Self.readInChunks(dir + "/cut.flac", toleratingTruncation: true)
        #expect(cut.truncated && cut.frames > 0 && cut.frames < 3 * Self.rate, "\(cut)")
    }
}
