import AudioCore
import Glibc
import Synchronization

/// Atomic file writes: every file Enso writes (audio, loop sidecars, manifests, reports, the session journal's
/// rewrites and checkpoints, the file output) is written under a temporary name beside its destination and renamed
/// onto it, so the destination holds either the old file or the complete new one, never a half-written one.
///
/// The temporary file is `.NAME.tmp-PID-RANDOM` in the destination's folder (so the rename is atomic), created with
/// `O_EXCL | O_NOFOLLOW`: a file or a link planted under that name is never opened, let alone written through.
///
/// When the destination already exists (loop points written into a file in place, a manifest rewritten, a render
/// over last night's), the temporary file first takes its permission bits, and its owner and group where the
/// process may set them: a group-writable file in a shared asset folder stays group-writable, a read-only one stays
/// read-only, a file a root-run tool rewrites keeps its owner. A new file gets `mode` less the umask.
///
/// How much a completed write survives is the caller's explicit choice (``Durability``). Temporary files that a
/// killed process (`kill -9`) left beside the destination are removed by the next write of the same file, when
/// their process is gone and they belong to this user.
///
/// Every temporary name handed out is kept in a list until its write is committed or abandoned, so a process that
/// is told to stop (SIGINT, SIGTERM) can remove its unfinished files before it exits: ``removeUnfinished(then:)``,
/// which `enso render`, `convert`, `loops bake` and `bells fix` call from their signal thread.
///
/// - Thread safety: any thread (each call uses its own temporary name).
/// - Real-time safe: no (file I/O).
public enum AtomicFile {
    /// What a completed write survives.
    public enum Durability: Sendable {
        /// A crash of the process: the file is renamed into place without `fsync`, so a power cut soon after may
        /// leave it empty. For output that is cheap to make again and costly to sync (a long render written to a
        /// slow disk, when the caller asks for speed).
        case processCrash
        /// A power cut too: the file is fsynced before the rename and its folder after it, so after a power cut the
        /// destination holds the old file or the complete new one. Every writer's default.
        case powerLoss
    }

