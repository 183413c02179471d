/// An unsolicited event line: `{"event": kind, …fields}`, its fields one of the typed event messages.
public enum ProtocolEvent: Sendable, Equatable {
    case sessionStarted(SessionStarted)
    case cycleStarted(CycleStarted)
    case bell(BellStruck)
    case breathStarted(BreathStarted)
    case sessionPaused(SessionPaused)
    case sessionResumed(SessionResumed)
    case themeChanged(ThemeChanged)
    case streamUnderrun(StreamUnderrun)
    case sessionEnded(SessionEnded)
    case xrun(Xrun)
    case deviceError(DeviceFailed)
    case stateChanged(StateChanged)
    case previewEnded(PreviewEnded)

    /// The `event` field: what subscriptions select on.
    public var kind: EventKind {
        switch self {
        case .sessionStarted: .sessionStarted
        case .cycleStarted: .cycleStarted
        case .bell: .bell
        case .breathStarted: .breathStarted
        case .sessionPaused: .sessionPaused
        case .sessionResumed: .sessionResumed
        case .themeChanged: .themeChanged
        case .streamUnderrun: .streamUnderrun
        case .sessionEnded: .sessionEnded
        case .xrun: .xrun
        case .deviceError: .deviceError
        case .stateChanged: .stateChanged
        case .previewEnded: .previewEnded
        }
    }

    /// The message's fields (without `event`).
    public var fields: JSONValue {
        switch self {
        case .sessionStarted(let m): MessageEncoder.value(m)
        case .cycleStarted(let m): MessageEncoder.value(m)
        case .bell(let m): MessageEncoder.value(m)
        case .breathStarted(let m): MessageEncoder.value(m)
        case .sessionPaused(let m): MessageEncoder.value(m)
        case .sessionResumed(let m): MessageEncoder.value(m)
        case .themeChanged(let m): MessageEncoder.value(m)
        case .streamUnderrun(let m): MessageEncoder.value(m)
        case .sessionEnded(let m): MessageEncoder.value(m)
        case .xrun(let m): MessageEncoder.value(m)
        case .deviceError(let m): MessageEncoder.value(m)
        case .stateChanged(let m): MessageEncoder.value(m)
        case .previewEnded(let m): MessageEncoder.value(m)
        }
    }

    /// The line's JSON object.
    public var json: JSONValue {
        var o = fields.objectValue ?? [:]
        o["event"] = .string(kind.rawValue)
        return .object(o)
    }

    /// The line to send, newline included.
    public var line: [UInt8] { MessageEncoder.line(json) }
}
