import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import PlaybackService

#if canImport(Glibc)
    import Glibc
#endif

/// The socket and journal folders are trusted all the way up (issue 47, items 4 and 5): every folder above them
/// passes the one walk (`TrustedPath`), a link is judged as a link, and `XDG_RUNTIME_DIR` is used only when it is
/// the user's own.
@Suite struct FolderAncestorTests {
    /// A uid no account on a test machine has: "another user".
    static let otherUID: uid_t = 54_321
    static let canChown = geteuid() == 0

    private func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    @Test(.enabled(if: canChown, "needs root to give a folder to another uid"))
    func aSocketFolderInsideAnotherUsersFolderIsRefused() throws {
        let base = ToolRunner.temporaryDirectory("socket-ancestor")
        let theirs = base + "/theirs"
        mkdir(theirs, 0o755)
        #expect(chown(theirs, Self.otherUID, Self.otherUID) == 0)
        // A private folder of our own, but inside theirs: they can rename it away and put theirs in its place.
        let mine = theirs + "/mine"
        mkdir(mine, 0o700)
        for isPrivate in [true, false] {
            do {
                _ = try SocketListener(path: mine + "/control.sock", privateFolder: isPrivate)
                Issue.record("a socket inside another user's folder must be refused (private: \(isPrivate))")
            } catch {
                #expect(error.kind == .permission)
                #expect(
                    error.message.contains("\(theirs) belongs to another user (uid \(Self.otherUID))"),
                    "\(error.message)")
            }
        }
        #expect(!exists(mine + "/control.sock"))
        // Nothing is created below it either.
        #expect(throws: EnsoError.self) { try SocketListener(path: theirs + "/new/control.sock") }
        #expect(!exists(theirs + "/new"))
    }

    @Test(.enabled(if: canChown, "needs root to give a folder to another uid"))
    func anXDGRuntimeDirOfAnotherUserIsNotUsed() throws {
        let theirs = ToolRunner.temporaryDirectory("xdg-theirs")
        chmod(theirs, 0o700)
        #expect(chown(theirs, Self.otherUID, Self.otherUID) == 0)
        // `sudo -E enso serve`: root inherits the user's XDG_RUNTIME_DIR.
        #expect(SocketListener.defaultPath(environment: ["XDG_RUNTIME_DIR": theirs]) == "/tmp/enso-0/control.sock")
        let mine = ToolRunner.temporaryDirectory("xdg-mine")
        #expect(SocketListener.defaultPath(environment: ["XDG_RUNTIME_DIR": mine]) == mine + "/enso/control.sock")
    }

    @Test func anXDGRuntimeDirIsTheUsersOwnOrNotUsed() {
        // Without root: the same rule through the user parameter (a folder of this process is not `user`'s).
        let dir = ToolRunner.temporaryDirectory("xdg-user")
        let someoneElse: uid_t = geteuid() + 1
        #expect(
            SocketListener.defaultPath(environment: ["XDG_RUNTIME_DIR": dir], user: someoneElse)
                == "/tmp/enso-\(someoneElse)/control.sock")
        #expect(SocketListener.defaultPath(environment: ["XDG_RUNTIME_DIR": dir]) == dir + "/enso/control.sock")
    }

    @Test(.enabled(if: canChown, "needs root to give a link to another uid"))
    func aJournalFolderReachedThroughAnotherUsersLinkIsRefused() throws {
        let base = ToolRunner.temporaryDirectory("journal-link")
        let target = base + "/target"
        mkdir(target, 0o700)
        let link = base + "/data"
        #expect(symlink(target, link) == 0)
        #expect(lchown(link, Self.otherUID, Self.otherUID) == 0)
        let j = SessionJournal(path: link + "/enso/sessions.jsonl")
        for attempt in ["append", "checkWritable", "checkpoint"] {
            do {
                switch attempt {
                case "append": try j.append(SessionJournalTests.record("a"))
                case "checkWritable": try j.checkWritable()
                default: try j.checkpoint(SessionJournalTests.record("c"))
                }
                Issue.record("\(attempt) through another user's link must be refused")
            } catch {
                #expect(error.kind == .permission, "\(attempt)")
                #expect(error.message.contains("\(link) is a symbolic link owned by another user"), "\(error.message)")
            }
        }
        #expect(!exists(target + "/enso"), "nothing is created through their link")
    }

    @Test func aJournalFolderBelowAFolderOthersCanWriteIsRefused() throws {
        let base = ToolRunner.temporaryDirectory("journal-ancestor")
        let open = base + "/open"
        mkdir(open, 0o777)
        chmod(open, 0o777)
        let mine = open + "/mine"
        mkdir(mine, 0o700)
        let j = SessionJournal(path: mine + "/sessions.jsonl")
        do {
            try j.append(SessionJournalTests.record("a"))
            Issue.record("a journal below a folder others can write must be refused")
        } catch {
            #expect(error.kind == .permission)
            #expect(error.message.contains("\(open) is writable by other users (mode 777"), "\(error.message)")
        }
        #expect(!exists(mine + "/sessions.jsonl"))
        // Sticky, as /tmp, it is safe.
        chmod(open, 0o1777)
        try j.append(SessionJournalTests.record("a"))
        #expect(try j.read().records.map(\.id) == ["a"])
    }
}
