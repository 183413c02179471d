import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

/// A `--stdio` front end that stops reading (issue 18, item 4): its lines are dropped, the session's checkpoints go
/// on, and SIGTERM still ends the server, journaling the sitting.
@Suite struct StdioBackpressureTests {
    @Test func aFrontEndThatStopsReadingFreezesNothing() throws {
        let assets = ServerFixtures.assets()
        let journal = assets + "/j/sessions.jsonl"
        try FileManager.default.createDirectory(
            atPath: assets + "/j", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let server = try ServerProcess(
            ["--stdio", "--output", "null", "--journal", journal, "--checkpoint-interval", "0.2"], readingOutput: false)
        server.send(#"{"id":"go","command":"start","sitting":600,"bell":"\#(assets)/bell.wav"}"#)
        // Wait for the session's first checkpoint.
        let folder = journal + ".inprogress"
        let deadline = Date().addingTimeInterval(15)
        var checkpoint: String?
        while checkpoint == nil && Date() < deadline {
            checkpoint = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.first { $0.hasSuffix(".json") }
            usleep(50_000)
        }
        let file = folder + "/" + (try #require(checkpoint, "no checkpoint: \(server.stderr)"))
        // Far more replies than the pipe (64 KiB) and the queue (1 MiB) hold; sent from another thread, since the
        // old server stopped reading its input too.
        let flood = String(repeating: #"{"id":1,"command":"status"}"# + "\n", count: 8_000)
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.sendBytes(Array(flood.utf8))
            sent.signal()
        }
        // Once the server has read the flood (the pipe to it holds 64 KiB of its 224 KB), the replies to what it read
        // are megabytes: the pipe from it and its queue are full. (Waited for, not slept for: a loaded machine only
        // takes longer.)
        #expect(sent.wait(timeout: .now() + 15) == .success, "the server stopped reading its input")
        let first = try String(contentsOfFile: file, encoding: .utf8)
        var later = first
        let until = Date().addingTimeInterval(10)
        while later == first && Date() < until {
            usleep(100_000)
            later = (try? String(contentsOfFile: file, encoding: .utf8)) ?? first
        }
        #expect(later != first, "checkpoints stopped while the front end was not reading")
        kill(server.pid, SIGTERM)
        let status = server.wait(timeout: 10)
        #expect(status == 0, "SIGTERM must end the server promptly: \(server.stderr)")
        if status == nil { server.kill9() }
        let text = (try? String(contentsOfFile: journal, encoding: .utf8)) ?? ""
        #expect(text.contains(#""outcome":"stopped""#), "the sitting must be journaled: \(text)")
    }

    /// A front end whose stdout breaks while its stdin stays open is gone: the server stops the session (journaled
    /// as `stopped`) and exits, even when it has nothing to write at that moment.
    @Test func aBrokenOutputStopsTheSessionAndTheServer() throws {
        let assets = ServerFixtures.assets()
        let journal = assets + "/j/sessions.jsonl"
        try FileManager.default.createDirectory(
            atPath: assets + "/j", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let server = try ServerProcess(
            ["--stdio", "--output", "null", "--journal", journal, "--checkpoint-interval", "0.2"], readingOutput: false)
        server.send(#"{"id":"go","command":"start","sitting":600,"bell":"\#(assets)/bell.wav","strikes":1}"#)
        // The session has started once its first checkpoint is there.
        let folder = journal + ".inprogress"
        let deadline = Date().addingTimeInterval(15)
        var started = false
        while !started && Date() < deadline {
            started =
                (try? FileManager.default.contentsOfDirectory(atPath: folder))?.contains { $0.hasSuffix(".json") }
                ?? false
            usleep(50_000)
        }
        try #require(started, "no checkpoint: \(server.stderr)")
        // The server wrote the hello, the reply and the first events into the pipe; none is read, none is due now
        // (the next bell is ten minutes away). The front end goes, its stdin left open.
        server.closeOutput()
        let status = server.wait(timeout: 15)
        #expect(status == 0, "the server must end when its output breaks: \(server.stderr)")
        if status == nil { server.kill9() }
        #expect(server.stderr.contains("output is gone; stopping"), "\(server.stderr)")
        let text = (try? String(contentsOfFile: journal, encoding: .utf8)) ?? ""
        #expect(text.contains(#""outcome":"stopped""#), "the sitting must be journaled as stopped: \(text)")
    }
}
