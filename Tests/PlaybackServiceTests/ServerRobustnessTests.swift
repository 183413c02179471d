import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `enso serve --socket` with a session playing on the null output, under bad input and bad clients.
@Suite struct ServerRobustnessTests {
    /// A socket server with a 10-minute session playing; returns the server, a reading client and the session id.
    private func playing() throws -> (ServerProcess, SocketClient, String, String) {
        let (assets, path, server, client) = try ServerFixtures.socketServer()
        client.send(#"{"id":"go","command":"start","sitting":600,"bell":"\#(assets)/bell.wav"}"# + "\n")
        let id = try #require(client.lines.reply("go")?["data"]?["sessionId"]?.stringValue)
        return (server, client, id, path)
    }

    private func status(_ c: SocketClient, _ tag: String) -> JSONValue? {
        c.send(#"{"id":"\#(tag)","command":"status"}"# + "\n")
        return c.lines.reply(.string(tag))?["data"]
    }

    @Test func badInputGetsErrorRepliesAndTheSessionPlaysOn() throws {
        let (server, c, id, _) = try playing()
        let before = try #require(status(c, "s1")?["positionFrames"]?.numberValue)
        let text = ToolRunner.temporaryDirectory("robustness") + "/notes.wav"
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: text))
        let cases: [(String, String, String?)] = [
            (#"{"id":1,"command":"status""#, "invalid-request", nil),
            (#"{"id":2,"command":"set","volume":"loud"}"#, "invalid-field", "volume"),
            (#"{"id":3,"command":"set","volume":2}"#, "invalid-field", "volume"),
            (#"{"id":4,"command":"strike","bell":7}"#, "invalid-field", "bell"),
            (#"{"id":5,"command":["status"]}"#, "invalid-request", nil),
            (#"{"id":6,"command":"subscribe","events":"bell"}"#, "invalid-field", "events"),
            // A user's file that is not audio: an asset the engine cannot play, not a bad request.
            (#"{"id":7,"command":"strike","bell":"\#(text)"}"#, "unsupported", "bell"),
        ]
        for (line, _, _) in cases { c.send(line + "\n") }
        for (i, (_, code, field)) in cases.enumerated() {
            // The malformed first line has no readable id; the rest echo theirs.
            let reply = try #require(
                i == 0
                    ? c.lines.next { $0["ok"] == false && $0["id"] == nil }?.json
                    : c.lines.reply(.number(Double(i + 1))))
            #expect(reply["error"]?["code"] == .string(code))
            if let field { #expect(reply["error"]?["field"] == .string(field)) }
        }
        // Over 64 KiB: dropped with one error, and the next line on the same connection works.
        c.send(#"{"id":"big","command":"status","pad":""# + String(repeating: "x", count: 70_000) + "\"}\n")
        let big = try #require(c.lines.next { $0["error"]?["code"] == "line-too-long" }?.json)
        #expect(big["ok"] == false)
        // Binary garbage, NUL bytes and invalid UTF-8.
        var rng = SeededRandom(seed: 9)
        var garbage = (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }.filter { $0 != 0x0A }
        garbage.append(0x0A)
        c.sendBytes(garbage)
        c.sendBytes([0, 0, 0xFF, 0xC3, 0x28, 0x0A])
        #expect(c.lines.next { $0["error"]?["code"] == "invalid-request" } != nil)
        #expect(c.lines.next { $0["error"]?["code"] == "invalid-request" } != nil)
        // Still playing: the session clock moves on (asked again until it has, for at most 10 s). Not xruns == 0:
        // the null output has no real-time priority, so a loaded machine can stall it whatever the server does.
        var after: JSONValue = .null
        let deadline = Date().addingTimeInterval(10)
        repeat {
            usleep(50_000)
            after = try #require(status(c, "s2"))
        } while (after["positionFrames"]?.numberValue ?? 0) <= before && Date() < deadline
        #expect(after["state"] == "playing")
        #expect(after["sessionId"] == .string(id))
        #expect((after["positionFrames"]?.numberValue ?? 0) > before)
        server.kill9()
    }

    /// Others are answered while the server holds replies a client does not read (it never blocks on a full
    /// socket): shown by the order things happen in, not by how soon, so a loaded machine cannot fail it.
    @Test func aClientThatNeverReadsIsDisconnectedWithoutStallingOthers() throws {
        let (server, c, id, path) = try playing()
        let silent = try #require(SocketClient(path: path, reading: false))
        let request = #"{"id":"flood","command":"status"}"# + "\n"
        c.send(request)
        let replyBytes = try #require(c.lines.reply("flood").map { MessageEncoder.line($0).count })
        // Replies of about 600 KB in all: more than its socket takes (`net.core.wmem_default`, 208 KiB, at most),
        // less than the 1 MiB the server queues for a client before it disconnects it.
        let count = 600_000 / replyBytes
        #expect(silent.send(String(repeating: request, count: count)))
        // Then a strike: a client's requests run in order, so when its bell reaches the other client every status
        // before it has been answered, into a socket that is full.
        #expect(silent.send(#"{"id":"k","command":"strike"}"# + "\n"))
        #expect(c.lines.next { $0["event"] == "bell" && $0["group"] == "manual" } != nil)
        var unread: Int32 = 0
        #expect(ioctl(silent.fd, UInt(FIONREAD), &unread) == 0)
        #expect(Int(unread) < count * replyBytes / 2, "\(unread) bytes of \(count * replyBytes) reached the socket")
        // The server holds the rest and goes on answering the other client (each reply awaited up to the reader's
        // 10 s deadline, which bounds only a hang), with the silent client still connected.
        for i in 0..<20 { #expect(status(c, "probe\(i)")?["sessionId"] == .string(id)) }
        #expect(!server.stderr.contains("not reading"))
        // Past the 1 MiB the silent client is disconnected, and the session plays on.
        let more = Array(request.utf8)
        let flood = Thread {
            // 40 000 more replies of about 1 KB far exceed the queue; sending stops once the server hangs up.
            for _ in 0..<40_000 where silent.sendBytes(more) {}
        }
        flood.start()
        let deadline = Date().addingTimeInterval(10)
        while !server.stderr.contains("not reading") && Date() < deadline { usleep(50_000) }
        #expect(server.stderr.contains("not reading"))
        #expect(status(c, "last")?["state"] == "playing")
        silent.close()
        server.kill9()
    }

    @Test func aClientDisconnectingMidSessionLeavesItPlaying() throws {
        let (assets, path, server, a) = try ServerFixtures.socketServer(socket: "control.sock")
        a.send(
            #"{"id":1,"command":"start","sitting":1.5,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0,"fadeOut":0}"#
                + "\n")
        let id = try #require(a.lines.reply(1)?["data"]?["sessionId"]?.stringValue)
        a.close()
        let b = try #require(SocketClient(path: path))
        #expect(status(b, "s")?["sessionId"] == .string(id))
        let ended = try #require(b.lines.event("session.ended")?.json)
        #expect(ended["record"]?["outcome"] == "completed")
        #expect(ended["record"]?["satSeconds"] == 1.5)
        b.send(#"{"id":"q","command":"shutdown"}"# + "\n")
        #expect(b.lines.reply("q")?["ok"] == true)
        #expect(server.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func athousandCommandsPerSecondAreAllAnsweredInOrder() throws {
        let (server, c, id, _) = try playing()
        let t0 = Date()
        for i in 0..<1000 {
            c.send(#"{"id":\#(i),"command":"status"}"# + "\n")
            // 1 ms apart: 1000 commands in one second.
            let due = t0.addingTimeInterval(Double(i + 1) / 1000)
            let wait = due.timeIntervalSinceNow
            if wait > 0 { usleep(UInt32(wait * 1e6)) }
        }
        var ids: [Double] = []
        for _ in 0..<1000 {
            guard let r = c.lines.next(timeout: 10, { $0["ok"] == true && $0["id"]?.numberValue != nil }) else { break }
            ids.append(r.json["id"]!.numberValue!)
        }
        // Every one answered, in order (each within the 10 s deadline above). How soon depends on the machine's load
        // (3.4 s with the suites running side by side on 2 cores), so the time is not asserted.
        #expect(ids == (0..<1000).map(Double.init))
        let s = try #require(status(c, "end"))
        #expect(s["state"] == "playing" && s["sessionId"] == .string(id))
        server.kill9()
    }

    @Test func everyClientGetsTheEvents() throws {
        let (server, a, id, path) = try playing()
        let b = try #require(SocketClient(path: path))
        #expect(b.lines.next { $0["event"] == "hello" } != nil)
        a.send(#"{"id":"k","command":"strike"}"# + "\n")
        for c in [a, b] {
            let bell = try #require(c.lines.next { $0["event"] == "bell" && $0["group"] == "manual" }?.json)
            #expect(bell["sessionId"] == .string(id))
        }
        b.send(#"{"id":"u","command":"unsubscribe","events":["bell"]}"# + "\n")
        #expect(b.lines.reply("u")?["ok"] == true)
        a.send(#"{"id":"k2","command":"strike"}"# + "\n")
        #expect(a.lines.next { $0["event"] == "bell" && $0["group"] == "manual" } != nil)
        // Only the manual strike counts: under load b may have connected before the opening bell was sent.
        #expect(b.lines.next(timeout: 0.5) { $0["event"] == "bell" && $0["group"] == "manual" } == nil)
        server.kill9()
    }

    @Test(.enabled(if: getuid() == 0, "needs root to run a connect attempt as another uid"))
    func anotherUserCannotConnect() throws {
        let (server, c, _, path) = try playing()
        let user = "enso-test-other"
        if (try ToolRunner.run("/usr/bin/id", ["-u", user])).exitCode != 0 {
            let add = try ToolRunner.run("/usr/sbin/useradd", ["--system", "--no-create-home", user])
            try #require(add.exitCode == 0, "useradd failed: \(add.stderr)")
        }
        let uid = try ToolRunner.run("/usr/bin/id", ["-u", user]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let gid = try ToolRunner.run("/usr/bin/id", ["-g", user]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(sys.argv[1])
                print("connected")
            except PermissionError:
                print("denied")
            """
        let r = try ToolRunner.run(
            "/usr/bin/setpriv",
            ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "/usr/bin/python3", "-c", script, path])
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "denied", "\(r.stdout) \(r.stderr)")
        // The owner still connects, and the folder and socket modes are 0700 and 0600.
        #expect(status(c, "own")?["state"] == "playing")
        let dirMode =
            try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)[
                .posixPermissions] as? Int
        let sockMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(dirMode == 0o700)
        #expect(sockMode == 0o600)
        server.kill9()
    }
}
