import AudioTestSupport
import Foundation
import Testing

/// `enso render --progress`: JSON lines for a front end, the bar only on a terminal.
@Suite("enso render --progress")
struct RenderProgressTests {
    @Test func jsonLinesEndAtTheSessionLength() throws {
        let dir = ToolRunner.temporaryDirectory("render-progress")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let plan = [
            "--bell", bell, "--sit", "20s", "--strikes", "1", "--repeat", "once", "--rate", "8000", "--ambient", "none",
        ]
        let r = try ToolRunner.run("enso", ["render", "-o", dir + "/s.wav", "--progress", "json"] + plan)
        #expect(r.exitCode == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(!lines.isEmpty)
        let objects = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Double], "\($0)")
        }
        let total = try #require(objects.last?["total"])
        #expect(objects.last?["done"] == total && objects.last?["fraction"] == 1)
        #expect(total > 20)  // the sitting plus the bell's ring-out
        #expect(r.stdout.contains("s.wav"))
        // Off a terminal the default bar stays silent; an unknown mode is bad usage.
        let quiet = try ToolRunner.run("enso", ["render", "-o", dir + "/q.wav"] + plan)
        #expect(quiet.exitCode == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        let bad = try ToolRunner.run("enso", ["render", "-o", dir + "/b.wav", "--progress", "fancy"] + plan)
        #expect(bad.exitCode == 64 && bad.stderr.contains("--progress: 'fancy' is not one of bar, json, none"))
    }
}
