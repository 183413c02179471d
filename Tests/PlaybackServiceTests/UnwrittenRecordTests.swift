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

/// A sitting whose record meets a full disk is held in memory, listed, and written with the next record: it was
/// lost whenever its checkpoints could not be written either (a disk already full when the sitting started).
@Suite struct UnwrittenRecordTests {
    /// Write calls that fail with `ENOSPC`, as on a full disk.
    static var fullDisk: FileSyscalls {
        var calls = FileSyscalls()
        calls.write = { _, _, _ in
            errno = ENOSPC
            return -1
        }
        return calls
    }

    @Test func aRecordTheDiskCannotTakeIsHeldListedMarkedAndWrittenWithTheNext() throws {
        let dir = ToolRunner.temporaryDirectory("journal-unwritten")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let j = SessionJournal(path: dir + "/sessions.jsonl")
        try j.append(SessionJournalTests.record("a"))
        try j.checkpoint(SessionJournalTests.record("b", sat: 30))
        let before = try Data(contentsOf: URL(fileURLWithPath: j.path))
        j.syscalls = Self.fullDisk
        #expect(throws: EnsoError.self) { try j.finish(SessionJournalTests.record("b")) }
        #expect(throws: EnsoError.self) { try j.finish(SessionJournalTests.record("c")) }
        #expect(throws: EnsoError.self) { try j.writeUnwritten() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: j.path)) == before, "the file keeps what it had")
        #expect(j.unwrittenRecords.map(\.id) == ["b", "c"])
        // Listed, last, with a warning that says so; the checkpoint stays for a process that dies first.
        let listed = try j.read()
        #expect(listed.records.map(\.id) == ["a", "b", "c"])
        #expect(listed.warnings.count == 1 && listed.warnings[0].contains("could not be written yet (b, c)"))
        #expect(FileManager.default.fileExists(atPath: j.checkpointPath("b")))
        // Marked where it waits.
        let marked = try j.markSynced(["b", "zz"])
        #expect(marked.found == ["b"] && marked.missing == ["zz"])
        // Room again: the next sitting's record writes the held ones first, in order, and their checkpoints go.
        j.syscalls = FileSyscalls()
        try j.finish(SessionJournalTests.record("d"))
        let written = try j.read()
        #expect(written.records.map(\.id) == ["a", "b", "c", "d"])
        #expect(written.records.map(\.syncedToHealth) == [false, true, false, false])
        #expect(written.warnings.isEmpty)
        #expect(j.unwrittenRecords.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: j.checkpointPath("b")))
        // Nothing is written twice.
        try j.writeUnwritten()
        #expect(try j.read().records.count == 4)
    }

    @Test func aFailingCheckpointIsSaidOnceWhileItLastsAndItsRecoverySaid() throws {
        let dir = ToolRunner.temporaryDirectory("journal-checkpoints")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let j = SessionJournal(path: dir + "/sessions.jsonl")
        let writer = CheckpointWriter()
        j.syscalls = Self.fullDisk
        for sat in [1.0, 2, 3] { writer.write(SessionJournalTests.record("s", sat: sat), to: j) }
        writer.drain()
        let failing = writer.takeWarnings()
        #expect(failing.count == 1 && failing[0].contains("No space left on device"), "\(failing)")
        j.syscalls = FileSyscalls()
        writer.write(SessionJournalTests.record("s", sat: 4), to: j)
        writer.write(SessionJournalTests.record("s", sat: 5), to: j)
        writer.drain()
        #expect(writer.takeWarnings() == ["checkpoints of session s are written again"])
    }
}
