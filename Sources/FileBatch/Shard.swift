/// One of `count` disjoint parts of a batch (`--shard I/N`, 1-based): a file belongs to shard
/// `XXH3-64(relative path's UTF-8) mod N + 1`.
///
/// The path is the one relative to the root the file was found under (``BatchFile/relativePath``), so a shard holds
/// the same files whatever the order they are found in, the folder the root is mounted at, or the machine: N runs
/// with `1/N` … `N/N` cover every file exactly once (docs/scale.md).
///
/// - Thread safety: a value type; any thread.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// This shard, 1…``count``.
    public let index: Int
    /// How many shards the batch is split into.
    public let count: Int

    /// The most shards a batch is split into: more than any cluster runs at once, and small enough that every
    /// shard of a large batch still holds files.
    public static let maximumCount = 1_000_000

    /// Shard `index` of `count`, or `nil` unless 1 ≤ `index` ≤ `count` ≤ ``maximumCount``.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maximumCount, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `I/N` (two whole numbers, 1 ≤ I ≤ N); `nil` for anything else (`3/2`, `0/4`, `a/b`, `1/`).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let i = Int(parts[0]), let n = Int(parts[1])
        else { return nil }
        self.init(index: i, count: n)
    }

    /// Whether the file at `relativePath` (relative to its root) belongs to this shard.
    public func contains(relativePath: String) -> Bool {
        Self.index(of: relativePath, count: count) == index
    }

    /// The shard, 1…`count`, that `relativePath` belongs to.
    public static func index(of relativePath: String, count: Int) -> Int {
        Int(ContentHash.of(utf8: relativePath) % UInt64(count)) + 1
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }
}
