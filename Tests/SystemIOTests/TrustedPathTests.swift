import AudioCore
import AudioTestSupport
import Glibc
import SystemIO
import Testing

/// The one folder walk (issue 47, items 4-6): every folder from `/` down belongs to this user or root and is
/// writable by nobody else unless sticky; a link is judged as a link, then its target walked.
@Suite struct TrustedPathTests {
    /// A uid no account on a test machine has: "another user" for the ownership tests.
    static let otherUID: uid_t = 54_321
    static let canChown = geteuid() == 0

    /// `base/a/b/c`, each 0755 (not writable by others).
    private func chain(_ label: String) -> (base: String, a: String, c: String) {
        let base = ToolRunner.temporaryDirectory(label)
        let c = base + "/a/b/c"
        mkdir(base + "/a", 0o755)
        mkdir(base + "/a/b", 0o755)
        mkdir(c, 0o755)
        return (base, base + "/a", c)
    }

    @Test func aPrivateChainIsTrustedAndAMissingTailToo() {
        let (_, _, c) = chain("trust-ok")
        #expect(TrustedPath.problem(with: c) == nil)
        // What is missing, the caller will create as its own.
        #expect(TrustedPath.problem(with: c + "/not/yet") == nil)
        #expect(TrustedPath.problem(with: "/") == nil)
    }

    @Test func anAncestorWritableByOthersIsNamedUnlessSticky() {
        let (_, a, c) = chain("trust-open")
        chmod(a, 0o777)
        let p = TrustedPath.problem(with: c)
        #expect(p?.path == a)
        #expect(p?.reason == .writable(0o40777))
        #expect(
            p?.description.contains("\(a) is writable by other users (mode 777") == true, "\(String(describing: p))")
        chmod(a, 0o775)
        #expect(TrustedPath.problem(with: c)?.reason == .writable(0o40775), "group-writable counts as others")
        // Sticky, as /tmp: others cannot remove or replace a name they do not own.
        chmod(a, 0o1777)
        #expect(TrustedPath.problem(with: c) == nil)
    }

    @Test(.enabled(if: canChown, "needs root to give a folder to another uid"))
    func anAncestorOfAnotherUserIsNamed() {
        let (_, a, c) = chain("trust-owner")
        #expect(chown(a, Self.otherUID, Self.otherUID) == 0)
        let p = TrustedPath.problem(with: c)
        #expect(p == TrustedPath.Problem(path: a, reason: .owner(Self.otherUID)))
        #expect(p?.description == "\(a) belongs to another user (uid \(Self.otherUID))")
        // Their folder is refused at the end of the path too, and with a missing tail below it.
        #expect(TrustedPath.problem(with: a)?.path == a)
        #expect(TrustedPath.problem(with: a + "/new/folder")?.path == a)
    }

    @Test func theUserWhoseFoldersAreTrustedIsAParameter() {
        // Run by anyone: a folder of this user is another user's to a walk made for someone else (root's own folders
        // aside, so as root this only checks that root stays trusted).
        let (_, _, c) = chain("trust-user")
        let someoneElse: uid_t = geteuid() == 0 ? Self.otherUID : geteuid() + 1
        let p = TrustedPath.problem(with: c, user: someoneElse)
        if geteuid() == 0 { #expect(p == nil) } else { #expect(p?.reason == .owner(geteuid())) }
    }

    @Test func aLinkIsFollowedOnlyToATrustedPlace() {
        let (base, a, c) = chain("trust-link")
        // A link of one's own to a trusted folder is trusted, and so is the path through it.
        #expect(symlink(c, base + "/to-c") == 0)
        #expect(TrustedPath.problem(with: base + "/to-c") == nil)
        #expect(TrustedPath.problem(with: base + "/to-c/missing") == nil)
        // Relative targets and `..` resolve from the link's folder.
        #expect(symlink("a/b/../b/c", base + "/relative") == 0)
        #expect(TrustedPath.problem(with: base + "/relative") == nil)
        // The target's own folders are walked: a link into an open folder is judged by that folder.
        let open = base + "/open"
        mkdir(open, 0o777)
        chmod(open, 0o777)
        mkdir(open + "/inside", 0o700)
        #expect(symlink(open + "/inside", a + "/b/into-open") == 0)
        #expect(
            TrustedPath.problem(with: a + "/b/into-open") == TrustedPath.Problem(path: open, reason: .writable(0o40777))
        )
        // A loop ends.
        #expect(symlink(base + "/loop2", base + "/loop1") == 0)
        #expect(symlink(base + "/loop1", base + "/loop2") == 0)
        #expect(TrustedPath.problem(with: base + "/loop1")?.reason == .tooManyLinks)
    }

    @Test(.enabled(if: canChown, "needs root to give a link to another uid"))
    func aLinkOfAnotherUserIsNotFollowed() {
        let (base, _, c) = chain("trust-their-link")
        let link = base + "/theirs"
        #expect(symlink(c, link) == 0)
        #expect(lchown(link, Self.otherUID, Self.otherUID) == 0)
        // The target is trusted; the link is not (`stat` would have judged the target).
        let p = TrustedPath.problem(with: link + "/sub")
        #expect(p == TrustedPath.Problem(path: link, reason: .linkOwner(Self.otherUID)))
        #expect(p?.description.contains("symbolic link owned by another user") == true)
    }

    @Test func aFileWhereAFolderIsNeededIsRefused() {
        let (_, _, c) = chain("trust-file")
        close(open(c + "/file", O_CREAT | O_WRONLY, 0o644))
        #expect(
            TrustedPath.problem(with: c + "/file/below") == TrustedPath.Problem(path: c + "/file", reason: .notFolder))
    }
}
