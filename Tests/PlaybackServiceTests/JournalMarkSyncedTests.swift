import AudioTestSupport
import Foundation
import Testing

@testable import PlaybackService

/// `markSynced` on a large journal (issue 18, item 12): one pass over the bytes, not a decode of every record.
@Suite struct JournalMarkSyncedTests {
    @Test func onlyLinesThatCanHoldAWantedIDAreDecoded() throws {
        let j = SessionJournal(path: ToolRunner.temporaryDirectory("journal-50k") + "/enso/sessions.jsonl")
        try j.append(SessionJournalTests.record("first"))
        var text = try String(contentsOfFile: j.path, encoding: .utf8)
        let ids = (0..<50_000).map { i in "6b9bdc95-0000-4000-8000-\(String(format: "%012d", i))" }
        for id in ids { text += SessionJournal.encodeLine(SessionJournalTests.record(id)) + "\n" }
        try text.write(toFile: j.path, atomically: false, encoding: .utf8)
        let target = ids[31_337]
        let clock = ContinuousClock()
        var result: (found: [String], missing: [String]) = ([], [])
        let elapsed = try clock.measure { result = try j.markSynced([target, "6b9bdc95-nope"]) }
        #expect(result.found == [target] && result.missing == ["6b9bdc95-nope"])
        #expect(j.lastMarkSyncedDecodes == 1, "decoded \(j.lastMarkSyncedDecodes) lines")
        let after = try String(contentsOfFile: j.path, encoding: .utf8)
        let changed = zip(text.split(separator: "\n"), after.split(separator: "\n")).filter { $0 != $1 }
        #expect(changed.count == 1 && changed.first?.1.contains(#""syncedToHealth":true"#) == true)
        #expect(try j.read().records.count == 50_001)
        print("markSynced on 50 001 records: \(elapsed)")
        // An id that JSON may spell with escapes is still found (every line is decoded for it).
        var odd = SessionJournalTests.record("a/b\"c")
        odd.syncedToHealth = false
        try j.append(odd)
        #expect(try j.markSynced(["a/b\"c"]).found == ["a/b\"c"])
    }
}
