import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `--theme-at` / `--theme-crossfade` in `enso plan` and `enso render`.
@Suite("enso render --theme-at")
struct RenderThemeChangeTests {
    /// Two noise ambients at 8 kHz (no resampling at --rate 8000) and the impulse bell.
    static func fixtures(in dir: String) throws -> (bell: String, first: String, second: String) {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let first = dir + "/first.wav"
        let second = dir + "/second.wav"
        try AudioFileEncoder.write(
            SignalGenerator.buffer(
                SignalGenerator.whiteNoise(frames: 3001, amplitude: 0.3, seed: 21), sampleRate: 8000),
            to: first, options: EncodeOptions(format: .wavf))
        try AudioFileEncoder.write(
            SignalGenerator.buffer(
                SignalGenerator.whiteNoise(frames: 2203, amplitude: 0.3, seed: 22), sampleRate: 8000),
            to: second, options: EncodeOptions(format: .wavf))
        return (bell, first, second)
    }

    static func render(_ dir: String, _ name: String, _ args: [String]) throws -> [Float] {
        let out = dir + "/" + name + ".wav"
        let r = try ToolRunner.run("enso", ["render", "-o", out, "--format", "wavf"] + args)
        #expect(r.exitCode == 0, "\(r.stderr)")
        return Array(try AudioFileDecoder.decode(path: out).buffer.channel(0))
    }

    @Test("the crossfade starts on the exact frame of --theme-at, and the plan lists it")
    func crossfadeOnItsFrame() throws {
        let dir = ToolRunner.temporaryDirectory("render-theme")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (bell, first, second) = try Self.fixtures(in: dir)
        // Bell silent, no fade-in: the output is the ambient alone. 1.2345 s at 8 kHz is frame 9876,
        // not a multiple of the 4096-frame render block.
        let base = [
            "--bell", bell, "--bell-volume", "0", "--sit", "3s", "--spacing", "1", "--fade-in", "0", "--rate", "8000",
        ]
        let change = ["--theme-at", "1.2345s=" + second, "--theme-crossfade", "0.25"]
        let plan = try ToolRunner.run("enso", ["plan", "--json", "--ambient", first] + base + change)
        #expect(plan.exitCode == 0, "\(plan.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any]
        let events = try #require(report?["events"] as? [[String: Any]])
        let theme = try #require(events.first { $0["kind"] as? String == "theme-change" })
        #expect(theme["frame"] as? Int == 9876)
        #expect(theme["theme"] as? String == second)
        #expect(theme["cycle"] as? Int == 1)
        let text = try ToolRunner.run("enso", ["plan", "--ambient", first] + base + change)
        #expect(text.stdout.contains("theme-change to \(second)"), "\(text.stdout)")

        let alone = try Self.render(dir, "alone", ["--ambient", first] + base)
        let switched = try Self.render(dir, "switched", ["--ambient", first] + base + change)
        let secondAlone = try Self.render(dir, "second", ["--ambient", second] + base)
        #expect(switched.count == alone.count)
        // The first frame that departs from the first theme alone is the one after the change frame (on
        // the change frame itself the old theme is still at full level and the new one at 0).
        let departs = zip(switched, alone).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(departs == 9877)
        // After the 0.25 s (2000-frame) crossfade the second theme plays alone, from its own first frame
        // at the change frame, until the closing fade-out (from 4 s, frame 32000). 1e-6: the same float
        // products in both renders; only float rounding of the mix may differ.
        let worst: Float =
            (11_876..<32_000).map { (i: Int) -> Float in abs(switched[i] - secondAlone[i - 9876]) }.max() ?? 1
        #expect(worst < 1e-6, "worst \(worst)")
    }

    @Test("bad --theme-at and --theme-crossfade values exit 64 naming the option")
    func badValues() throws {
        let dir = ToolRunner.temporaryDirectory("render-theme-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (bell, first, _) = try Self.fixtures(in: dir)
        let base = ["--bell", bell, "--ambient", first, "--sit", "3s", "--spacing", "1", "--rate", "8000"]
        let cases: [([String], String)] = [
            (["--theme-at", "-2=" + first], "before the start"),
            (["--theme-at", "1h=" + first], "after the session end"),
            (["--theme-at", "soon=" + first], "is not a duration"),
            (["--theme-at", "10s"], "is not TIME=ID"),
            (["--theme-at", "1s=waterfall", "--assets", bundledAssets], "waterfall"),
            (
                ["--theme-at", "1s=" + first, "--theme-crossfade", "60.01"],
                "--theme-crossfade 60.01 is outside 0.05...60"
            ),
            (
                ["--theme-at", "1s=" + first, "--theme-crossfade", "0.04"],
                "--theme-crossfade 0.04 is outside 0.05...60"
            ),
        ]
        for (extra, message) in cases {
            for command in ["plan", "render"] {
                let out = dir + "/bad.wav"
                let args = command == "render" ? ["render", "-o", out] : ["plan"]
                let r = try ToolRunner.run("enso", args + base + extra)
                #expect(r.exitCode == 64, "\(command) \(extra): \(r.stderr)")
                #expect(r.stderr.contains(message), "\(command) \(extra): \(r.stderr)")
                let option = extra.contains("--theme-crossfade") ? "--theme-crossfade" : "--theme-at"
                #expect(r.stderr.contains(option), "\(command) \(extra): \(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
            }
        }
    }

    @Test("--theme-crossfade takes 0.05...60 s, the range of the protocol's set crossfade, and says so in its help")
    func crossfadeRange() throws {
        let dir = ToolRunner.temporaryDirectory("render-theme-range")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (bell, first, _) = try Self.fixtures(in: dir)
        let base = ["plan", "--bell", bell, "--ambient", first, "--sit", "3s", "--spacing", "1", "--rate", "8000"]
        for seconds in ["0.05", "60"] {
            let r = try ToolRunner.run("enso", base + ["--theme-at", "1s=" + first, "--theme-crossfade", seconds])
            #expect(r.exitCode == 0, "\(seconds): \(r.stderr)")
        }
        let below = try ToolRunner.run("enso", base + ["--theme-at", "1s=" + first, "--theme-crossfade", "0"])
        #expect(below.exitCode == 64 && below.stderr.contains("--theme-crossfade 0 is outside 0.05...60"))
        let help = try ToolRunner.run("enso", ["plan", "--help"])
        // Help wraps at 80 columns: compare with the line breaks and indentation folded into single spaces.
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // The range and default generated from the option's declaration (docs/cli.md, "Declaring options").
        #expect(
            words.contains("--theme-crossfade <seconds> Crossfade of each --theme-at change (0.05...60, default 3)."),
            "\(help.stdout)")
    }

    @Test("the bundled pack: Rain switching to Stream in the second cycle")
    func bundledThemes() throws {
        let plan = try ToolRunner.run(
            "enso",
            [
                "plan", "--json", "--assets", bundledAssets, "--sit", "1m", "--repeat", "2", "--ambient", "rain",
                "--theme-at", "1m10s=stream",
            ])
        #expect(plan.exitCode == 0, "\(plan.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any]
        let events = try #require(report?["events"] as? [[String: Any]])
        let changes = events.filter { $0["kind"] as? String == "theme-change" }
        #expect(changes.count == 1)
        #expect(changes.first?["frame"] as? Int == 70 * 48_000)
        #expect(changes.first?["theme"] as? String == "stream")
        #expect(changes.first?["cycle"] as? Int == 2)
    }
}
