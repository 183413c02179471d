import AudioCore
import Foundation
import SystemIO

#if canImport(Glibc)
    import Glibc
#endif

/// The listening Unix socket of `enso serve --socket`: a private folder (0700), a socket only its owner
/// can use (0600), a stale socket from a dead server replaced, a live one refused. The folder rules
/// (``prepareFolder(_:isPrivate:)``) keep another local user from redirecting or replacing the socket.
///
/// - Thread safety: the server's loop thread only.
final class SocketListener {
    let path: String
    let fd: Int32

    /// `$XDG_RUNTIME_DIR/enso/control.sock`, or `/tmp/enso-UID/control.sock` without `XDG_RUNTIME_DIR` or when it is
    /// not this user's own folder.
    ///
    /// An `XDG_RUNTIME_DIR` that belongs to someone else is not used: root running `sudo -E enso serve` inherits the
    /// user's `/run/user/1000`, where that user could serve a fake server to root's clients.
    static func defaultPath(
        environment: [String: String] = ProcessInfo.processInfo.environment, user: uid_t = geteuid()
    ) -> String {
        if let dir = environment["XDG_RUNTIME_DIR"], dir.hasPrefix("/"), isOwnFolder(dir, user: user) {
            return dir + "/enso/control.sock"
        }
        return "/tmp/enso-\(user)/control.sock"
    }

