import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

extension BellsListenTests {
    /// `--listen` matches loudness as played: the same bell as a mono file and as a dual-mono stereo file plays at one
    /// level (peaks within 0.1 dB; both play on two channels), where matching the mono file's own reading played it
    /// 3.01 dB louder (docs/bells.md, "Loudness as played").
    @Test func monoAndDualMonoPlayAtOneLevel() throws {
        let dir = ToolRunner.temporaryDirectory("bells-listen-as-played")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 6), to: "\(dir)/mono.wav", options: EncodeOptions(format: .wav24))
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 6, channels: 2), to: "\(dir)/dual.wav", options: EncodeOptions(format: .wav24))
        let (r, _, _, _) = try Self.listen(dir, "n\nq\n")
        #expect(r.exitCode == 0, "\(r.stderr)")
        let peaks = Self.playPeaks("\(dir)/out.raw")
        try #require(peaks.count == 2, "\(peaks)")
        // ±0.1 dB: under the smallest level difference heard; the two plays are the same samples at 48 kHz.
        #expect(abs(20 * log10(peaks[0] / peaks[1])) <= 0.1, "matched peaks \(peaks)")
    }
}
