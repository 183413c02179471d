import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// `sessions.list` on a long journal: every reply arrives, a page at a time (`limit`, `before`/`after`, `more`), and
/// a reply too long for a client's queue becomes an error reply saying so.
@Suite struct JournalPagingTests {
    /// A journal of `count` records, about five years at two sittings a day for 3 500 (1.4 MB: more than a client's
    /// output queue), every third one synced; returns its path and the ids, oldest first.
    static func longJournal(in folder: String, count: Int = 3_500) throws -> (path: String, ids: [String]) {
        var lines: [String] = []
        var ids: [String] = []
        let day = 1_700_000_000.0
        for i in 0..<count {
            let id = String(format: "00000000-0000-4000-8000-%012d", i)
            ids.append(id)
            let start = Date(timeIntervalSince1970: day + Double(i) * 43_200)
            let record = SessionRecord(
                id: id, start: ProtocolTime.format(start), end: ProtocolTime.format(start.addingTimeInterval(1_200)),
                plannedSeconds: 1_200, satSeconds: 1_200, cyclesCompleted: 1, outcome: .completed,
                bell: "/home/sitter/.local/share/enso/bells/temple-bell.wav", theme: "rain",
                themes: [.init(frame: 0, theme: "rain"), .init(frame: 28_800_000, theme: "stream")],
                syncedToHealth: i % 3 == 0)
            lines.append(SessionJournal.encodeLine(record))
        }
        let path = folder + "/sessions.jsonl"
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count > ClientConnection.maxQueuedBytes, "the journal must be longer than the queue")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, ids)
    }

    /// The bytes of `json` as one line.
    static func bytes(_ json: JSONValue) -> Int { MessageEncoder.line(json).count }

    @Test func aLongJournalIsListedAPageAtATimeOverASocket() throws {
        let folder = ServerFixtures.assets()
        let journal = try Self.longJournal(in: folder)
        let path = folder + "/run/control.sock"
        let server = try ServerProcess(["--socket", path, "--output", "null", "--journal", journal.path])
        let client = try #require(SocketClient(path: path))
        defer { client.close() }
        // No limit: the newest page of the documented default, and `more`.
        client.send(#"{"id":"all","command":"sessions.list"}"# + "\n")
        let first = try #require(client.lines.reply("all"), "no reply: \(server.stderr)")
        #expect(first["ok"] == true)
        let records = try #require(first["data"]?["records"]?.arrayValue)
        #expect(records.compactMap { $0["id"]?.stringValue } == Array(journal.ids.suffix(SessionsQuery.defaultLimit)))
        #expect(first["data"]?["more"] == true)
        #expect(Self.bytes(first) < ClientConnection.maxQueuedBytes / 8, "the default page is well under the queue")
        // Paged back with `before` until `more` is false: every record once, in order.
        var seen = records.compactMap { $0["id"]?.stringValue }
        var more = true
        var n = 0
        while more, let oldest = seen.first, n < 100 {
            n += 1
            client.send(#"{"id":\#(n),"command":"sessions.list","limit":700,"before":"\#(oldest)"}"# + "\n")
            let page = try #require(client.lines.reply(.number(Double(n))))
            let ids = try #require(page["data"]?["records"]?.arrayValue).compactMap { $0["id"]?.stringValue }
            #expect(!ids.isEmpty && ids.count <= 700)
            seen = ids + seen
            more = page["data"]?["more"] == true
        }
        #expect(seen == journal.ids)
        // Forward from a record with `after`, only the unsynced.
        client.send(
            #"{"id":"f","command":"sessions.list","after":"\#(journal.ids[2_990])","unsyncedOnly":true}"# + "\n")
        let forward = try #require(client.lines.reply("f")?["data"])
        let ids = try #require(forward["records"]?.arrayValue).compactMap { $0["id"]?.stringValue }
        #expect(
            ids
                == Array(
                    journal.ids[2_991...].enumerated().filter { (2_991 + $0.offset) % 3 != 0 }.map(\.element).prefix(
                        100)))
        #expect(forward["more"] == true)
        // A limit larger than the journal: the page is cut at the reply bound, the reply arrives and says `more`.
        client.send(#"{"id":"big","command":"sessions.list","limit":1000000}"# + "\n")
        let big = try #require(client.lines.reply("big"), "no reply: \(server.stderr)")
        let bigCount = try #require(big["data"]?["records"]?.arrayValue).count
        #expect(bigCount > 1_000 && bigCount < journal.ids.count)
        #expect(big["data"]?["more"] == true)
        #expect(Self.bytes(big) <= ClientConnection.maxReplyBytes)
        // An id that is not in the journal is named.
        client.send(#"{"id":"x","command":"sessions.list","after":"nope"}"# + "\n")
        let missing = try #require(client.lines.reply("x"))
        #expect(missing["error"]?["field"] == "after")
        // The connection is still there: a status is answered.
        client.send(#"{"id":"s","command":"status"}"# + "\n")
        #expect(client.lines.reply("s")?["ok"] == true)
    }

    @Test func aLongJournalIsListedOverStdioToo() throws {
        let folder = ServerFixtures.assets()
        let journal = try Self.longJournal(in: folder)
        let server = try ServerProcess(["--stdio", "--output", "null", "--journal", journal.path])
        server.send(#"{"id":"all","command":"sessions.list"}"#)
        server.send(#"{"id":"big","command":"sessions.list","limit":1000000}"#)
        let all = try #require(server.lines.reply("all"), "no reply: \(server.stderr)")
        #expect(all["data"]?["records"]?.arrayValue?.count == SessionsQuery.defaultLimit)
        let big = try #require(server.lines.reply("big"), "no reply: \(server.stderr)")
        #expect(big["data"]?["more"] == true)
        server.closeInput()
        #expect(server.wait() == 0)
    }

    /// Whatever a reply holds, one longer than a reply may be arrives as an error reply with its id.
    @Test func aReplyTooLongForTheQueueBecomesAnErrorReply() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        let client = ClientConnection(
            id: 1, readFD: fds[0], writeFD: fds[1], isSocket: false,
            dispatcher: RequestDispatcher(service: try ManualServer(journal: ServerFixtures.assets() + "/j").controller)
        )
        let huge = JSONValue.string(String(repeating: "x", count: ClientConnection.maxReplyBytes))
        client.enqueue(reply: .ok("id-1", huge))
        let line = try #require(client.queue.split(separator: 0x0A).first)
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(line))
        #expect(json["id"] == "id-1")
        #expect(json["ok"] == false)
        #expect(json["error"]?["code"] == "unsupported")
        #expect(json["error"]?["message"]?.stringValue?.contains("over the \(ClientConnection.maxReplyBytes)") == true)
        // A reply that fits goes as it is.
        client.enqueue(reply: .ok("id-2", "short"))
        #expect(client.queue.split(separator: 0x0A).count == 2)
    }
}
