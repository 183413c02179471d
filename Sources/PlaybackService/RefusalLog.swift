/// The server's log lines for refused clients, at most one per ``interval``, each with how many were refused
/// since the last line.
///
/// A client that connects in a loop while the server is full is refused thousands of times a second; a line for
/// each buried the rest of the log (and filled a disk). The first refusal is logged at once, the ones within the
/// next ``interval`` are counted, and the count goes out with the next refusal after it, or on its own once the
/// interval is over (``due(at:)``, which the loop calls every turn), so none goes unsaid.
///
/// - Thread safety: a value type; the server's loop thread.
struct RefusalLog {
    /// The shortest time between two lines: one a second is as fast as a person reads a log scroll by, and still
    /// says within a second that refusals go on.
    static let interval: Duration = .seconds(1)

    /// When the last line was made; `nil` before the first.
    private var lastLine: ContinuousClock.Instant?
    /// Refusals not yet in a line, and the reason of the last of them.
    private var unsaid = 0
    private var lastReason = ""

    /// Notes a client refused for `reason` at `now`: the line to log, or `nil` when one was logged less than
    /// ``interval`` before (this one is counted in the next).
    mutating func refused(_ reason: String, at now: ContinuousClock.Instant) -> String? {
        unsaid += 1
        lastReason = reason
        return due(at: now)
    }

    /// The line for the refusals not yet said, once ``interval`` has passed since the last line; else `nil`.
    mutating func due(at now: ContinuousClock.Instant) -> String? {
        guard unsaid > 0 else { return nil }
        if let last = lastLine, last.duration(to: now) < Self.interval { return nil }
        let line =
            unsaid == 1
            ? "refused a client: \(lastReason)"
            : "refused \(unsaid) clients in the last \(Self.seconds(since: lastLine, now)): \(lastReason)"
        lastLine = now
        unsaid = 0
        return line
    }

    /// The time since `last` as a log says it (`1.0 s`, `3.2 s`); "second" before any line.
    private static func seconds(since last: ContinuousClock.Instant?, _ now: ContinuousClock.Instant) -> String {
        guard let last else { return "second" }
        let d = last.duration(to: now).components
        let tenths = d.seconds * 10 + d.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
