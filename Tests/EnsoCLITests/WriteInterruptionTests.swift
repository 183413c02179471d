import AudioTestSupport
import Foundation
import Testing

/// SIGINT and SIGTERM during a command that writes through the atomic writers (`Tools/enso/WriteInterruption.swift`):
/// the unfinished temporary file is removed and the command exits 128 + the signal, saying so on stderr. It used to
/// die where it stood, leaving `.OUT.tmp-PID-XXXX` (40 MB a few seconds into a long FLAC render) beside OUT.
@Suite("a signal while writing")
struct WriteInterruptionTests {
    let fixture = CLIFixture("interrupt")
    var dir: String { fixture.dir }

    /// The temporary files in the test's folder.
    func temporaries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp-") }
    }

    @Test(
        "render: the temporary file is removed and the exit status is 128 + the signal",
        arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
    func render(signal: Int32, status: Int32, name: String) throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir, rate: 48_000)
        let out = dir + "/o.flac"
        // 2400 hours: no machine renders it within the test's deadline, so the signal always meets the render.
        let running = try ToolRunner.Running(
            ToolRunner.executablePath("enso"),
            [
                "render", "-o", out, "--bell", bell, "--sit", "24h", "--repeat", "100", "--strikes", "1",
                "--progress", "none",
            ])
        // The temporary file is created once the plan and its sounds are ready: wait for it (a minute at most, for a
        // loaded machine), then signal the render writing it.
        let deadline = Date().addingTimeInterval(60)
        while try temporaries().isEmpty && running.isRunning && Date() < deadline { usleep(10_000) }
        let seen = try temporaries()
        #expect(seen.count == 1 && seen[0].hasPrefix(".o.flac.tmp-"), "\(seen)")
        kill(running.processIdentifier, signal)
        let r = try running.wait(timeout: 60)
        #expect(r.exitCode == status, "\(r.stderr)")
        #expect(r.stderr == "Interrupted by \(name): \(out) was not written.\n", "\(r.stderr)")
        #expect(try temporaries().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
