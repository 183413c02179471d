import AudioCore

/// One sitting in the journal: what was planned, what was sat, how it ended, and whether a health store
/// has it yet.
///
/// Times are ISO 8601 UTC with milliseconds (as the protocol writes them). Sat time counts the session's own
/// timeline, so pauses are excluded; it stops at the closing bell's first strike, so a completed session has
/// `satSeconds == plannedSeconds`.
///
/// - Thread safety: value type, any thread.
public struct SessionRecord: Codable, Sendable, Hashable {
    /// One theme of a sitting and the session frame it started on (`theme` `nil`: silence).
    public struct ThemeSpan: Codable, Sendable, Hashable {
        public var frame: Int64
        /// `null` for silence.
        @Nullable public var theme: String?

        public init(frame: Int64, theme: String?) {
            self.frame = frame
            self.theme = theme
        }
    }

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
    @Nullable public var plannedSeconds: Double?
    /// Seconds actually sat, pauses excluded.
    public var satSeconds: Double
    /// Cycles whose sitting was completed.
    public var cyclesCompleted: Int
    public var outcome: Outcome
    /// The bell's asset id (or file).
    public var bell: String
    /// The ambient theme's id at the start, or `nil` for none (kept for older readers: ``themes`` has every one).
    @Nullable public var theme: String?
    /// The themes sat with, in order: the starting one at frame 0, then one entry per change on the session
    /// frame it started crossfading (sat time, at the session's sample rate). Records written before this field
    /// existed read as the starting theme alone.
    public var themes: [ThemeSpan]
    /// Whether a front end has written this session to a health store. Records are kept until it has.
    public var syncedToHealth: Bool

    /// The journal's precision for seconds (`satSeconds`): the millisecond, as its times are written (the server
    /// rounds sat time to it, `JournalExport` writes numbers to it).
    public static let unitsPerSecond = 1000.0

    /// `seconds` as a whole count of the journal's units (milliseconds), as a `Double` (exact up to 2^53: 285 000
    /// years), so sums of them are exact: 10.121 s and 11.454 s make 21 575 ms, where adding the seconds makes
    /// 21.575000000000003.
    public static func units(_ seconds: Double) -> Double { (seconds * unitsPerSecond).rounded() }

    /// Seconds from a count of the journal's units: the `Double` nearest that many milliseconds (`21.575`).
    public static func seconds(units: Double) -> Double { units / unitsPerSecond }

    public init(
        id: String, start: String, end: String, plannedSeconds: Double?, satSeconds: Double, cyclesCompleted: Int,
        outcome: Outcome, bell: String, theme: String?, themes: [ThemeSpan]? = nil, syncedToHealth: Bool = false
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
        self.themes = themes ?? [ThemeSpan(frame: 0, theme: theme)]
        self.syncedToHealth = syncedToHealth
    }

    enum CodingKeys: String, CodingKey {
        case id, start, end, plannedSeconds, satSeconds, cyclesCompleted, outcome, bell, theme, themes, syncedToHealth
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        start = try c.decode(String.self, forKey: .start)
        end = try c.decode(String.self, forKey: .end)
        plannedSeconds = try c.decodeIfPresent(Double.self, forKey: .plannedSeconds)
        satSeconds = try c.decode(Double.self, forKey: .satSeconds)
        cyclesCompleted = try c.decode(Int.self, forKey: .cyclesCompleted)
        outcome = try c.decode(Outcome.self, forKey: .outcome)
        bell = try c.decode(String.self, forKey: .bell)
        let theme = try c.decodeIfPresent(String.self, forKey: .theme)
        self.theme = theme
        themes = try c.decodeIfPresent([ThemeSpan].self, forKey: .themes) ?? [ThemeSpan(frame: 0, theme: theme)]
        syncedToHealth = try c.decode(Bool.self, forKey: .syncedToHealth)
    }
}
