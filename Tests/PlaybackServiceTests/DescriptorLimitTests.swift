import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

/// At the descriptor limit (issue 18, item 8): clients beyond the cap are refused with a message, and the journal
/// still has descriptors for the sitting's record.
@Suite struct DescriptorLimitTests {
    @Test func clientsBeyondTheCapAreRefusedAndTheJournalKeepsWorking() throws {
        let journal = "j/sessions.jsonl"
        let (assets, path, server, first) = try ServerFixtures.socketServer(journal: journal)
        defer { server.kill9() }
        #expect(first.lines.next { $0["hello"] != nil || $0["protocol"] != nil } != nil)
        // 48 descriptors: the cap leaves 32 in reserve, so 16 clients.
        let limit = try ToolRunner.run("/usr/bin/prlimit", ["--pid", "\(server.pid)", "--nofile=48:48"])
        try #require(limit.exitCode == 0, "prlimit: \(limit.stderr)")
        var others: [SocketClient] = []
        defer { for c in others { c.close() } }
        for _ in 0..<60 {
            if let c = SocketClient(path: path, timeout: 2) { others.append(c) }
        }
        var served = 0
        var refused = 0
        // Every client gets its line at once; one deadline for all only bounds a hang (a loaded machine is slow).
        let deadline = Date().addingTimeInterval(60)
        for c in others {
            let left = max(0.1, deadline.timeIntervalSinceNow)
            guard let line = c.lines.next(timeout: left, { _ in true }) else { continue }
            if line.json["ok"] == false {
                refused += 1
                #expect(
                    line.json["error"]?["message"]?.stringValue?.contains("too many clients") == true, "\(line.json)")
            } else {
                served += 1
            }
        }
        #expect(served == 15, "16 clients at most, the first included")
        #expect(refused == others.count - 15)
        first.send(#"{"id":"go","command":"start","sitting":600,"bell":"\#(assets)/bell.wav"}"# + "\n")
        #expect(first.lines.reply("go")?["ok"] == true)
        first.send(#"{"id":"end","command":"stop","bell":false}"# + "\n")
        let ended = try #require(first.lines.event("session.ended"))
        #expect(ended.json["journalError"] == nil, "\(ended.json)")
        #expect(
            ((try? String(contentsOfFile: assets + "/" + journal, encoding: .utf8)) ?? "").contains(
                #""outcome":"stopped""#))
    }
}
