import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The listening Unix socket of `enso serve --socket`: a private folder (0700), a socket only its owner
/// can use (0600), a stale socket from a dead server replaced, a live one refused.
///
/// - Thread safety: the server's loop thread only.
final class SocketListener {
    let path: String
    let fd: Int32

    /// `$XDG_RUNTIME_DIR/enso/control.sock`, or `/tmp/enso-UID/control.sock` without `XDG_RUNTIME_DIR`.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["XDG_RUNTIME_DIR"], dir.hasPrefix("/") { return dir + "/enso/control.sock" }
        return "/tmp/enso-\(getuid())/control.sock"
    }

    /// Creates the folder and socket at `path` and listens.
    ///
    /// - Throws: `PlaybackServiceError`: `.busy` when a live server already listens there, `.permission`
    ///   when the folder belongs to another user, `.invalidInput` when the path is too long or is not a
    ///   socket, `.failure` for other system errors; each message names the path.
    init(path: String) throws(PlaybackServiceError) {
        self.path = path
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard path.utf8.count < capacity else {
            throw PlaybackServiceError(.invalidInput, "socket path \(path) is longer than \(capacity - 1) bytes")
        }
        try Self.prepareFolder((path as NSString).deletingLastPathComponent)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw PlaybackServiceError(.invalidInput, "\(path) exists and is not a socket; remove it or choose another path")
            }
            if Self.isLive(addr) {
                throw PlaybackServiceError(
                    .busy, "another enso serve is already listening on \(path); stop it or choose another --socket path")
            }
            unlink(path)
        }
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard s >= 0 else { throw SessionJournal.error(errno, "cannot create a socket for \(path)") }
        let old = umask(0o177)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let bindErrno = errno
        umask(old)
        guard rc == 0 else {
            Glibc.close(s)
            throw SessionJournal.error(bindErrno, "cannot bind the socket \(path)")
        }
        chmod(path, 0o600)
        guard listen(s, 64) == 0 else {
            let e = errno
            Glibc.close(s)
            unlink(path)
            throw SessionJournal.error(e, "cannot listen on \(path)")
        }
        fd = s
    }

    /// Accepts one pending connection (non-blocking), or returns `nil`.
    func accept() -> Int32? {
        let c = Glibc.accept(fd, nil, nil)
        guard c >= 0 else { return nil }
        _ = fcntl(c, F_SETFD, FD_CLOEXEC)
        _ = fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)
        return c
    }

    /// Closes the socket and removes its file.
    func close() {
        Glibc.close(fd)
        unlink(path)
    }

    private static func isLive(_ addr: sockaddr_un) -> Bool {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return false }
        defer { Glibc.close(s) }
        var a = addr
        let rc = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return rc == 0
    }

    /// Creates `folder` as 0700, or checks an existing one belongs to this user and makes it 0700.
    private static func prepareFolder(_ folder: String) throws(PlaybackServiceError) {
        guard !folder.isEmpty else { return }
        if mkdir(folder, 0o700) != 0 {
            let e = errno
            if e == ENOENT {
                do {
                    try FileManager.default.createDirectory(
                        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw PlaybackServiceError(.failure, "cannot create the socket folder \(folder): \(error.localizedDescription)")
                }
            } else if e != EEXIST {
                throw SessionJournal.error(e, "cannot create the socket folder \(folder)")
            }
        }
        var st = stat()
        guard stat(folder, &st) == 0 else { throw SessionJournal.error(errno, "cannot use the socket folder \(folder)") }
        guard st.st_uid == getuid() else {
            throw PlaybackServiceError(.permission, "the socket folder \(folder) belongs to another user")
        }
        if st.st_mode & 0o777 != 0o700 && folder.hasSuffix("/enso") || folder.hasPrefix("/tmp/enso-") {
            chmod(folder, 0o700)
        }
    }
}
