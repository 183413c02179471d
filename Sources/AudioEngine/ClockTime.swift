/// A wall-clock time of day (`HH:MM[:SS]`), the target of ``SessionPlan/Repeat/until(_:)``.
///
/// A clock time means nothing to the engine until it is mapped to a frame when the session starts
/// (``SessionTimeline/init(plan:sampleRate:bellTail:startSecondOfDay:)``).
///
/// - Thread safety: value type, any thread.
public struct ClockTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int
    public let second: Int

    /// Creates a time of day, or returns `nil` outside 00:00:00 ... 23:59:59.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Parses `HH:MM` or `HH:MM:SS` (24-hour clock); `nil` for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) }),
            let h = Int(parts[0]), let m = Int(parts[1])
        else { return nil }
        var s = 0
        if parts.count == 3 {
            guard let v = Int(parts[2]) else { return nil }
            s = v
        }
        self.init(hour: h, minute: m, second: s)
    }

    /// Seconds since midnight.
    public var secondOfDay: Int { hour * 3600 + minute * 60 + second }

    public static func < (a: ClockTime, b: ClockTime) -> Bool { a.secondOfDay < b.secondOfDay }

    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return second == 0 ? "\(two(hour)):\(two(minute))" : "\(two(hour)):\(two(minute)):\(two(second))"
    }
}
