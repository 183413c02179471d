/// What observers have been told, property by property: turns each new state into the one `state.changed` that
/// tells what changed since, at most once per ``minimumInterval``.
///
/// The server shows it the state after every poll of the session, and polls after every turn of its loop: once per
/// request when requests come quickly. Changes between two reports come as one event (coalesced), and a property
/// that changes and changes back between them is not sent. A report within ``minimumInterval`` of the last event
/// sends nothing and keeps the change for the first report after it, so however fast clients send `set`, an
/// observer is sent at most one `state.changed` per interval. A time is sent again only once it has moved
/// ``ObservedState/timeTolerance`` from the value last sent, so its slow drift does not flood observers.
///
/// - Thread safety: a value type; the server's control thread.
public struct StateReporter: Sendable {
    /// The shortest time between two events: 20 ms, the loop's poll period. A meter or slider redrawn 50 times a
    /// second looks continuous, and an observer is not sent more than it can draw.
    public static let minimumInterval: Duration = .milliseconds(20)

    /// Each property's value as last sent (the values `observe` replies with), and the current session's id.
    public private(set) var reported: ObservedState
    /// When the last event was made; `nil` before the first.
    private var lastEvent: ContinuousClock.Instant?

    public init(_ initial: ObservedState = .idle) { reported = initial }

    /// The event for `now`: every property that differs from what was last sent, with the values of all of them;
    /// `nil` when none does. A new session id counts as a change of `state`.
    ///
    /// This form does not pace: the server uses it for its last report (at shutdown), which must not be held back.
    public mutating func report(_ now: ObservedState) -> StateChanged? {
        var changed = StateProperty.all.filter { now.differs(in: $0, from: reported) }
        if now.sessionId != reported.sessionId && !changed.contains(.state) { changed.append(.state) }
        guard !changed.isEmpty else { return nil }
        reported.sessionId = now.sessionId
        for p in changed { reported.take(p, from: now) }
        return StateChanged(changed: changed, state: now, observed: StateProperty.all)
    }

    /// The event for `now` made at `instant`, as ``report(_:)``, unless the last event was made less than
    /// ``minimumInterval`` before: then `nil`, and the change waits for the next report after the interval.
    ///
    /// - Parameter instant: the time of this report on a monotonic clock (a test moves it by hand).
    public mutating func report(_ now: ObservedState, at instant: ContinuousClock.Instant) -> StateChanged? {
        if let last = lastEvent, last.duration(to: instant) < Self.minimumInterval { return nil }
        guard let change = report(now) else { return nil }
        lastEvent = instant
        return change
    }
}
