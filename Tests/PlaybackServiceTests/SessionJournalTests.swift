import AudioCore
import AudioTestSupport
import ControlProtocol
import Foundation
import SystemIO
import Testing

@testable import PlaybackService

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SessionJournalTests {
    static func record(_ id: String, sat: Double = 60, start: String = "2026-11-29T07:00:00.000Z") -> SessionRecord {
        SessionRecord(
            id: id, start: start, end: "2026-11-29T07:20:00.000Z", plannedSeconds: 1200, satSeconds: sat,
            cyclesCompleted: 1, outcome: .completed, bell: "singing-bowl", theme: nil)
    }

    private func fresh() -> SessionJournal {
        SessionJournal(path: ToolRunner.temporaryDirectory("journal") + "/enso/sessions.jsonl")
    }

    @Test func appendThenReadKeepsOrderAndEveryField() throws {
        let j = fresh()
        #expect(try j.read().records.isEmpty)
        var b = Self.record("b", sat: 12.5)
        b.theme = "rain"
        b.plannedSeconds = nil
        try j.append(Self.record("a"))
        try j.append(b)
        let c = try j.read()
        #expect(c.records == [Self.record("a"), b])
        #expect(c.warnings.isEmpty)
        let text = try String(contentsOfFile: j.path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 2)
        #expect(text.contains(#""plannedSeconds":null"#))
        #expect(text.contains(#""syncedToHealth":false"#))
    }

    @Test func tornLastLineIsSkippedWithAWarningAndNextAppendStartsANewLine() throws {
        let j = fresh()
        try j.append(Self.record("a"))
        let fh = FileHandle(forWritingAtPath: j.path)!
        fh.seekToEndOfFile()
        fh.write(Data(#"{"id":"torn","start":"2026-"#.utf8))
        fh.closeFile()
        var c = try j.read()
        #expect(c.records.map(\.id) == ["a"])
        #expect(c.warnings.count == 1)
        #expect(c.warnings.first?.contains("torn last line") == true)
        try j.append(Self.record("b"))
        c = try j.read()
        #expect(c.records.map(\.id) == ["a", "b"])
        #expect(c.warnings.count == 1 && c.warnings[0].contains("line 2"))
    }

    @Test func markSyncedRewritesAtomicallyAndKeepsUnreadableLines() throws {
        let j = fresh()
        try j.append(Self.record("a"))
        try FileHandle(forWritingAtPath: j.path)!.seekToEndAndWrite("garbage line\n")
        try j.append(Self.record("b"))
        let r = try j.markSynced(["b", "zz"])
        #expect(r.found == ["b"])
        #expect(r.missing == ["zz"])
        let c = try j.read()
        #expect(c.records.map(\.syncedToHealth) == [false, true])
        #expect(try String(contentsOfFile: j.path, encoding: .utf8).contains("garbage line\n"))
        let folder = (j.path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.contains(".tmp-") })
    }

    @Test func fullDiskGivesAClearErrorAndKeepsWhatWasWritten() throws {
        let j = fresh()
        try j.append(Self.record("a"))
        let before = try Data(contentsOf: URL(fileURLWithPath: j.path))
        // The disk fills after 10 bytes of the new line: the partial line must be cut back off.
        let budget = Atomic10()
        j.syscalls.write = { fd, p, n in
            let allowed = budget.take(n)
            if allowed == 0 {
                errno = ENOSPC
                return -1
            }
            return Glibc.write(fd, p, allowed)
        }
        #expect {
            try j.append(Self.record("b"))
        } throws: { e in
            let e = e as! EnsoError
            return e.kind == .failure && e.message.contains("No space left on device") && e.message.contains(j.path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: j.path)) == before)
        j.syscalls = FileSyscalls()
        try j.append(Self.record("c"))
        #expect(try j.read().records.map(\.id) == ["a", "c"])
    }

    @Test func devFullJournalReportsNoSpace() throws {
        let dir = ToolRunner.temporaryDirectory("journal-full")
        try FileManager.default.createSymbolicLink(atPath: dir + "/sessions.jsonl", withDestinationPath: "/dev/full")
        let j = SessionJournal(path: dir + "/sessions.jsonl")
        #expect(throws: EnsoError.self) { try j.append(Self.record("a")) }
    }

    @Test func checkpointOfADeadProcessIsRecoveredOnceAsInterrupted() throws {
        let j = fresh()
        try j.append(Self.record("done"))
        // A checkpoint written by this process is live: recovery leaves it. A sitting whose closing bell had not rung
        // is saved as interrupted whatever the record says (one whose had is `completed`: NextBellAndClosingTests).
        var live = Self.record("live", sat: 30)
        live.outcome = .stopped
        try j.checkpoint(live)
        #expect(try j.recoverInterrupted().isEmpty)
        // Make it look like a dead process's (pid 0x7fffffff cannot exist).
        let path = j.checkpointPath("live")
        var cp = try JSONDecoder().decode(
            SessionJournal.Checkpoint.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        cp.pid = Int32.max
        try JSONEncoder().encode(cp).write(to: URL(fileURLWithPath: path))
        let recovered = try j.recoverInterrupted()
        #expect(recovered.map(\.id) == ["live"])
        #expect(recovered.first?.outcome == .interrupted)
        #expect(recovered.first?.satSeconds == 30)
        #expect(try j.recoverInterrupted().isEmpty)
        #expect(try j.read().records.map(\.id) == ["done", "live"])
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func finishedSessionWithAStaleCheckpointIsNotDuplicated() throws {
        let j = fresh()
        try j.checkpoint(Self.record("s", sat: 5))
        // Crash between append and checkpoint removal: the record is in the journal and the checkpoint remains.
        try j.append(Self.record("s", sat: 7))
        let path = j.checkpointPath("s")
        var cp = try JSONDecoder().decode(
            SessionJournal.Checkpoint.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        cp.pid = Int32.max
        try JSONEncoder().encode(cp).write(to: URL(fileURLWithPath: path))
        #expect(try j.recoverInterrupted().isEmpty)
        #expect(try j.read().records.map(\.satSeconds) == [7])
        try j.checkpoint(Self.record("t", sat: 1))
        try j.finish(Self.record("t", sat: 2))
        #expect(!FileManager.default.fileExists(atPath: j.checkpointPath("t")))
    }

    @Test func defaultPathFollowsXDG() {
        #expect(
            SessionJournal.defaultPath(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/h"])
                == "/x/data/enso/sessions.jsonl")
        #expect(SessionJournal.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/enso/sessions.jsonl")
    }

    @Test func statisticsArePlainFigures() {
        let records = [
            Self.record("a", sat: 600, start: "2026-11-23T07:00:00.000Z"),  // Monday, week 48
            Self.record("b", sat: 1200, start: "2026-11-29T07:00:00.000Z"),  // Sunday, week 48
            Self.record("c", sat: 300, start: "2026-11-29T20:00:00.000Z"),
            Self.record("d", sat: 60, start: "2026-11-30T07:00:00.000Z"),  // Monday, week 49
        ]
        let s = JournalStatistics(records: records, timeZone: TimeZone(identifier: "UTC")!)
        #expect(s.sessions == 4)
        #expect(s.totalSatSeconds == 2160)
        #expect(s.longest?.id == "b")
        #expect(s.days.map(\.label) == ["2026-11-23", "2026-11-29", "2026-11-30"])
        #expect(s.days.map(\.satSeconds) == [600, 1500, 60])
        #expect(s.weeks.map(\.label) == ["2026-W48", "2026-W49"])
        #expect(s.weeks.map(\.sessions) == [3, 1])
    }

    /// Sat time is summed at the journal's precision, the millisecond: 10.121 s and 11.454 s make 21.575 s, which
    /// prints as the records do (adding the seconds made 21.575000000000003, in `sessions stats --json` too).
    @Test func statisticsSumToTheJournalsMillisecond() {
        let records = [
            Self.record("a", sat: 10.121, start: "2026-11-29T07:00:00.000Z"),
            Self.record("b", sat: 11.454, start: "2026-11-29T08:00:00.000Z"),
        ]
        #expect(10.121 + 11.454 != 21.575)
        let s = JournalStatistics(records: records, timeZone: TimeZone(identifier: "UTC")!)
        #expect(s.totalSatSeconds == 21.575)
        #expect(s.days.map(\.satSeconds) == [21.575] && s.weeks.map(\.satSeconds) == [21.575])
        #expect("\(s.totalSatSeconds)" == "21.575")
    }

    /// Every theme sat with is a cell, as JSON has it (the CSV dropped the changes): `FRAME:THEME` spans joined with
    /// `;`, silence written `none` (an empty name, `5760000:`, could not be told from a cell cut short).
    @Test func csvQuotesAndLeavesAbsentValuesEmpty() {
        var r = Self.record("a", sat: 1.2345)
        r.theme = "rain, heavy"
        r.themes = [
            .init(frame: 0, theme: "rain, heavy"), .init(frame: 2_880_000, theme: "stream"),
            .init(frame: 5_760_000, theme: nil),
        ]
        r.plannedSeconds = nil
        let csv = JournalExport.csv([r])
        #expect(
            csv.hasPrefix(
                "id,start,end,plannedSeconds,satSeconds,cyclesCompleted,outcome,bell,theme,themes,syncedToHealth\n"))
        #expect(
            csv.contains(
                ",,1.235,1,completed,singing-bowl,\"rain, heavy\",\"0:rain, heavy;2880000:stream;5760000:none\",false\n"
            ),
            "\(csv)")
    }
}

/// A byte budget shared with the injected `write` (10 bytes, then the disk is full).
final class Atomic10: @unchecked Sendable {
    private let lock = NSLock()
    private var left = 10
    func take(_ n: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let t = min(left, n)
        left -= t
        return t
    }
}

extension FileHandle {
    func seekToEndAndWrite(_ text: String) throws {
        seekToEndOfFile()
        write(Data(text.utf8))
        closeFile()
    }
}
