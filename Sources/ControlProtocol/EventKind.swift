/// The kinds of unsolicited event a server sends (`{"event": kind, …}`), used by `subscribe`/`unsubscribe`.
public struct EventKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A session began: `plan`, `startsAt`, `endsAt` (absent for open-ended sessions), `sessionId`.
    public static let sessionStarted = EventKind(rawValue: "session.started")
    /// A cycle began: `cycle`, `frame`, `at`.
    public static let cycleStarted = EventKind(rawValue: "cycle.started")
    /// A bell strike: `cycle`, `group`, `strike`, `frame`, `audibleAt`.
    public static let bell = EventKind(rawValue: "bell")
    /// A breath pause between cycles began: `cycle`, `frame`, `at`, `seconds`.
    public static let breathStarted = EventKind(rawValue: "breath.started")
    /// The session was paused: `frame`, `at`.
    public static let sessionPaused = EventKind(rawValue: "session.paused")
    /// The session resumed: `frame`, `at`, and the new `endsAt`.
    public static let sessionResumed = EventKind(rawValue: "session.resumed")
    /// The ambient theme changed: `theme`, `frame`, `at`.
    public static let themeChanged = EventKind(rawValue: "theme.changed")
    /// The session ended: `record` (the journal record).
    public static let sessionEnded = EventKind(rawValue: "session.ended")
    /// The output underran: `count` (total so far), `at`, `sessionId`.
    public static let xrun = EventKind(rawValue: "xrun")
    /// The output failed: `error` (`{code, message}`), `sessionId`; the session ends as `interrupted`.
    public static let deviceError = EventKind(rawValue: "device.error")

    /// Every kind, in documentation order.
    public static let all: [EventKind] = [
        .sessionStarted, .cycleStarted, .bell, .breathStarted, .sessionPaused, .sessionResumed, .themeChanged,
        .sessionEnded, .xrun, .deviceError,
    ]

    public var description: String { rawValue }
}
