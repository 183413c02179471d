import AudioFile
import AudioTestSupport
import Foundation
import Testing

@Suite("enso strike")
struct StrikeCommandTests {
    /// This test's folder (``CLIFixture``): `dir`.
    let fixture = CLIFixture("strike")
    var dir: String { fixture.dir }

    @Test("plays one bell on the paced null output and returns once it has decayed")
    func strikesAndWaitsForTheDecay() throws {
        let bell = try PlayCommandTests.bell(in: dir)
        let t0 = Date()
        let r = try ToolRunner.run("enso", ["strike", bell, "--output", "null"], timeout: 60)
        let elapsed = Date().timeIntervalSince(t0)
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("on 'null (paced)'"))
        // The 0.8 s bell decays below -60 dB in about 0.6 s; paced, the command cannot return sooner. Later depends
        // on the machine's load: only a hang is bounded, by the run's 60 s timeout.
        #expect(elapsed > 0.4, "took \(elapsed) s")
        let missing = try ToolRunner.run("enso", ["strike", dir + "/none.wav", "--output", "null"])
        #expect(missing.exitCode == 1)
        #expect(missing.stderr.contains("none.wav"))
        let usage = try ToolRunner.run("enso", ["strike"])
        #expect(usage.exitCode == 64)
        // The bell is the argument, not an option: the messages say BELL, never `--bell`.
        let unknown = try ToolRunner.run("enso", ["strike", "no-such-bell", "--output", "null"])
        #expect(unknown.exitCode == 64 && unknown.stderr.hasPrefix("Error: BELL: no bell with id 'no-such-bell'"))
        #expect(!unknown.stderr.contains("--bell") && !missing.stderr.contains("--bell"), "\(missing.stderr)")
    }
}
