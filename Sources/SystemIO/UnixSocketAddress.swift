import AudioCore
import Glibc

/// The address of a Unix-domain stream socket, built once from its path, to bind a server's socket or connect a
/// client's.
///
/// The path is copied into `sockaddr_un.sun_path` with room for its terminating zero; a longer one is refused when
/// the address is built, before anything is created on disk, rather than cut (a cut path would name another file).
///
/// - Thread safety: a value; each call uses only its own copy.
public struct UnixSocketAddress: Sendable {
    /// The path the address names.
    public let path: String
    private let address: sockaddr_un

    /// The longest path an address can hold, in UTF-8 bytes (`sun_path` less its terminating zero: 107 on Linux).
    public static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The address of the socket at `path`.
    ///
    /// - Throws: `EnsoError` `.invalidInput` naming the path when it is longer than ``maxPathBytes``.
    public init(path: String) throws(EnsoError) {
        guard path.utf8.count <= Self.maxPathBytes else {
            throw EnsoError(.invalidInput, "socket path \(path) is longer than \(Self.maxPathBytes) bytes")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        self.path = path
        self.address = address
    }

    /// Binds the socket `fd` to this address.
    ///
    /// The corresponding C function is `bind`.
    ///
    /// - Returns: 0, or -1 with the reason in `errno` (read it before the next system call).
    public func bind(_ fd: Int32) -> Int32 {
        withSocketAddress { Glibc.bind(fd, $0, $1) }
    }

    /// Connects the socket `fd` to this address.
    ///
    /// The corresponding C function is `connect`.
    ///
    /// - Returns: 0, or -1 with the reason in `errno` (read it before the next system call).
    public func connect(_ fd: Int32) -> Int32 {
        withSocketAddress { Glibc.connect(fd, $0, $1) }
    }

    /// Calls `body` with the address as the generic `sockaddr` the socket calls take, and its length.
    private func withSocketAddress(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
