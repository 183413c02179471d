import Glibc

/// Atomic whole-file writes: every file Enso writes (audio, loop sidecars, manifests, reports) is written under a
/// temporary name beside its destination and renamed onto it, so the destination holds either the old file or the
/// complete new one, never a half-written one.
///
/// When the destination already exists (loop points written into a file in place, a manifest rewritten, a render
/// over last night's), the temporary file first takes its permission bits, and its owner and group where the
/// process may set them: a group-writable file in a shared asset folder stays group-writable, a read-only one stays
/// read-only, a file a root-run tool rewrites keeps its owner. A new file gets the mode the umask gives it.
///
/// The temporary file is fsynced before the rename and the folder after it, so a power loss leaves the old file or
/// the new one, never an empty one. Temporary files that a killed process (`kill -9`) left beside the destination
/// (`.NAME.tmp-PID-*`, up to the size of the file) are removed by the next write of the same file, when their
/// process is gone and they belong to this user.
///
/// - Thread safety: any thread (each call uses its own temporary name).
/// - Real-time safe: no (file I/O).
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically.
    ///
    /// - Throws: `AudioFileError` `.notFound` (the folder does not exist), `.permissionDenied` or `.ioFailure`
    ///   (disk full); the message names `path`. Nothing is left behind on failure.
    public static func write(_ bytes: [UInt8], to path: String) throws(AudioFileError) {
        let temp = temporaryPath(for: path)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw cannotCreate(path, errno: errno) }
        var done = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                done += n
            }
        }
        if close(fd) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            unlink(temp)
            throw AudioFileError(.ioFailure, path: path, "\(path): write failed: \(String(cString: strerror(failure)))", code: failure)
        }
        try commit(temp, to: path)
    }

    /// A temporary name beside `path` (same folder, so `rename` is atomic).
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(dir).\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The error for a temporary file beside `path` that could not be created: a missing folder is the user's
    /// folder, so the message names it.
    static func cannotCreate(_ path: String, errno e: Int32, code: Int32? = nil, otherwise: String? = nil) -> AudioFileError {
        let kind: AudioFileError.Kind
        let why: String
        switch e {
        case ENOENT, ENOTDIR:
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            (kind, why) = (.notFound, "the folder \(folder.isEmpty ? "/" : folder) does not exist")
        case EACCES, EPERM, EROFS: (kind, why) = (.permissionDenied, "permission denied (\(String(cString: strerror(e))))")
        case 0: (kind, why) = (.ioFailure, otherwise ?? "unknown error")
        default: (kind, why) = (.ioFailure, String(cString: strerror(e)))
        }
        return AudioFileError(kind, path: path, "\(path): cannot create: \(why)", code: code ?? e)
    }

    /// Renames the finished `temporary` onto `path`, keeping an existing `path`'s mode, owner and group (best
    /// effort: a mode or owner that cannot be set leaves the temporary file's own).
    ///
    /// - Throws: `AudioFileError` `.ioFailure` when the rename fails; the temporary file is removed.
    public static func commit(_ temporary: String, to path: String) throws(AudioFileError) {
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            let synced = fsync(fd)
            let e = errno
            close(fd)
            if synced != 0 && e != EINVAL && e != EROFS {
                unlink(temporary)
                throw AudioFileError(.ioFailure, path: path, "\(path): write failed: fsync: \(String(cString: strerror(e)))", code: e)
            }
        }
        var existing = stat()
        if stat(path, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG {
            _ = chown(temporary, existing.st_uid, existing.st_gid)
            _ = chmod(temporary, existing.st_mode & 0o777)
        }
        if rename(temporary, path) != 0 {
            let e = errno
            unlink(temporary)
            throw AudioFileError(
                .ioFailure, path: path, "\(path): cannot move the written file into place: \(String(cString: strerror(e)))",
                code: e)
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let dfd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
        removeStaleTemporaries(of: path, in: folder)
    }

    /// Removes `.NAME.tmp-PID-*` beside `path` whose process is gone and which belong to this user.
    static func removeStaleTemporaries(of path: String, in folder: String) {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let prefix = "." + name + ".tmp-"
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        var stale: [String] = []
        while let entry = readdir(dir) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard entryName.hasPrefix(prefix) else { continue }
            let pidText = entryName.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = Int32(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            stale.append(folder + "/" + entryName)
        }
        for file in stale {
            var st = stat()
            if lstat(file, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & S_IFMT) == S_IFREG { unlink(file) }
        }
    }
}
