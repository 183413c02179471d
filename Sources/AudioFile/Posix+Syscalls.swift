import Glibc
import Synchronization

// The POSIX calls AudioFile makes on paths (stat, access), routed through one place so tests can
// inject faults: the suite runs as root in CI, where a mode-000 file is still readable, so a
// permission failure can only be tested by injecting `EACCES` here.

/// Per-path errno values that the path checks report instead of calling the system (tests only).
enum SyscallFaults {
    private static let table = Mutex<[String: Int32]>([:])

    /// Makes `stat`/`access` on exactly `path` fail with `code` until ``remove(forPath:)``.
    static func inject(errno code: Int32, forPath path: String) { table.withLock { $0[path] = code } }

    /// Removes an injected fault.
    static func remove(forPath path: String) { _ = table.withLock { $0.removeValue(forKey: path) } }

    static func fault(forPath path: String) -> Int32? { table.withLock { $0[path] } }
}

/// `access(2)`: 0, or the errno.
func system_access(_ path: String, _ mode: Int32) -> Int32 {
    if let code = SyscallFaults.fault(forPath: path) { return code }
    return access(path, mode) == 0 ? 0 : errno
}

/// `stat(2)`: 0, or the errno.
func system_stat(_ path: String, _ st: inout stat) -> Int32 {
    if let code = SyscallFaults.fault(forPath: path), code != EACCES { return code }
    return stat(path, &st) == 0 ? 0 : errno
}
