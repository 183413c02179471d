import AudioTestSupport
import Foundation
import Testing

@testable import PlaybackService

#if canImport(Glibc)
    import Glibc
#endif

/// Journal folder trust (issue 18, items 3 and 11): temporary files never follow a planted link, a folder others can
/// write to is refused, recovery reads only checkpoints owned by the user, stale temporary files are removed.
@Suite struct JournalTrustTests {
    private func victim(in dir: String) -> String {
        let v = dir + "/victim.txt"
        writeTestFile(v, Data("precious\n".utf8))
        return v
    }

    /// The temporary name ``AtomicFile`` gives a rewrite of `path` by process `pid` (`.NAME.tmp-PID…`).
    static func temporary(_ path: String, _ pid: String) -> String {
        let slash = path.lastIndex(of: "/")!
        return path[...slash] + "." + path[path.index(after: slash)...] + ".tmp-" + pid
    }

    private func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test(.enabled(if: OtherUser.unavailableReason == nil, "\(OtherUser.unavailableReason ?? "")"))
    func aFolderOthersCanWriteIsRefusedAndAPlantedLinkNeverWritten() throws {
        let base = ToolRunner.temporaryDirectory("journal-open")
        let v = victim(in: base)
        let folder = base + "/shared"
        mkdir(folder, 0o700)
        chmod(folder, 0o777)
        let j = SessionJournal(path: folder + "/sessions.jsonl")
        // Written before the folder was opened up (as an older version allowed).
        try SessionJournal.encodeLine(SessionJournalTests.record("a")).appending("\n")
            .write(toFile: j.path, atomically: false, encoding: .utf8)
        // The other user plants the old temporary names as links to the victim.
        for name in [".sessions.jsonl.tmp-\(getpid())", "sessions.jsonl.lock"] {
            let r = try OtherUser.run("/bin/ln", ["-s", v, folder + "/" + name])
            try #require(r.exitCode == 0, "ln as \(OtherUser.name): \(r.stderr)")
        }
        for attempt in ["markSynced", "append", "checkpoint"] {
            do {
                switch attempt {
                case "markSynced": _ = try j.markSynced(["a"])
                case "append": try j.append(SessionJournalTests.record("b"))
                default: try j.checkpoint(SessionJournalTests.record("c"))
                }
                Issue.record("\(attempt) in a folder others can write must be refused")
            } catch {
                #expect(error.kind == .permission, "\(attempt)")
                #expect(
                    error.message.contains(folder) && error.message.contains("writable by other users"),
                    "\(error.message)")
            }
        }
        #expect(contents(v) == "precious\n")
    }

    @Test func aPlantedTemporaryNameIsNeverWrittenThrough() throws {
        let base = ToolRunner.temporaryDirectory("journal-tmp")
        let v = victim(in: base)
        let j = SessionJournal(path: base + "/enso/sessions.jsonl")
        try j.append(SessionJournalTests.record("a"))
        symlink(v, Self.temporary(j.path, "\(getpid())"))
        symlink(v, Self.temporary(j.checkpointPath("c"), "\(getpid())"))
        #expect(try j.markSynced(["a"]).found == ["a"])
        try j.checkpoint(SessionJournalTests.record("c"))
        #expect(contents(v) == "precious\n")
        #expect(try j.read().records.first?.syncedToHealth == true)
    }

    @Test(.enabled(if: OtherUser.unavailableReason == nil, "\(OtherUser.unavailableReason ?? "")"))
    func recoveryIgnoresACheckpointOwnedByAnotherUser() throws {
        let j = SessionJournal(path: ToolRunner.temporaryDirectory("journal-forged") + "/enso/sessions.jsonl")
        try j.append(SessionJournalTests.record("real"))
        try j.checkpoint(SessionJournalTests.record("forged", sat: 36_000))
        let file = j.checkpointPath("forged")
        // A dead owner, so recovery would take it; then handed to the other user, as if they had planted it.
        var text = contents(file)
        text = text.replacingOccurrences(of: #""pid":\#(getpid())"#, with: #""pid":999999999"#)
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        let (uid, gid) = try OtherUser.ids()
        #expect(chown(file, uid_t(uid)!, gid_t(gid)!) == 0)
        let (recovered, warnings) = try j.recoverInterruptedReporting()
        #expect(recovered.isEmpty)
        #expect(warnings.contains { $0.contains(file) && $0.contains("another user") }, "\(warnings)")
        #expect(try j.read().records.map(\.id) == ["real"])
        // The same file, owned by the user, is recovered.
        #expect(chown(file, getuid(), getgid()) == 0)
        #expect(try j.recoverInterrupted().map(\.id) == ["forged"])
    }

    @Test func staleTemporaryFilesOfDeadProcessesAreRemoved() throws {
        let j = SessionJournal(path: ToolRunner.temporaryDirectory("journal-stale") + "/enso/sessions.jsonl")
        try j.append(SessionJournalTests.record("a"))
        try j.checkpoint(SessionJournalTests.record("live"))
        let dead = Self.temporary(j.path, "999999999")
        let deadCheckpoint = Self.temporary(j.checkpointPath("x"), "999999999-ab12")
        let mine = Self.temporary(j.path, "\(getpid())-cd34")
        for f in [dead, deadCheckpoint, mine] {
            writeTestFile(f, Data("x".utf8))
        }
        _ = try j.recoverInterruptedReporting()
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(!FileManager.default.fileExists(atPath: deadCheckpoint))
        #expect(FileManager.default.fileExists(atPath: mine), "a live process's temporary file stays")
    }
}
