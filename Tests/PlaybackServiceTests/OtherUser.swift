import AudioTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Another local user for the security tests: `enso-test-other`, created when missing (root only), and commands
/// run as that user through `setpriv` (util-linux, in Debian 12's base system).
enum OtherUser {
    static let name = "enso-test-other"

    /// Why the other-user tests cannot run here, or `nil` when they can.
    static var unavailableReason: String? {
        if getuid() != 0 { return "needs root to act as another uid (CI runs as root)" }
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            return "needs /usr/bin/setpriv (util-linux)"
        }
        return nil
    }

    /// The user's uid and gid, creating the user first when needed.
    static func ids() throws -> (uid: String, gid: String) {
        if (try ToolRunner.run("/usr/bin/id", ["-u", name])).exitCode != 0 {
            let add = try ToolRunner.run("/usr/sbin/useradd", ["--system", "--no-create-home", name])
            let again = try ToolRunner.run("/usr/bin/id", ["-u", name])
            if add.exitCode != 0 && again.exitCode != 0 {
                throw ToolFailure(message: "useradd \(name) failed: \(add.stderr)")
            }
        }
        let uid = try ToolRunner.run("/usr/bin/id", ["-u", name]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let gid = try ToolRunner.run("/usr/bin/id", ["-g", name]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return (uid, gid)
    }

    /// Runs `command` with `arguments` as the other user; returns what it left.
    @discardableResult
    static func run(_ command: String, _ arguments: [String]) throws -> ToolRunner.Result {
        let (uid, gid) = try ids()
        return try ToolRunner.run(
            "/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", command] + arguments)
    }

    struct ToolFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
