import AudioCore
import Glibc

/// The one folder walk behind every place Enso trusts a folder it did not make itself: the socket folder, the
/// journal folder and the asset pack found by the search.
///
/// A folder is trusted when nobody but this user and root can change what is in it, which takes the folder *and
/// every folder above it*: whoever can write to `/a` can rename `/a/b` away and put a folder of their own in its
/// place, so a private `/a/b/c` under another user's `/a` is theirs. The rules, as OpenSSH's `safe_path` applies
/// them to `~/.ssh` (`StrictModes`), walked from `/` down with `lstat` (a link is judged as a link, never by its
/// target):
///
/// 1. each folder belongs to this user or to root;
/// 2. each folder is writable by neither its group nor others (mode `022` clear), unless it is sticky (`/tmp`,
///    mode `1777`): there, others may add names but cannot remove or replace one they do not own;
/// 3. a symbolic link belongs to this user or to root (its own mode means nothing on Linux); it is then followed,
///    and its target's folders are walked by the same rules from wherever it points (`/var/run` -> `/run`);
/// 4. every component but a missing tail is a folder. A missing tail is trusted: the caller creates it, as its own.
///
/// The caller adds its own rule for the last folder when it needs a stricter one (the server's own socket folder is
/// 0700 and this user's alone; the journal folder is not sticky).
///
/// - Thread safety: any thread (system calls on paths only).
/// - Real-time safe: no (file system calls).
public enum TrustedPath {
    /// Why a path is not trusted: the component that failed and what is wrong with it.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong with one component.
        public enum Reason: Sendable, Equatable {
            /// The folder belongs to this other user.
            case owner(uid_t)
            /// The folder is writable by its group or by others (these permission bits) and is not sticky.
            case writable(mode_t)
            /// A symbolic link that belongs to this other user.
            case linkOwner(uid_t)
            /// The component is not a folder (a file, a socket) where a folder is needed.
            case notFolder
            /// More than ``maxLinks`` symbolic links were followed (a loop).
            case tooManyLinks
            /// `lstat` or `readlink` failed with this errno (other than a missing tail).
            case cannotExamine(Int32)
        }

        /// The component that failed: a folder or a link, as an absolute path with the links before it resolved.
        public var path: String
        public var reason: Reason

        public init(path: String, reason: Reason) {
            self.path = path
            self.reason = reason
        }

        /// `"/tmp/x belongs to another user (uid 1000)"`: the component and the reason, for a message.
        public var description: String {
            switch reason {
            case .owner(let uid): "\(path) belongs to another user (uid \(uid))"
            case .writable(let mode):
                "\(path) is writable by other users (mode \(String(mode & 0o7777, radix: 8)), not sticky)"
            case .linkOwner(let uid): "\(path) is a symbolic link owned by another user (uid \(uid))"
            case .notFolder: "\(path) is not a folder"
            case .tooManyLinks: "\(path): more than \(maxLinks) symbolic links (a loop?)"
            case .cannotExamine(let code): "\(path) cannot be examined: \(systemReason(code))"
            }
        }
    }

    /// The most symbolic links one walk follows: Linux's own limit for a path lookup (`ELOOP` past 40).
    public static let maxLinks = 40

    /// Walks `path` (a folder, made absolute against the working folder) and every folder above it.
    ///
    /// - Parameters:
    ///   - user: the user whose folders are trusted besides root's (this process's effective uid; tests pass
    ///     another).
    /// - Returns: the first component that breaks the rules, or `nil` when the whole path is trusted.
    public static func problem(with path: String, user: uid_t = geteuid()) -> Problem? {
        var pending = components(of: absolute(path))
        var current = "/"
        var links = 0
        if let p = judge("/", user: user) { return p }
        while !pending.isEmpty {
            let name = pending.removeFirst()
            if name == "." { continue }
            if name == ".." {
                // `current` has no links left in it, so its lexical parent is its real parent.
                current = parent(of: current)
                continue
            }
            let next = current == "/" ? "/" + name : current + "/" + name
            var st = stat()
            guard lstat(next, &st) == 0 else {
                let e = errno
                // A missing tail: the caller creates it (under folders it trusts), as its own.
                if e == ENOENT { return nil }
                return Problem(path: next, reason: .cannotExamine(e))
            }
            if (st.st_mode & S_IFMT) == S_IFLNK {
                guard st.st_uid == user || st.st_uid == 0 else {
                    return Problem(path: next, reason: .linkOwner(st.st_uid))
                }
                links += 1
                guard links <= maxLinks else { return Problem(path: next, reason: .tooManyLinks) }
                guard let target = readLink(next) else { return Problem(path: next, reason: .cannotExamine(errno)) }
                if target.hasPrefix("/") { current = "/" }
                pending = components(of: target) + pending
                continue
            }
            if let p = judge(next, st, user: user) { return p }
            current = next
        }
        return nil
    }

    /// The rules 1, 2 and 4 for one component that is not a link.
    private static func judge(_ path: String, _ st: stat, user: uid_t) -> Problem? {
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return Problem(path: path, reason: .notFolder) }
        guard st.st_uid == user || st.st_uid == 0 else { return Problem(path: path, reason: .owner(st.st_uid)) }
        if st.st_mode & 0o022 != 0 && st.st_mode & mode_t(S_ISVTX) == 0 {
            return Problem(path: path, reason: .writable(st.st_mode))
        }
        return nil
    }

    private static func judge(_ path: String, user: uid_t) -> Problem? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return Problem(path: path, reason: .cannotExamine(errno)) }
        return judge(path, st, user: user)
    }

    /// The target of the link at `path`, or `nil` with `errno` set.
    ///
    /// The corresponding C function is `readlink`.
    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count - 1) }
        guard n >= 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` against the working folder when relative.
    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" + path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.isEmpty ? cwd : cwd + "/" + path
    }

    private static func components(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
