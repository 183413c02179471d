import AudioTestSupport
import Foundation
import Testing

/// The Python example front end in docs/examples plays a short session on the null output.
@Suite struct ExampleFrontEndTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/examples/enso_frontend.py").path

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
    func examplePlaysAShortSessionAndPrintsItsEvents() throws {
        let r = try ToolRunner.run(
            "/usr/bin/python3",
            [Self.script, "--enso", ToolRunner.executablePath("enso"), "--sitting", "1", "--cycles", "2"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let all = r.stdout.split(separator: "\n").map(String.init)
        // The session first, up to its journal line; then the three scenes.
        let journal = try #require(all.firstIndex { $0.hasPrefix("journal: ") }, "\(r.stdout)")
        let lines = Array(all[...journal])
        #expect(lines.first?.hasPrefix("connected to enso") == true)
        #expect(lines.contains { $0.hasPrefix("event session.started") })
        #expect(lines.filter { $0.hasPrefix("event cycle.started") }.count == 2)
        #expect(lines.contains { $0.hasPrefix("event bell       cycle 1 opening strike 1 frame 0 heard at ") })
        #expect(lines.contains { $0.hasPrefix("event bell       cycle 2 closing strike 2") })
        #expect(lines.contains { $0.hasPrefix("event breath.started") })
        // The volume set with a ramp is read back (the plan keeps its own).
        #expect(lines.contains { $0.hasPrefix("volume 0.8 (plan 1), ignored fields [], next bell ") })
        // Two 1 s cycles, a 0.5 s group span and a 1 s breath: 3.5 s to the closing bell.
        #expect(lines.contains("event session.ended completed sat 3.5 s of 3.5 s, cycles 2"))
        #expect(lines.last == "journal: 1 session(s), last completed")
        let scenes = Array(all[journal...])
        // A bell previewed without a session plays out.
        #expect(scenes.contains { $0.hasPrefix("preview bell ") })
        #expect(scenes.contains("preview ended: finished"))
        // A theme change scheduled 0.5 s in crossfades on exactly that session frame.
        #expect(scenes.contains("scheduled 1 theme change(s)"))
        #expect(scenes.contains("theme changed at frame 24000"))
        // The watch sees the phone's volume change.
        #expect(scenes.contains("observing state, volume, ambientVolume, bellVolume: state idle"))
        #expect(scenes.contains { $0.hasPrefix("event state.changed") && $0.contains("volume 0.5") })
        #expect(scenes.contains { $0.hasPrefix("event state.changed") && $0.contains("bellVolume 0.4") })
    }
}
