import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline
@testable import AssetReports

/// The report's players match loudness as played: a mono file plays on both speakers, so the same bell as a mono
/// file and as a dual-mono stereo file get one gain (docs/bells.md, "Loudness as played"). Matched on the mono file's
/// own reading, the mono copy played 3.01 dB louder.
@Suite struct ReportAudioAsPlayedTests {
    /// The gains (`data-gain-db`) of a page's players, in card order.
    static func gains(_ html: String) -> [Double] {
        html.components(separatedBy: "data-gain-db=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
    }

    @Test func monoAndDualMonoPlayAtOneLevel() throws {
        let dir = ToolRunner.temporaryDirectory("report-as-played")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = ["\(dir)/mono.wav", "\(dir)/dual.wav"]
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 4), to: files[0], options: EncodeOptions(format: .wav24))
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 4, channels: 2), to: files[1], options: EncodeOptions(format: .wav24))
        let entries = BellAudition.audition(paths: files, profile: .temple, keeping: BellReport.sketch)
        let html = BellReport.html(entries, profile: .temple)
        let gains = Self.gains(html)
        try #require(gains.count == 2, "\(gains)")
        // ±0.1 dB: a level difference under the smallest one heard (about 0.2–0.5 dB on music).
        #expect(abs(gains[0] - gains[1]) <= 0.1, "gains \(gains)")
        // The table keeps each file's own reading: the mono file's is 3.01 dB under its dual-mono copy's.
        let own = entries.map { $0.result.metrics?.loudness.integrated ?? .nan }
        let mono = try #require(entries.firstIndex { $0.result.file == files[0] })
        #expect(abs(own[1 - mono] - own[mono] - 10 * log10(2)) < 0.05, "own readings \(own)")
        #expect(abs(ReportAudio.level(BellSignals.bell(seconds: 4)).loudness! - own[1 - mono]) < 0.01)
    }
}
