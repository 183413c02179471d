import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

#if canImport(Glibc)
    import Glibc
#endif

/// An unwritable journal refuses `start` (issue 18, item 6), and pause and resume checkpoint at once (item 10).
@Suite struct JournalWritabilityTests {
    private func command(_ line: String) throws -> ControlCommand {
        try ControlCommand(try Request.parse(Array(line.utf8)))
    }

    /// Runs `command` on `c` as the server does (through a dispatcher).
    private func handle(_ c: SessionController, _ command: ControlCommand) -> Result<JSONValue, ProtocolError> {
        var dispatcher = RequestDispatcher(service: c)
        return dispatcher.execute(command)
    }

    private func controller(_ journal: SessionJournal, interval: Double = 60) -> SessionController {
        SessionController(
            output: .null, journal: journal, assets: AssetLibrary(directory: ToolRunner.temporaryDirectory("no-pack")),
            checkpointInterval: interval)
    }

    @Test func aReadOnlyJournalRefusesStartWithPermissionNamingThePath() throws {
        let assets = ServerFixtures.assets()
        let journal = SessionJournal(path: assets + "/ro/sessions.jsonl")
        let path = journal.path
        journal.syscalls.open = { p, flags, mode in
            if p == path || p.hasPrefix(path + ".") { errno = EROFS; return -1 }
            return Glibc.open(p, flags, mode)
        }
        let c = controller(journal)
        let r = handle(c, try command(#"{"command":"start","sitting":60,"bell":"\#(assets)/bell.wav"}"#))
        guard case .failure(let e) = r else {
            Issue.record("start must be refused when the journal cannot be written")
            _ = c.shutdown()
            return
        }
        #expect(e.code == .permission)
        #expect(e.message.contains(path), "\(e.message)")
        #expect(!c.isActive)
    }

    /// A journal path that names a folder is the server's own configuration, `unsupported`, whether `start` writes
    /// it or `sessions.list` reads it (through the one kind-to-code table): `start` said `unavailable` ("Is a
    /// directory", from the errno table) while `sessions.list` said `unsupported`.
    @Test func aJournalThatIsAFolderIsUnsupportedForStartAndList() throws {
        let assets = ServerFixtures.assets()
        let path = assets + "/folder.jsonl"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let c = controller(SessionJournal(path: path))
        for line in [
            #"{"command":"start","sitting":60,"bell":"\#(assets)/bell.wav"}"#, #"{"command":"sessions.list"}"#,
        ] {
            guard case .failure(let e) = handle(c, try command(line)) else {
                Issue.record("\(line) was not refused")
                continue
            }
            #expect(e.code == .unsupported, "\(line): \(e)")
            #expect(e.message == "the journal \(path) is not a regular file", "\(line): \(e)")
        }
        _ = c.shutdown()
    }

    @Test func aReadOnlyMountRefusesStartThroughServe() throws {
        let dir = ToolRunner.temporaryDirectory("ro-mount")
        let assets = ServerFixtures.assets()
        let probe = try ToolRunner.run(
            "/usr/bin/unshare", ["-m", "/bin/mount", "-t", "tmpfs", "-o", "ro,mode=0755", "tmpfs", dir])
        guard probe.exitCode == 0 else {
            print(
                "skipped: a read-only mount needs unshare -m (\(probe.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))"
            )
            return
        }
        let journal = dir + "/sessions.jsonl"
        let script =
            "/bin/mount -t tmpfs -o ro,mode=0755 tmpfs \"$1\" && exec \"$2\" serve --stdio --output null --journal \"$3\""
        let r = try ToolRunner.run(
            "/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", dir, ToolRunner.executablePath("enso"), journal],
            stdin: #"{"id":"go","command":"start","sitting":60,"bell":"\#(assets)/bell.wav"}"# + "\n")
        let reply = r.stdout.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }.first {
            $0["id"] == "go"
        }
        #expect(reply?["ok"] == false, "\(r.stdout) \(r.stderr)")
        #expect(reply?["error"]?["code"] == "permission")
        #expect(reply?["error"]?["message"]?.stringValue?.contains(journal) == true, "\(r.stdout)")
    }

    /// A wall clock moved by hand.
    private final class ManualClock {
        var now = Date(timeIntervalSince1970: 1_800_000_000)
        func advance(_ seconds: Double) { now = now.addingTimeInterval(seconds) }
    }

    @Test func pauseAndResumeCheckpointFromTheCommand() throws {
        let assets = ServerFixtures.assets()
        let journal = SessionJournal(path: assets + "/j/sessions.jsonl")
        let c = controller(journal)
        let clock = ManualClock()
        c.wallClock = { clock.now }
        let started = handle(c, try command(#"{"command":"start","sitting":600,"bell":"\#(assets)/bell.wav"}"#))
        let id = try #require(try started.get()["sessionId"]?.stringValue)
        defer { _ = c.shutdown() }
        let file = journal.checkpointPath(id)
        // The server writes checkpoints on a background queue: each read waits for the writes asked for so far.
        func written() throws -> String {
            c.session?.checkpointWriter?.drain()
            return try String(contentsOfFile: file, encoding: .utf8)
        }
        let atStart = try written()
        // Past the least spacing of forced checkpoints (0.25 s), on the clock the journal is timed by.
        clock.advance(0.3)
        // No poll in between: the checkpoint comes from the command itself.
        _ = try handle(c, try command(#"{"command":"pause"}"#)).get()
        let atPause = try written()
        #expect(atPause != atStart, "pause must write a checkpoint")
        clock.advance(0.3)
        _ = try handle(c, try command(#"{"command":"resume"}"#)).get()
        let atResume = try written()
        #expect(atResume != atPause, "resume must write a checkpoint")
        // A pause right after: written by the next poll once 0.25 s have passed since the last one.
        clock.advance(0.1)
        _ = try handle(c, try command(#"{"command":"pause"}"#)).get()
        #expect(try written() == atResume)
        _ = c.poll()
        #expect(try written() == atResume, "not before 0.25 s")
        clock.advance(0.2)
        _ = c.poll()
        #expect(
            try written() != atResume, "a pause soon after is checkpointed later")
    }
}
