/// One sitting in the journal: what was planned, what was sat, how it ended, and whether a health store
/// has it yet.
///
/// Times are ISO 8601 UTC with milliseconds (as the protocol writes them). Sat time counts the session's own
/// timeline, so pauses are excluded; it stops at the closing bell's first strike, so a completed session has
/// `satSeconds == plannedSeconds`.
///
/// - Thread safety: value type, any thread.
public struct SessionRecord: Codable, Sendable, Hashable {
    /// How a session ended.
    public enum Outcome: String, Codable, Sendable, Hashable, CaseIterable {
        /// It ran to its closing bell.
        case completed
        /// It was stopped (`stop`, `shutdown`, a signal) before its end.
        case stopped
        /// The process died (`kill -9`, power loss) or the device failed; sat time is up to the last checkpoint.
        case interrupted
    }

    /// A unique id (a UUID, lowercase).
    public var id: String
    /// Wall-clock start (`2026-11-29T18:31:25.123Z`).
    public var start: String
    /// Wall-clock end; for `interrupted`, the last checkpoint.
    public var end: String
    /// Seconds of sitting the plan asked for (cycles and breaths up to the closing bell); `nil` when the
    /// session was open-ended (`repeat: forever`).
    public var plannedSeconds: Double?
    /// Seconds actually sat, pauses excluded.
    public var satSeconds: Double
    /// Cycles whose sitting was completed.
    public var cyclesCompleted: Int
    public var outcome: Outcome
    /// The bell's asset id (or file).
    public var bell: String
    /// The ambient theme's id at the start, or `nil` for none.
    public var theme: String?
    /// Whether a front end has written this session to a health store. Records are kept until it has.
    public var syncedToHealth: Bool

    public init(
        id: String, start: String, end: String, plannedSeconds: Double?, satSeconds: Double, cyclesCompleted: Int,
        outcome: Outcome, bell: String, theme: String?, syncedToHealth: Bool = false
    ) {
        self.id = id
        self.start = start
        self.end = end
        self.plannedSeconds = plannedSeconds
        self.satSeconds = satSeconds
        self.cyclesCompleted = cyclesCompleted
        self.outcome = outcome
        self.bell = bell
        self.theme = theme
        self.syncedToHealth = syncedToHealth
    }

    enum CodingKeys: String, CodingKey {
        case id, start, end, plannedSeconds, satSeconds, cyclesCompleted, outcome, bell, theme, syncedToHealth
    }

    // Write `plannedSeconds` and `theme` as explicit nulls so every line has every field.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        try c.encode(plannedSeconds, forKey: .plannedSeconds)
        try c.encode(satSeconds, forKey: .satSeconds)
        try c.encode(cyclesCompleted, forKey: .cyclesCompleted)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(bell, forKey: .bell)
        try c.encode(theme, forKey: .theme)
        try c.encode(syncedToHealth, forKey: .syncedToHealth)
    }
}
