import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// `kill -9` of a real `enso serve` mid-session, twenty times: every session is in the journal exactly once,
/// as `interrupted`, with its sat time close to the truth.
@Suite struct CrashRecoveryTests {
    @Test func twentyKillNineCrashesLoseAndDuplicateNothing() throws {
        let assets = ServerFixtures.assets()
        let journal = assets + "/data/enso/sessions.jsonl"
        try FileManager.default.createDirectory(
            atPath: assets + "/data/enso", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var rng = SeededRandom(seed: 2026)
        var truth: [String: Double] = [:]
        var order: [String] = []
        for i in 0..<20 {
            // Checkpoints every 0.2 s so that twenty crashes fit in a fast test; the default is 5 s.
            let server = try ServerProcess([
                "--stdio", "--output", "null", "--journal", journal, "--checkpoint-interval", "0.2",
            ])
            server.send(#"{"id":\#(i),"command":"start","sitting":600,"bell":"\#(assets)/bell.wav","strikes":1}"#)
            let reply = try #require(server.lines.reply(.number(Double(i))))
            let id = try #require(reply["data"]?["sessionId"]?.stringValue)
            let startsAt = try #require(reply["data"]?["startsAt"]?.stringValue.flatMap(ProtocolTime.parse))
            usleep(UInt32(300_000 + rng.next() % 900_000))
            server.kill9()
            // After the kill returned: the process can have sat no longer than this.
            let killedAt = Date()
            truth[id] = killedAt.timeIntervalSince(startsAt)
            order.append(id)
            if i > 0 {
                // The previous crash was recovered when this server started.
                #expect(server.stderr.contains("recovered interrupted session \(order[i - 1])"))
            }
        }
        // The last one is recovered by the next use of the journal.
        let list = try ToolRunner.run("enso", ["sessions", "list", "--json", "--journal", journal])
        #expect(list.exitCode == 0)
        #expect(list.stderr.contains("recovered interrupted session \(order[19])"))
        let records = try SessionJournal(path: journal).read()
        #expect(records.warnings.isEmpty)
        #expect(records.records.map(\.id) == order)
        #expect(Set(records.records.map(\.id)).count == 20)
        for r in records.records {
            #expect(r.outcome == .interrupted)
            let t = try #require(truth[r.id])
            // Never more than was sat: the time to the kill plus the frames the output renders ahead of the clock
            // (its 8192-frame buffer and the 2048-frame period being written, 0.213 s). At most one checkpoint
            // interval less, and the journal promises 5 s with its 5 s default; a loaded machine can delay a
            // checkpoint, so the bound is the promise.
            let ahead = (8192.0 + 2048) / 48_000
            #expect(r.satSeconds <= t + ahead + 0.001, "session \(r.id): sat \(r.satSeconds) s, truth \(t) s")
            #expect(t - r.satSeconds < 5, "session \(r.id): sat \(r.satSeconds) s, truth \(t) s")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: journal + ".inprogress").filter {
                $0.hasSuffix(".json")
            }.isEmpty)
    }
}
