/// The kinds of unsolicited event a server sends (`{"event": kind, …}`), used by `subscribe`/`unsubscribe`; each
/// kind's fields are its message type.
public struct EventKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A session began (``SessionStarted``).
    public static let sessionStarted = EventKind(rawValue: "session.started")
    /// A cycle began (``CycleStarted``).
    public static let cycleStarted = EventKind(rawValue: "cycle.started")
    /// A bell strike (``BellStruck``).
    public static let bell = EventKind(rawValue: "bell")
    /// A breath pause between cycles began (``BreathStarted``).
    public static let breathStarted = EventKind(rawValue: "breath.started")
    /// The session was paused (``SessionPaused``).
    public static let sessionPaused = EventKind(rawValue: "session.paused")
    /// The session resumed (``SessionResumed``).
    public static let sessionResumed = EventKind(rawValue: "session.resumed")
    /// The ambient theme changed (``ThemeChanged``).
    public static let themeChanged = EventKind(rawValue: "theme.changed")
    /// A streamed theme ran short and was silent for a while (``StreamUnderrun``).
    public static let streamUnderrun = EventKind(rawValue: "stream.underrun")
    /// The session ended (``SessionEnded``).
    public static let sessionEnded = EventKind(rawValue: "session.ended")
    /// The output underran (``Xrun``).
    public static let xrun = EventKind(rawValue: "xrun")
    /// The output failed (``DeviceFailed``).
    public static let deviceError = EventKind(rawValue: "device.error")
    /// Observed properties changed (``StateChanged``); sent only for what the connection observes (`observe`).
    public static let stateChanged = EventKind(rawValue: "state.changed")
    /// A preview fell silent (``PreviewEnded``).
    public static let previewEnded = EventKind(rawValue: "preview.ended")

    /// Every kind, in documentation order.
    public static let all: [EventKind] = [
        .sessionStarted, .cycleStarted, .bell, .breathStarted, .sessionPaused, .sessionResumed, .themeChanged,
        .streamUnderrun, .sessionEnded, .xrun, .deviceError, .stateChanged, .previewEnded,
    ]

    public var description: String { rawValue }
}
