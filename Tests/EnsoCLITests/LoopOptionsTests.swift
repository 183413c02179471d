import AudioTestSupport
import Foundation
import Testing

/// The grammar of the loop options (`--loop START:END`, `--min-length`, `--max-length`, `--crossfade`) is checked
/// before any file is opened: a mistake there is a usage error (64) naming the option, even for a file that does
/// not exist (which alone would be exit 2).
@Suite struct LoopOptionsTests {
    let fixture = CLIFixture("loop-options")

    @Test(arguments: [
        (["loops", "verify", "--loop", "5:2"], "--loop: '5:2': the loop ends before it starts"),
        (["loops", "verify", "--loop", "7:7"], "--loop: '7:7'"),
        (["loops", "verify", "--loop", "2.5s:0.5s"], "--loop: '2.5s:0.5s'"),
        // Milliseconds are read as seconds are (so the order is told, not the grammar refused).
        (["loops", "verify", "--loop", "2s:500ms"], "--loop: '2s:500ms': the loop ends before it starts"),
        (["loops", "verify", "--loop", "5-2"], "--loop: '5-2' is not START:END"),
        (
            ["loops", "find", "--min-length", "3s", "--max-length", "1s"],
            "--min-length 3s is longer than --max-length 1s"
        ),
        (["loops", "find", "--max-length", "long"], "--max-length: 'long' is not a duration"),
        (["loops", "find", "--crossfade", "1x"], "--crossfade: '1x' is not a duration"),
    ])
    func aLoopOptionMistakeIsAUsageErrorFoundBeforeTheFile(arguments: [String], message: String) throws {
        let r = try ToolRunner.run("enso", arguments + [fixture.dir + "/missing.wav"])
        #expect(r.exitCode == 64, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("Error: \(message)"), "\(r.stderr)")
        #expect(!r.stderr.contains("missing.wav"))
    }

    @Test func bakeChecksItsOptionsBeforeReadingIN() throws {
        let base = ["loops", "bake", fixture.dir + "/missing.wav", fixture.dir + "/out.wav"]
        let inverted = try ToolRunner.run("enso", base + ["--min-length", "4s", "--max-length", "2s"])
        #expect(inverted.exitCode == 64 && inverted.stderr.contains("--min-length 4s is longer"), "\(inverted.stderr)")
        let bad = try ToolRunner.run("enso", base + ["--crossfade", "soft"])
        #expect(bad.exitCode == 64 && bad.stderr.contains("--crossfade: 'soft'"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.dir + "/out.wav"))
    }

    /// A loop in mixed units needs the file's rate: it is still judged against the file (exit 2 when it does not fit).
    @Test func aMixedUnitLoopIsCheckedAgainstTheFile() throws {
        let r = try ToolRunner.run("enso", ["loops", "verify", "--loop", "1s:100", fixture.dir + "/missing.wav"])
        #expect(r.exitCode == 2, "\(r.stderr)")
    }
}
