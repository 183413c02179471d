/// Splits a byte stream into protocol lines, enforcing the line-length limit.
///
/// A line ends at `\n` (a `\r` before it is dropped; empty lines are skipped). A line longer than
/// ``maxLineBytes`` is reported once as ``Frame/oversized(byteCount:)`` as soon as the limit is passed, and its
/// remaining bytes are discarded up to the next `\n`, so the connection survives and later lines are read
/// normally. The framer never holds more than `maxLineBytes + 1` bytes.
///
///     var framer = LineFramer()
///     for frame in framer.append(bytes) { … }
///
/// - Thread safety: a value type; one owner at a time.
/// - Real-time safe: no.
public struct LineFramer: Sendable {
    /// The longest line accepted: 64 KiB, not counting the newline.
    public static let maxLineBytes = 65_536

    /// What the framer found in the stream.
    public enum Frame: Sendable, Equatable {
        /// One complete line, without its newline.
        case line([UInt8])
        /// A line over the limit; `byteCount` is how many bytes had arrived when it was dropped.
        case oversized(byteCount: Int)
    }

    /// The limit this framer enforces.
    public let limit: Int
    private var pending: [UInt8] = []
    private var discarding = false

    /// Creates a framer with the given limit (default ``maxLineBytes``).
    public init(limit: Int = LineFramer.maxLineBytes) {
        precondition(limit > 0, "line limit must be positive")
        self.limit = limit
    }

    /// Whether the framer is discarding the rest of an oversized line.
    public var isDiscarding: Bool { discarding }

    /// How many bytes of an unfinished line are held.
    public var pendingByteCount: Int { pending.count }

    /// Feeds `bytes` and returns the frames they complete, in order.
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [Frame] {
        var frames: [Frame] = []
        for byte in bytes {
            if byte == 0x0A {
                if discarding {
                    discarding = false
                } else {
                    if pending.last == 0x0D { pending.removeLast() }
                    if !pending.isEmpty { frames.append(.line(pending)) }
                }
                pending.removeAll(keepingCapacity: true)
                continue
            }
            if discarding { continue }
            pending.append(byte)
            // A trailing `\r` may still be dropped, so allow one byte more before judging.
            if pending.count > limit + 1 || (pending.count == limit + 1 && byte != 0x0D) {
                frames.append(.oversized(byteCount: pending.count))
                pending.removeAll(keepingCapacity: true)
                discarding = true
            }
        }
        return frames
    }

    /// Ends the stream: returns the unterminated last line, if any (a client may close without a final `\n`).
    public mutating func finish() -> Frame? {
        defer {
            pending.removeAll()
            discarding = false
        }
        if discarding || pending.isEmpty { return nil }
        if pending.last == 0x0D { pending.removeLast() }
        return pending.isEmpty ? nil : .line(pending)
    }
}
