import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline
@testable import AssetReports

/// The tiny pack of ``TinyPack`` gone bad: its bell clipped, a second bell cut off while it rings, its loop cut
/// mid-period (a phase jump at the seam).
enum BadPack {
    static func make(in dir: String) throws -> AssetPack {
        var pack = try TinyPack.make(in: dir)
        let bowl = try AudioFileDecoder.decode(path: dir + "/bells/bowl.flac").buffer
        try AudioFileEncoder.write(
            BellSignals.clipped(bowl, gain: 12), to: dir + "/bells/bowl.flac", options: EncodeOptions(format: .flac))
        try AudioFileEncoder.write(
            BellSignals.cutTail(bowl, below: 15), to: dir + "/bells/cut.flac", options: EncodeOptions(format: .flac))
        let cutLoudness = try #require(
            try AssetPack.measureLoudness(try AudioFileDecoder.decode(path: dir + "/bells/cut.flac").buffer))
        var cut = pack.entries[0]
        cut.id = "cut-bell"
        cut.displayName = "Cut bell"
        cut.file = "bells/cut.flac"
        cut.loudness = .init(integrated: cutLoudness, target: AssetPack.Kind.bell.loudnessTarget)
        pack.entries.append(cut)
        pack.entries[1].loop = LoopRegion(start: 0, end: FramePosition(2 * TinyPack.rate + 123))
        try pack.writeManifest()
        return pack
    }
}

@Suite struct AssetCheckReportTests {
    @Test func gridShowsHumanNumbersWithUnitsAndLinksEveryCellToItsEvidence() throws {
        let dir = ToolRunner.temporaryDirectory("asset-report")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TinyPack.make(in: dir)
        let (checked, sketches) = AssetCheck.runForReport(directory: dir)
        let html = checked.html(sketches: sketches)
        #expect(html.contains("<h2>Bells</h2>") && html.contains("<h2>Soundscapes</h2>"))
        #expect(html.contains(" LUFS</a></td>") && html.contains(" LU</a></td>") && html.contains(" s</a></td>"))
        // No exponent notation, no "−0.0" (outside the base64 of images and sounds).
        let text = html.replacingOccurrences(of: "base64,[A-Za-z0-9+/=]+", with: "", options: .regularExpression)
        for raw in ["e-0", "e+0", "e−0", ">−0.0<", ">-0.0"] { #expect(!text.contains(raw), "\(raw)") }
        // Every cell links to a row that exists.
        let targets = html.components(separatedBy: "<a href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(targets.count > 20)
        for t in targets { #expect(html.contains("id=\"\(t)\""), "no evidence for \(t)") }
        // The profile is named next to every score.
        let scores = html.components(separatedBy: "(bowl)</").count - 1
        #expect(scores == 2, "the score in the grid and on the card")
        #expect(html.contains("enso bells audition --profile bowl"))
        for external in ["src=\"http", "href=\"http", "src=\"file:", "href=\"/", "url("] {
            #expect(!html.contains(external))
        }
    }

    @Test func failuresComeFirstAndTheCardsCarryFiguresAndMatchedPlayers() throws {
        let dir = ToolRunner.temporaryDirectory("asset-report")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try BadPack.make(in: dir)
        let (report, sketches) = AssetCheck.runForReport(directory: dir)
        // The page is made from each asset's one analysis, kept as it was checked: the files are gone before it is
        // written, and every card still has its figures and its player (it used to decode every file again).
        for a in report.assets { try FileManager.default.removeItem(atPath: "\(dir)/\(a.file)") }
        let html = report.html(links: [("Loop seams", "loops.html")], sketches: sketches)
        let cards = html.components(separatedBy: "<section class=\"card ").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        #expect(cards.count == 3 && cards.allSatisfy { $0 == "fail" }, "\(cards)")
        // Bells: a decay plot each; the loop: its seam close-up and ±1 s view; a player for all three.
        #expect(html.components(separatedBy: "decay, dB re peak").count - 1 == 2)
        #expect(html.contains("±5 ms: end → start"))
        #expect(html.components(separatedBy: "src=\"data:audio/ogg;base64,").count - 1 == 3)
        #expect(html.contains("<a href=\"loops.html\">Loop seams</a>"))
        // The clipped bell's failing cell says so in the grid.
        #expect(html.contains("<td class=\"cell fail\" title=\"bells/bowl.flac:"))
    }

    @Test func findingsCarryTheirUnitInJSON() throws {
        let dir = ToolRunner.temporaryDirectory("asset-report")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TinyPack.make(in: dir)
        let report = AssetCheck.run(directory: dir)
        let units = Dictionary(
            report.assets.flatMap(\.findings).map { ($0.check, $0.unit) }, uniquingKeysWith: { a, _ in a })
        #expect(units["loudness"] == "LUFS" && units["manifest-loudness"] == "LU" && units["bell-decay"] == "s")
        #expect(
            units["bell-audition"] == "points" && units["seam:continuity"] == "ratio" && units["file"] == .some(nil))
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains("\"unit\":\"LUFS\""))
    }
}
