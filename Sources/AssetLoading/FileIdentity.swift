#if canImport(Glibc)
    import Glibc
#endif

/// Which file a path names, and which version of it: device, inode, size and modification time.
///
/// Two spellings of one path (`rain.wav`, `./rain.wav`, `/abs/rain.wav`) have one identity; an edited file gets a
/// new one (its size or modification time changes). Caches of what a file decodes to are keyed by it.
///
/// - Thread safety: a value type; any thread.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int

    /// The identity of the file at `path` (following links), or `nil` when it cannot be `stat`ed (or the path has a
    /// NUL, which C would cut it at): loading it then reports why, naming the file.
    ///
    /// The corresponding C function is `stat`.
    public static func of(path: String) -> FileIdentity? {
        guard !path.utf8.contains(0) else { return nil }
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileIdentity(
            device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
            modifiedSeconds: Int64(st.st_mtim.tv_sec), modifiedNanoseconds: Int(st.st_mtim.tv_nsec))
    }
}