    /// Writes `bytes` to `path` atomically.
    ///
    /// - Parameters:
    ///   - mode: the permission bits of a new file, before the umask (`0o600` for the journal's private files).
    ///   - syscalls: the `open`, `write` and `fsync` to call (tests inject failures through them).
    /// - Throws: `EnsoError` with detail `.notFound` (the folder does not exist), `.permissionDenied` or
    ///   `.ioFailure` (disk full); the message names `path`. Nothing is left behind on failure.
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o666, durability: Durability = .powerLoss
    ) throws(EnsoError) {
        try write(bytes, to: path, mode: mode, durability: durability, syscalls: .system)
    }

    package static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t, durability: Durability, syscalls: FileSyscalls
    ) throws(EnsoError) {
        let (temp, fd) = try create(for: path, mode: mode, syscalls: syscalls)
        let failure = writeAll(fd, bytes, using: syscalls.write).errno
        guard failure == 0 else {
            abandon(temp, fd: fd)
            throw EnsoError(errno: failure, "\(path): write failed", path: path)
        }
        try commit(temp, fd: fd, to: path, durability: durability, syscalls: syscalls)
    }

    /// Creates a new temporary file beside `path` for a writer that streams into it, and opens it for writing.
    /// Finish with ``commit(_:fd:to:durability:)`` or ``abandon(_:fd:)``.
    ///
    /// - Throws: `EnsoError` as ``write(_:to:mode:durability:)``.
    public static func create(
        for path: String, mode: mode_t = 0o666
    ) throws(EnsoError) -> (temporary: String, fd: Int32) {
        try create(for: path, mode: mode, syscalls: .system)
    }

    package static func create(
        for path: String, mode: mode_t, syscalls: FileSyscalls
    ) throws(EnsoError) -> (temporary: String, fd: Int32) {
        // A name taken by a live writer (or planted) is skipped, never opened: O_EXCL.
        for _ in 0..<16 {
            let temp = temporaryPath(for: path)
            let fd = syscalls.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 { return (temp, fd) }
            let e = errno
            // Not ours: never to be removed as an unfinished write.
            forget(temp)
            if e != EEXIST { throw cannotCreate(path, errno: e) }
        }
        throw cannotCreate(path, errno: EEXIST)
    }

    /// A temporary name beside `path` (same folder, so `rename` is atomic): `.NAME.tmp-PID-RANDOM`.
    ///
    /// The name is listed as an unfinished write of `path` (``removeUnfinished(then:)``) until ``commit(_:fd:to:durability:)``
    /// or ``abandon(_:fd:)`` is called with it; a writer that removes it otherwise may leave it listed (removing a
    /// name that no longer exists is harmless).
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temp = "\(dir).\(name).tmp-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        unfinished.withLock { $0[temp] = path }
        return temp
    }

    // MARK: - Unfinished writes

    /// The temporary names handed out and not yet committed or abandoned, each with its destination.
    private static let unfinished = Mutex<[String: String]>([:])

    /// Takes `temporary` off the list of unfinished writes (committed, abandoned, or never created by us).
    private static func forget(_ temporary: String) {
        _ = unfinished.withLock { $0.removeValue(forKey: temporary) }
    }

    /// The temporary files of unfinished writes, listed now (for tests and diagnostics).
    package static var unfinishedTemporaries: [String] { unfinished.withLock { Array($0.keys) } }

    /// Removes the temporary file of every unfinished write, then calls `exit` while no other thread can start,
    /// commit or abandon a write: for a process that was told to stop (SIGINT, SIGTERM), so it leaves no
    /// `.NAME.tmp-PID-RANDOM` behind.
    ///
    /// Call it from an ordinary thread (a thread that took the signal with `sigwait`, or a dispatch source's handler),
    /// never from a signal handler: it takes a lock and builds strings. A write whose file is created in the instant
    /// between the removal and `exit` can still leave its temporary file, as `kill -9` does; the next write of the
    /// same file removes it (``removeStaleTemporaries(in:of:)``).
    ///
    /// - Parameter exit: called with the destinations whose temporary file was removed (not those of a temporary
    ///   file's own temporary file, as `convert` stages one), in no particular order; it must not return.
    public static func removeUnfinished(then exit: ([String]) -> Never) -> Never {
        unfinished.withLock { list in
            var removed: [String] = []
            for (temporary, destination) in list {
                if unlink(temporary) == 0 && list[destination] == nil { removed.append(destination) }
            }
            exit(removed)
        }
    }

    /// The error for a temporary file beside `path` that could not be created: a missing folder is the user's
    /// folder, so the message names it. `otherwise` is the reason when there is no errno (a C library's own).
    package static func cannotCreate(
        _ path: String, errno e: Int32, code: Int32? = nil, otherwise: String? = nil,
        fileID: String = #fileID, function: String = #function
    ) -> EnsoError {
        let why: String
        switch ErrorDetail(errno: e) {
        case .notFound:
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            why = "the folder \(folder.isEmpty ? "/" : folder) does not exist"
        case .permissionDenied: why = "permission denied (\(systemReason(e)))"
        default: why = e == 0 ? otherwise ?? "unknown error" : systemReason(e)
        }
        var error = EnsoError(errno: e, "", path: path, fileID: fileID, function: function)
        error.message = "\(path): cannot create: \(why)"
        error.code = code ?? e
        return error
    }

    /// Completes a write into `temporary`: fsyncs it (``Durability/powerLoss``: through `fd` when the caller still
    /// has it open, else by opening it), closes `fd`, gives it an existing `path`'s mode, owner and group (best
    /// effort: a mode or owner that cannot be set leaves the temporary file's own), renames it onto `path` and
    /// fsyncs the folder.
    ///
    /// - Throws: `EnsoError` `.ioFailure` when the fsync or the rename fails; the temporary file is removed.
    public static func commit(
        _ temporary: String, fd: Int32? = nil, to path: String, durability: Durability = .powerLoss
    ) throws(EnsoError) {
        try commit(temporary, fd: fd, to: path, durability: durability, syscalls: .system)
    }

    package static func commit(
        _ temporary: String, fd: Int32?, to path: String, durability: Durability, syscalls: FileSyscalls
    ) throws(EnsoError) {
        if durability == .powerLoss {
            let sfd = fd ?? open(temporary, O_RDONLY | O_CLOEXEC)
            // EINVAL and EROFS: the file system cannot sync this file (see fsync(2)); there is nothing to wait for.
            if sfd >= 0 && syscalls.fsync(sfd) != 0 && errno != EINVAL && errno != EROFS {
                let e = errno
                abandon(temporary, fd: sfd)
                throw EnsoError(errno: e, "\(path): write failed: fsync", path: path)
            }
            if fd == nil && sfd >= 0 { close(sfd) }
        }
        if let fd { close(fd) }
        var existing = stat()
        if stat(path, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG {
            _ = chown(temporary, existing.st_uid, existing.st_gid)
            _ = chmod(temporary, existing.st_mode & 0o777)
        }
        if rename(temporary, path) != 0 {
            let e = errno
            abandon(temporary, fd: nil)
            throw EnsoError(errno: e, "\(path): cannot move the written file into place", path: path)
        }
        forget(temporary)
        let folder = folder(of: path)
        if durability == .powerLoss { syncFolder(folder) }
        removeStaleTemporaries(in: folder, of: path)
    }

    /// Abandons a write: closes `fd` and removes `temporary`.
    public static func abandon(_ temporary: String, fd: Int32?) {
        if let fd { close(fd) }
        unlink(temporary)
        forget(temporary)
    }

    /// fsyncs `folder`, so a rename or a removal in it survives a power cut.
    public static func syncFolder(_ folder: String) {
        let dfd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
    }

    /// The last component of `path`.
    static func baseName(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// The digits after the last `.tmp-` in a temporary file's name: the process that wrote it.
    static func pidText(of name: String) -> Substring? {
        let marker = Array(".tmp-".utf8)
        let bytes = Array(name.utf8)
        guard bytes.count > marker.count else { return nil }
        for start in stride(from: bytes.count - marker.count, through: 0, by: -1)
        where bytes[start..<(start + marker.count)].elementsEqual(marker) {
            let rest = name.utf8.index(name.utf8.startIndex, offsetBy: start + marker.count)
            return name[rest...].prefix { $0.isNumber }
        }
        return nil
    }

    /// The folder of `path` (`.` for a bare name, `/` for a file at the root).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Removes the temporary files in `folder` whose process is gone and which belong to this user: those of `path`
    /// only, or, without it, every `.NAME.tmp-PID-*` (for a private folder, such as the journal's).
    public static func removeStaleTemporaries(in folder: String, of path: String? = nil) {
        let prefix = path.map { "." + baseName(of: $0) + ".tmp-" }
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        var stale: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("."), prefix.map({ name.hasPrefix($0) }) ?? true, let pidText = pidText(of: name)
            else { continue }
            guard let pid = Int32(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            stale.append(folder + "/" + name)
        }
        for file in stale {
            var st = stat()
            // Only this user's regular files: another user's file is not ours to remove.
            if lstat(file, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & S_IFMT) == S_IFREG { unlink(file) }
        }
    }
}
