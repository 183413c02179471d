import AudioCore
import Glibc
import SystemIO

/// Which version of a file a result row was made from: its size, modification time and content hash (the
/// `identity` object of a `--jsonl` row, docs/scale.md).
///
/// `--resume` skips a file whose root, relative path and identity already have a row: an edited file (another size,
/// time or hash) is measured again, and a file copied with its time kept (`cp -p`, `rsync -t`) to another machine
/// is still recognised. The hash alone would miss nothing, but size and time make a changed file plain to a reader.
///
/// - Thread safety: a value type; any thread.
public struct ContentIdentity: Codable, Hashable, Sendable {
    /// The file's size in bytes.
    public var size: Int64
    /// The modification time, ISO 8601 in UTC to the nanosecond (`2026-12-04T18:19:17.123456789Z`): what `stat`
    /// gives, written so two rows compare as text and a person reads the date.
    public var modified: String
    /// XXH3-64 of the file's bytes, 16 hex digits (``ContentHash``).
    public var hash: String

    public init(size: Int64, modified: String, hash: String) {
        self.size = size
        self.modified = modified
        self.hash = hash
    }

    /// The identity of the file at `path` (following links): `stat`, then its bytes hashed.
    ///
    /// The corresponding C function is `stat`.
    /// - Throws: `EnsoError` naming the file when it cannot be `stat`ed or read.
    public static func of(path: String) throws(EnsoError) -> ContentIdentity {
        var st = stat()
        guard stat(path, &st) == 0 else { throw EnsoError(errno: errno, "\(path): cannot read it", path: path) }
        let hash = try ContentHash.ofFile(path)
        return ContentIdentity(
            size: Int64(st.st_size),
            modified: iso8601(seconds: Int64(st.st_mtim.tv_sec), nanoseconds: Int(st.st_mtim.tv_nsec)),
            hash: ContentHash.hex(hash))
    }

    /// `seconds` since the epoch (and `nanoseconds`) as `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`.
    public static func iso8601(seconds: Int64, nanoseconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let fraction = String(nanoseconds)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec))."
            + String(repeating: "0", count: max(0, 9 - fraction.count)) + fraction + "Z"
    }
}
