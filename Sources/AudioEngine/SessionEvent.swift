import AudioCore

/// One point on a session's timeline: a strike, a cycle boundary, a breath, a fade, the end.
///
/// `frame` is in *session* frames: frames of sat time from the session origin, not counting pauses.
/// The engine reports the output frame separately (``EngineEvent``).
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: yes (a trivial value; the engine keeps them in fixed storage).
public struct SessionEvent: Sendable, Hashable {
    /// What happens.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// A bell strike; its first sample plays on `frame`.
        case strike
        /// A cycle begins (the first at frame 0, the others after a breath).
        case cycleStart = "cycle-start"
        /// The sitting of a cycle is over; its transition (or closing) group starts here.
        case cycleEnd = "cycle-end"
        /// The breath pause after a transition group's last strike; the next cycle starts after it.
        case breath
        /// The ambient fade-in starts.
        case fadeIn = "fade-in"
        /// The ambient fade-out starts (on the closing group's last strike).
        case fadeOut = "fade-out"
        /// The session is over: the fade is done and the last bell has decayed.
        case end
    }

    /// Which strikes a strike belongs to, when it is not one of the plan's groups.
    public enum Group: String, Sendable, Hashable, Codable {
        /// An interval bell inside a sitting (``SessionPlan/interval``, ``SessionPlan/intervalAt``).
        case interval
    }

    public var kind: Kind
    /// Session frame of the event.
    public var frame: FramePosition
    /// The cycle it belongs to, from 1. Strikes of the transition group after cycle `c` belong to cycle `c`.
    public var cycle: Int
    /// For strikes, the strike's number within its group, from 1; 0 for other events.
    public var strike: Int
    /// `.interval` for an interval bell's strikes; `nil` for the opening, transition and closing groups and every
    /// other event.
    public var group: Group?

    public init(kind: Kind, frame: FramePosition, cycle: Int, strike: Int = 0, group: Group? = nil) {
        self.kind = kind
        self.frame = frame
        self.cycle = cycle
        self.strike = strike
        self.group = group
    }
}
