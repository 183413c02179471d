import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `--interval` / `--interval-at` in `plan` (text and JSON, `"group": "interval"`) and `render` (on their frames,
/// with their own bell and volume).
@Suite("interval bells")
struct IntervalBellCommandTests {
    /// This test's folder (``CLIFixture``): `dir`.
    let fixture = CLIFixture("interval")
    var dir: String { fixture.dir }

    @Test("plan lists them as group interval, and render strikes them on their frames with their bell and volume")
    func planAndRender() throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let soft = try PlanCommandTests.makeImpulseBell(in: dir, amplitude: 0.25, name: "soft.wav")
        let planArgs = [
            "--bell", bell, "--sit", "40s", "--strikes", "1", "--interval-at", "10s,25s", "--interval-strikes", "2",
            "--spacing", "1", "--interval-bell", soft, "--interval-volume", "0.5", "--rate", "8000", "--repeat", "2",
        ]
        let plan = try CLIFixture.succeeds(["plan", "--json"] + planArgs)
        let report = try JSONDecoder().decode(PlanCommandTests.Report.self, from: Data(plan.stdout.utf8))
        let intervals = report.events.filter { $0.group == "interval" }
        // Cycle 2 starts at 40 s + 2 s breath = 42 s.
        #expect(intervals.map(\.frame) == [80_000, 88_000, 200_000, 208_000, 416_000, 424_000, 536_000, 544_000])
        #expect(intervals.allSatisfy { $0.kind == "strike" } && intervals.map(\.strike) == [1, 2, 1, 2, 1, 2, 1, 2])
        let text = try ToolRunner.run("enso", ["plan"] + planArgs)
        #expect(text.stdout.contains("strike (interval)"), "\(text.stdout)")
        // The summary line names them too (it did not say the plan rings any).
        #expect(text.stdout.contains(", interval bell \(soft) at 10s,25s (2 strikes), ambient"), "\(text.stdout)")

        let out = dir + "/s.wav"
        try CLIFixture.succeeds(["render", "-o", out, "--format", "wavf"] + planArgs)
        let left = Array(try AudioFileDecoder.decode(path: out).buffer.channel(0))
        #expect(left.indices.filter { left[$0] == 0.125 }.map { Int64($0) } == intervals.map(\.frame))
        #expect(
            left.indices.filter { left[$0] == 0.5 }.map { Int64($0) }
                == report.events.filter { $0.kind == "strike" && $0.group == nil }.map(\.frame))
    }

    @Test("play strikes them on the frames render does and prints them as interval strikes")
    func play() throws {
        let bell = try PlayCommandTests.bell(in: dir)
        let plan = [
            "--sit", "12", "--strikes", "1", "--interval", "5", "--interval-strikes", "2", "--spacing", "0.5",
            "--interval-volume", "0.3", "--fade-in", "0", "--fade-out", "0", "--bell", bell,
        ]
        try CLIFixture.succeeds(["render"] + plan + ["-o", dir + "/offline.wav", "--format", "wavf"])
        let play = try CLIFixture.succeeds(
            ["play", "--no-journal"] + plan + ["--output", "file:\(dir)/live.raw", "--period", "256"])
        for line in [
            "strike (interval) 1/2 cycle 1  (frame 240000)", "strike (interval) 2/2 cycle 1  (frame 264000)",
            "strike (interval) 1/2 cycle 1  (frame 480000)",
        ] {
            #expect(play.stdout.contains(line), "\(play.stdout)")
        }
        let offline = try AudioFileDecoder.decode(path: dir + "/offline.wav").buffer.interleaved()
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/live.raw"))
        let live = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(live.count == offline.count && live == offline)
    }

    @Test(
        "bad interval options exit 64 naming the option",
        arguments: [
            (["--interval", "2"], "--interval 2 s is outside 5...86400 s"),
            (["--interval", "soon"], "--interval: 'soon' is not a duration"),
            (["--interval-at", "10m,x"], "--interval-at: 'x' is not a duration"),
            (["--interval", "10m", "--interval-at", "5m"], "--interval-at cannot be given with --interval"),
            (["--interval", "10m", "--interval-strikes", "4"], "--interval-strikes 4 is outside 1...3"),
            (["--interval", "10m", "--interval-volume", "2"], "--interval-volume 2 is outside 0...1"),
        ])
    func badValues(extra: [String], message: String) throws {
        try PlanCommandTests.expectRefused(extra, saying: message)
    }
}