    /// Whether `dir` is a folder (not a link) that belongs to `user`.
    private static func isOwnFolder(_ dir: String, user: uid_t) -> Bool {
        var st = stat()
        return lstat(dir, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR && st.st_uid == user
    }

    /// Creates the folder and socket at `path` and listens.
    ///
    /// - Throws: `EnsoError`: `.busy` when a live server already listens there, `.permission`
    ///   when the folder is a link, belongs to another user or is open to others, `.invalidInput` when the path is too long or is not a
    ///   socket, `.failure` for other system errors; each message names the path.
    init(path: String, privateFolder: Bool? = nil) throws(EnsoError) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        let address = try UnixSocketAddress(path: path)
        try Self.prepareFolder(folder, isPrivate: privateFolder ?? Self.isPrivateFolder(folder))
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw EnsoError(.invalidInput, "\(path) exists and is not a socket; remove it or choose another path")
            }
            if Self.isLive(address) {
                throw EnsoError(
                    .busy, "another enso serve is already listening on \(path); stop it or choose another --socket path"
                )
            }
            unlink(path)
        }
        let s = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard s >= 0 else { throw SessionJournal.error(errno, "cannot create a socket for \(path)") }
        let old = umask(0o177)
        let rc = address.bind(s)
        let bindErrno = errno
        umask(old)
        guard rc == 0 else {
            Glibc.close(s)
            throw SessionJournal.error(bindErrno, "cannot bind the socket \(path)")
        }
        // No chmod by path (it would follow a link swapped in): the umask above made the socket 0600.
        guard listen(s, 64) == 0 else {
            let e = errno
            Glibc.close(s)
            unlink(path)
            throw SessionJournal.error(e, "cannot listen on \(path)")
        }
        fd = s
    }

    /// What one `accept` gave.
    enum Accepted: Equatable {
        /// A connected client (non-blocking, close-on-exec).
        case client(Int32)
        /// Nothing pending.
        case none
        /// `accept` failed with this errno (`EMFILE`: out of descriptors).
        case failed(Int32)
    }

    /// Accepts one pending connection (non-blocking).
    func accept() -> Accepted {
        while true {
            let c = Glibc.accept(fd, nil, nil)
            if c >= 0 {
                _ = fcntl(c, F_SETFD, FD_CLOEXEC)
                _ = fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)
                return .client(c)
            }
            let e = errno
            switch e {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .none
            // The client gave up before it was accepted: try the next one.
            case ECONNABORTED, EPROTO: continue
            default: return .failed(e)
            }
        }
    }

    /// Closes the socket and removes its file.
    func close() {
        Glibc.close(fd)
        unlink(path)
    }

    private static func isLive(_ address: UnixSocketAddress) -> Bool {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return false }
        defer { Glibc.close(s) }
        return address.connect(s) == 0
    }

    /// Makes sure `folder` is one only this user controls, without ever following a link planted by someone else.
    ///
    /// - Every folder above it, and it when it exists, passes the one folder walk (``TrustedPath``, as ssh's
    ///   `safe_path`): owned by this user or root, writable by nobody else unless sticky, a link only of this user or
    ///   root. A private folder inside another user's folder is theirs: they can rename it and put their own there.
    /// - The server's own folder (`…/enso`, `/tmp/enso-UID`: `isPrivate`) is created 0700; an existing one must be a
    ///   real folder (not a symbolic link), owned by this user and writable by nobody else; it is then set to 0700
    ///   through a descriptor opened with `O_NOFOLLOW`, so the mode change can never land on another folder.
    /// - A folder given with `--socket PATH` must belong to this user or root, and be writable by nobody else, unless
    ///   it is sticky (as `/tmp`: others cannot remove or replace a socket they do not own). A symbolic link there is
    ///   followed only when the link itself belongs to this user or root (`/var/run` -> `/run`).
    ///
    /// - Throws: `.permission` naming the folder and what to do, for a link, another owner or a folder open to others.
    static func prepareFolder(_ folder: String, isPrivate: Bool) throws(EnsoError) {
        guard !folder.isEmpty else { return }
        let me = geteuid()
        if let problem = TrustedPath.problem(with: folder) {
            throw EnsoError(
                .permission,
                "the socket folder \(folder) is not safe: \(problem); another user could replace the socket there. "
                    + "Give --socket a path in a folder of your own", code: EACCES)
        }
        if mkdir(folder, 0o700) != 0 {
            let e = errno
            if e == ENOENT {
                do {
                    try FileManager.default.createDirectory(
                        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw EnsoError(
                        .failure, "cannot create the socket folder \(folder): \(error.localizedDescription)")
                }
            } else if e != EEXIST {
                throw SessionJournal.error(e, "cannot create the socket folder \(folder)")
            }
        }
        var link = stat()
        guard lstat(folder, &link) == 0 else {
            throw SessionJournal.error(errno, "cannot use the socket folder \(folder)")
        }
        if (link.st_mode & S_IFMT) == S_IFLNK {
            guard !isPrivate, link.st_uid == me || link.st_uid == 0 else {
                throw EnsoError(
                    .permission,
                    "the socket folder \(folder) is a symbolic link (owned by uid \(link.st_uid)); it is not followed: "
                        + "remove it, or give --socket a path in a folder of your own")
            }
        }
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (isPrivate ? O_NOFOLLOW : 0))
        guard fd >= 0 else {
            let e = errno
            if e == ELOOP || e == ENOTDIR {
                throw EnsoError(
                    .permission,
                    "the socket folder \(folder) is not a folder; remove it or choose another --socket path", code: e)
            }
            throw SessionJournal.error(e, "cannot use the socket folder \(folder)")
        }
        defer { Glibc.close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SessionJournal.error(errno, "cannot use the socket folder \(folder)") }
        let owner = st.st_uid
        guard owner == me || (!isPrivate && owner == 0) else {
            throw EnsoError(
                .permission,
                "the socket folder \(folder) belongs to another user (uid \(owner)); remove it, or give --socket a path in a folder of your own"
            )
        }
        let openToOthers = st.st_mode & 0o022 != 0
        let sticky = st.st_mode & mode_t(S_ISVTX) != 0
        if isPrivate {
            guard !openToOthers else {
                throw EnsoError(
                    .permission,
                    "the socket folder \(folder) is writable by other users (mode \(String(st.st_mode & 0o7777, radix: 8))); "
                        + "someone may have planted files there: remove it and start again")
            }
            if st.st_mode & 0o777 != 0o700 { _ = fchmod(fd, 0o700) }
        } else if openToOthers && !sticky {
            throw EnsoError(
                .permission,
                "the socket folder \(folder) is writable by other users (mode \(String(st.st_mode & 0o7777, radix: 8))) "
                    + "who could replace the socket; use a folder only you can write to (chmod go-w), or a sticky one like /tmp"
            )
        }
    }

    /// Whether `folder` is one the server owns outright: the default socket's folder (`$XDG_RUNTIME_DIR/enso`,
    /// `/tmp/enso-UID`).
    static func isPrivateFolder(_ folder: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Bool
    {
        folder == (defaultPath(environment: environment) as NSString).deletingLastPathComponent
            || folder == "/tmp/enso-\(geteuid())"
    }
}
