/// What observers have been told, property by property: turns each new state into the one `state.changed` that
/// tells what changed since.
///
/// The server shows it the state after every poll (a few times a second), so changes between two polls come as
/// one event (coalesced), and a property that changes and changes back between them is not sent. A time is sent
/// again only once it has moved ``ObservedState/timeTolerance`` from the value last sent, so its slow drift does not
/// flood observers.
///
/// - Thread safety: a value type; the server's control thread.
public struct StateReporter: Sendable {
    /// Each property's value as last sent (the values `observe` replies with), and the current session's id.
    public private(set) var reported: ObservedState

    public init(_ initial: ObservedState = .idle) { reported = initial }

    /// The event for `now`: every property that differs from what was last sent, with the values of all of them;
    /// `nil` when none does. A new session id counts as a change of `state`.
    public mutating func report(_ now: ObservedState) -> StateChanged? {
        var changed = StateProperty.all.filter { now.differs(in: $0, from: reported) }
        if now.sessionId != reported.sessionId && !changed.contains(.state) { changed.append(.state) }
        guard !changed.isEmpty else { return nil }
        reported.sessionId = now.sessionId
        for p in changed { reported.take(p, from: now) }
        return StateChanged(changed: changed, state: now, observed: StateProperty.all)
    }
}
