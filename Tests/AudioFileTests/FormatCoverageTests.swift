import AudioCore
import AudioTestSupport
import CSndFile
import Foundation
import Testing

@testable import AudioFile

/// Formats Enso reads but does not write itself (RF64, AIFF, MP3): written here through libsndfile directly.
@Suite("AudioFile reads every libsndfile format")
struct FormatCoverageTests {
    /// Writes interleaved `samples` with libsndfile's own float path; `false` when this libsndfile lacks the format.
    static func writeWithLibsndfile(_ samples: [Float], channels: Int, rate: Int, format: Int32, to path: String)
        -> Bool
    {
        var info = SF_INFO()
        info.samplerate = Int32(rate)
        info.channels = Int32(channels)
        info.format = format
        guard sf_format_check(&info) == Int32(SF_TRUE), let h = sf_open(path, Int32(SFM_WRITE), &info) else {
            return false
        }
        var copy = samples
        let frames = Int64(samples.count / channels)
        let written = sf_writef_float(h, &copy, frames)
        sf_close(h)
        return written == frames
    }

    @Test(
        "RF64 and AIFF 16-bit decode to the 16-bit grid exactly",
        arguments: [
            (Int32(SF_FORMAT_RF64 | SF_FORMAT_PCM_16), "RF64", "rf64"),
            (Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16), "AIFF", "aiff"),
        ])
    func pcmContainers(format: Int32, name: String, ext: String) throws {
        let dir = TestFiles.folder("formats")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Multiples of 1/32768 below 1.0: libsndfile's float-to-16-bit write scales by 32767, so pick values it
        // maps to the same integers either way (k / 32767 × 32767 = k, read back as k / 32768).
        var rng = SeededRandom(seed: 8)
        let ints = (0..<2_000).map { _ in Int((rng.nextSigned() * 30_000).rounded()) }
        let written = ints.map { Float($0) / 32_767 }
        let path = dir + "/x." + ext
        try #require(Self.writeWithLibsndfile(written, channels: 2, rate: 44_100, format: format, to: path))
        let decoded = try AudioFileDecoder.decode(path: path)
        #expect(decoded.info.format == name)
        #expect(decoded.buffer.frameCount == 1_000)
        #expect(decoded.buffer.interleaved() == ints.map { Float($0) / 32_768 })
    }

    @Test("MP3 decodes (length estimated by the decoder, read to the end)")
    func mp3() throws {
        let dir = TestFiles.folder("mp3")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sine = SignalGenerator.sine(frequency: 440, amplitude: 0.5, frames: 44_100, sampleRate: 44_100)
        let path = dir + "/x.mp3"
        let format = Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
        try #require(
            Self.writeWithLibsndfile(sine, channels: 1, rate: 44_100, format: format, to: path),
            "libsndfile without MP3 encoding")
        let decoded = try AudioFileDecoder.decode(path: path)
        #expect(decoded.info.format == "MPEG")
        #expect(decoded.info.subtype == "MPEG_LAYER_III")
        // MP3 pads the start and end with whole frames of 1152 samples; the decoded length is within two of them.
        #expect(abs(decoded.buffer.frameCount - 44_100) <= 2 * 1152, "\(decoded.buffer.frameCount) frames")
        // A 440 Hz tone at -6 dBFS keeps its level through a 128 kbit/s encoder to within 0.5 dB.
        let rms = Tolerance.rms(decoded.buffer.channel(0).dropFirst(4_410).prefix(30_000))
        #expect(abs(Tolerance.decibels(rms / (0.5 / 2.0.squareRoot()))) < 0.5, "rms \(rms)")
    }
}
