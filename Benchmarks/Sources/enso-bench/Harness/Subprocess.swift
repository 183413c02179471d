import Foundation
import Glibc

/// Starting other programs: peers timed as whole processes, the C compiler, and the harness itself.
enum Subprocess {
    /// Runs `argv` with stdout and stderr sent to /dev/null (or captured to `captureTo`); returns the exit status.
    @discardableResult
    static func run(_ argv: [String], captureTo output: String? = nil) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let sink = output ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, sink, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, environ)
        guard rc == 0 else { throw BenchmarkError("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Runs `argv`, throwing unless it exits 0.
    static func check(_ argv: [String]) throws {
        let log = NSTemporaryDirectory() + "enso-bench-\(getpid()).log"
        defer { unlink(log) }
        let status = try run(argv, captureTo: log)
        if status != 0 {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw BenchmarkError("\(argv.joined(separator: " ")) exited \(status)\n\(text)")
        }
    }

    /// The full path of `tool` on PATH, or `nil` when it is not installed.
    static func which(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(tool)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }
}
