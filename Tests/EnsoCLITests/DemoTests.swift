import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `make demo` end to end: Tools/demo.sh with the binaries of this build, into a temporary out/ folder.
@Suite("make demo")
struct DemoTests {
    @Test func demoRendersVerifiesAndReports() throws {
        let out = ToolRunner.temporaryDirectory("demo")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let root = URL(fileURLWithPath: bundledAssets).deletingLastPathComponent().path
        let bin = URL(fileURLWithPath: ToolRunner.executablePath("enso")).deletingLastPathComponent().path
        let demo = try ToolRunner.run("/bin/bash", [root + "/Tools/demo.sh"], environment: ["BIN": bin, "OUT": out])
        let text = demo.stdout + demo.stderr
        #expect(demo.exitCode == 0, "\(text)")
        #expect(text.contains("all 9 strikes on their planned frames"))
        #expect(text.contains("pack OK"))
        // The session is as long as its plan says, to the frame.
        let plan = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/demo-plan.json")))
                as? [String: Any])
        let info = try AudioFileDecoder.info(path: out + "/demo-session.flac")
        #expect(info.frames == (plan["endFrame"] as? Int64 ?? Int64(plan["endFrame"] as? Int ?? -1)))
        #expect(info.sampleRate.hertz == 48_000)
        // Rain switches to Stream at 1:30, inside the second cycle (which starts at 1:08).
        let events = plan["events"] as? [[String: Any]] ?? []
        let changes = events.filter { $0["kind"] as? String == "theme-change" }
        #expect(changes.count == 1)
        #expect(changes.first?["theme"] as? String == "stream")
        #expect(changes.first?["frame"] as? Int == 90 * 48_000)
        #expect(changes.first?["cycle"] as? Int == 2)
        #expect(text.contains("theme-change to stream"))
        let html = try String(contentsOfFile: out + "/assets-report.html", encoding: .utf8)
        for id in ["singing-bowl", "temple-bell", "soft-chime", "rain", "hearth", "forest", "stream"] {
            #expect(html.contains("id=\"\(id)\""), "the report has no section for \(id)")
        }
        #expect(html.contains("href=\"bells-report.html\""))
        let bells = try String(contentsOfFile: out + "/bells-report.html", encoding: .utf8)
        #expect(bells.contains("singing-bowl.flac") && bells.contains("soft-chime.flac"))
        let loops = try String(contentsOfFile: out + "/loops-report.html", encoding: .utf8)
        #expect(loops.contains("rain.flac") && loops.contains("stream.flac"))
    }
}
