import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// Near-duplicate groups in `loops verify` rows (issue #45): a texture and its quieter copy share a group, another
/// texture does not; the best of a group comes first by verdict; `--unique` keeps one per group.
@Suite struct LoopGroupsTests {
    @Test func nearDuplicateTexturesShareAGroupAndUniqueKeepsTheBest() throws {
        let dir = ToolRunner.temporaryDirectory("loop-groups")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rain = LoopSignals.periodicNoise(period: 96_000, frames: 96_000 * 3, smoothingHz: 2_000, poles: 2, seed: 5)
        let hiss = LoopSignals.periodicNoise(period: 96_000, frames: 96_000 * 3, smoothingHz: 300, poles: 2, seed: 9)
        let w = { (b: AudioBuffer, name: String) in
            try AudioFileEncoder.write(b, to: "\(dir)/\(name)", options: EncodeOptions(format: .wav24))
        }
        try w(rain, "a-rain.wav")
        try w(BellSignals.scaled(rain, decibels: -6), "b-rain-quieter.wav")
        try w(hiss, "c-other.wav")
        struct Row: Decodable {
            var file: String
            var group: Int
            var groupRank: Int
        }
        let all = try ToolRunner.run("enso", ["loops", "verify", "--json", dir])
        let rows = try JSONDecoder().decode([Row].self, from: Data(all.stdout.utf8))
        #expect(rows.count == 3, "\(all.stdout.prefix(400))")
        #expect(rows[0].group == rows[1].group && rows[2].group != rows[0].group, "\(rows)")
        #expect(Set([rows[0].groupRank, rows[1].groupRank]) == [1, 2] && rows[2].groupRank == 1)
        let r = try ToolRunner.run("enso", ["loops", "verify", "--json", "--unique", dir])
        let unique = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        #expect(unique.count == 2 && unique.allSatisfy { $0.groupRank == 1 }, "\(r.stdout.prefix(400))")
        // The table shows GROUP when the batch holds near-duplicates, and not for one file alone.
        let table = try ToolRunner.run("enso", ["loops", "verify", dir], environment: ["COLUMNS": "200"])
        #expect(table.stdout.contains("GROUP") && table.stdout.contains("1 #2"), "\(table.stdout)")
        let alone = try ToolRunner.run("enso", ["loops", "verify", dir + "/c-other.wav"])
        #expect(!alone.stdout.contains("GROUP"), "\(alone.stdout)")
        let csv = try ToolRunner.run("enso", ["loops", "verify", "--csv", dir])
        #expect(csv.stdout.hasPrefix("file,verdict,group,groupRank,start,end,"), "\(csv.stdout.prefix(200))")
    }
    /// Both loop pages collapse near-duplicate textures (issue #45): `loops verify --html` over the files, and
    /// `loops report --html` over the rows of a `--jsonl` run (the rows' groups, each file's measures, no sound:
    /// its cards say how to hear the seam).
    @Test func bothLoopPagesCollapseNearDuplicateTextures() throws {
        let dir = ToolRunner.temporaryDirectory("loop-groups-html")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rain = LoopSignals.periodicNoise(period: 96_000, frames: 96_000 * 3, smoothingHz: 2_000, poles: 2, seed: 5)
        let hiss = LoopSignals.periodicNoise(period: 96_000, frames: 96_000 * 3, smoothingHz: 300, poles: 2, seed: 9)
        try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
        for (b, name) in [
            (rain, "a-rain.wav"), (BellSignals.scaled(rain, decibels: -6), "b-rain-quieter.wav"), (hiss, "c-other.wav"),
        ] {
            try AudioFileEncoder.write(b, to: "\(dir)/in/\(name)", options: EncodeOptions(format: .wav24))
        }
        _ = try ToolRunner.run("enso", ["loops", "verify", "--html", "\(dir)/verify.html", "\(dir)/in"])
        let rows = try ToolRunner.run("enso", ["loops", "verify", "--jsonl", "\(dir)/in"])
        try rows.stdout.write(toFile: "\(dir)/rows.jsonl", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("enso", ["loops", "report", "--html", "\(dir)/report.html", "\(dir)/rows.jsonl"])
        #expect(r.stderr.contains("Wrote \(dir)/report.html"), "\(r.stderr)")
        for page in ["verify.html", "report.html"] {
            let html = try String(contentsOfFile: "\(dir)/\(page)", encoding: .utf8)
            #expect(html.contains(" lead\" data-g=\"1\"") && html.contains(" dup\" data-g=\"1\""), "\(page)")
            #expect(html.contains("+1 near-duplicate</button>"), "\(page)")
            #expect(html.contains("<summary>1 near-duplicate of #1 <bdi>a-rain.wav</bdi>"), "\(page)")
            #expect(html.contains("<b>2 distinct sounds</b>"), "\(page)")
            #expect(html.contains("<td>click</td>"), "\(page): each file's measures")
        }
        let report = try String(contentsOfFile: "\(dir)/report.html", encoding: .utf8)
        #expect(report.contains("hear the seam with <code>enso loops verify --listen '\(dir)/in/a-rain.wav'</code>"))
        #expect(!report.contains("data:audio/ogg"))
        let verify = try String(contentsOfFile: "\(dir)/verify.html", encoding: .utf8)
        #expect(verify.components(separatedBy: "data:audio/ogg").count - 1 == 3, "every loop, collapsed or not, plays")
    }
}
