import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import PlaybackService

#if canImport(Glibc)
    import Glibc
#endif

/// The socket folder rules (issue 18, items 1 and 9): never follow a link another user planted, never use a folder
/// others can write to, unless it is sticky.
@Suite struct SocketFolderTests {
    private func mode(_ path: String) -> Int? {
        var st = stat()
        return lstat(path, &st) == 0 ? Int(st.st_mode & 0o7777) : nil
    }

    /// A sticky world-writable folder (like /tmp) where the other user planted `enso` -> a root-owned 0755 folder.
    private func plantedLink() throws -> (base: String, victim: String, link: String) {
        let base = ToolRunner.temporaryDirectory("socket-link")
        chmod(base, 0o1777)
        let victim = base + "/victim"
        mkdir(victim, 0o755)
        chmod(victim, 0o755)
        let link = base + "/enso"
        let r = try OtherUser.run("/bin/ln", ["-s", victim, link])
        try #require(r.exitCode == 0, "ln as \(OtherUser.name): \(r.stderr)")
        return (base, victim, link)
    }

    @Test(.enabled(if: OtherUser.unavailableReason == nil, "\(OtherUser.unavailableReason ?? "")"))
    func aLinkPlantedByAnotherUserIsNotFollowedByServe() throws {
        let (base, victim, link) = try plantedLink()
        try FileManager.default.createDirectory(
            atPath: base + "/j", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let server = try ServerProcess([
            "--socket", link + "/control.sock", "--output", "null", "--journal", base + "/j/j.jsonl",
        ])
        let status = server.wait(timeout: 10)
        #expect(status == 1, "serve must refuse the folder: \(server.stderr)")
        #expect(server.stderr.contains("symbolic link"), "\(server.stderr)")
        #expect(mode(victim) == 0o755, "the link's target must keep its mode")
        #expect(!FileManager.default.fileExists(atPath: victim + "/control.sock"))
    }

    @Test(.enabled(if: OtherUser.unavailableReason == nil, "\(OtherUser.unavailableReason ?? "")"))
    func theDefaultFolderIsNeverALink() throws {
        let (_, victim, link) = try plantedLink()
        #expect(throws: EnsoError.self) { try SocketListener(path: link + "/control.sock", privateFolder: true) }
        #expect(mode(victim) == 0o755)
        // Even a link of one's own is refused for the default folder.
        let own = ToolRunner.temporaryDirectory("socket-own-link")
        mkdir(own + "/target", 0o700)
        symlink(own + "/target", own + "/enso")
        do {
            _ = try SocketListener(path: own + "/enso/control.sock", privateFolder: true)
            Issue.record("a link at the default folder must be refused")
        } catch {
            #expect(error.kind == .permission)
            #expect(error.message.contains(own + "/enso"))
        }
    }

    @Test func theDefaultFolderOpenToOthersIsRefusedAndAnOwnOneMadePrivate() throws {
        let base = ToolRunner.temporaryDirectory("socket-private")
        let open = base + "/open"
        mkdir(open, 0o700)
        chmod(open, 0o777)
        do {
            _ = try SocketListener(path: open + "/control.sock", privateFolder: true)
            Issue.record("a default folder writable by others must be refused")
        } catch {
            #expect(error.kind == .permission)
            #expect(error.message.contains("writable by other users"))
        }
        let readable = base + "/readable"
        mkdir(readable, 0o700)
        chmod(readable, 0o755)
        let l = try SocketListener(path: readable + "/control.sock", privateFolder: true)
        #expect(mode(readable) == 0o700)
        #expect(mode(readable + "/control.sock").map { $0 & 0o777 } == 0o600)
        l.close()
    }

    @Test func aWorldWritableFolderIsRefusedUnlessSticky() throws {
        let base = ToolRunner.temporaryDirectory("socket-world")
        let open = base + "/open"
        mkdir(open, 0o700)
        chmod(open, 0o777)
        let server = try ServerProcess([
            "--socket", open + "/control.sock", "--output", "null", "--journal", base + "/j.jsonl",
        ])
        #expect(server.wait(timeout: 10) == 1, "\(server.stderr)")
        #expect(server.stderr.contains("writable by other users"), "\(server.stderr)")
        #expect(!FileManager.default.fileExists(atPath: open + "/control.sock"))
        let sticky = base + "/sticky"
        mkdir(sticky, 0o700)
        chmod(sticky, 0o1777)
        let l = try SocketListener(path: sticky + "/control.sock")
        #expect(mode(sticky) == 0o1777, "a folder given with --socket keeps its mode")
        l.close()
    }
}
