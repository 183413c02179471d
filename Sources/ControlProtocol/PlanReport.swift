import AudioCore
import Foundation

/// A plan's timeline as data, without playing it: what `enso plan --json` prints and the protocol's `plan`
/// command replies (built from a timeline by `PlanReport+Timeline.swift` in PlaybackService).
///
/// A plan that repeats forever lists its first two cycles and has no end (`endFrame`, `duration` and `cycles`
/// `null` in JSON, as docs/engine.md shows them). Each scheduled theme change is a `theme-change` event after every timeline event on its frame.
///
/// - Thread safety: value type, any thread.
public struct PlanReport: Codable, Sendable, Equatable {
    /// One event of the timeline.
    public struct Event: Codable, Sendable, Equatable {
        /// `strike`, `cycle-start`, `cycle-end`, `breath`, `fade-in`, `fade-out`, `end`, or `theme-change`.
        public var kind: String
        public var frame: Int64
        public var cycle: Int
        /// 1…3 within a strike group; 0 for other kinds.
        public var strike: Int
        /// Seconds from the start.
        public var offset: Double
        /// Local clock time `HH:MM:SS` (from the start's second of the day).
        public var clock: String
        /// For a theme-change: the soundscape id or file switched to (absent for none).
        public var theme: String?
        /// `"interval"` for an interval bell's strikes (absent for the opening, transition and closing groups).
        public var group: String?

        public init(
            kind: String, frame: Int64, cycle: Int, strike: Int, offset: Double, clock: String, theme: String? = nil,
            group: String? = nil
        ) {
            self.kind = kind
            self.frame = frame
            self.cycle = cycle
            self.strike = strike
            self.offset = offset
            self.clock = clock
            self.theme = theme
            self.group = group
        }
    }

    /// A scheduled theme change to list: its session frame and theme (`nil`: silence).
    public struct ThemeChange: Sendable, Equatable {
        public var frame: FramePosition
        public var theme: String?

        public init(frame: FramePosition, theme: String?) {
            self.frame = frame
            self.theme = theme
        }
    }

    public var sampleRate: Int
    /// The session's last frame, its length in seconds and its cycles (`null` when it repeats forever).
    @Nullable public var endFrame: Int64?
    @Nullable public var duration: Double?
    @Nullable public var cycles: Int?
    public var `repeat`: String
    public var events: [Event]
    /// What the plan asks for and will not get, in words (an interval time that never rings); absent when none.
    public var warnings: [String]?

    public init(
        sampleRate: Int, endFrame: Int64?, duration: Double?, cycles: Int?, repeat: String, events: [Event],
        warnings: [String]? = nil
    ) {
        self.sampleRate = sampleRate
        self.endFrame = endFrame
        self.duration = duration
        self.cycles = cycles
        self.repeat = `repeat`
        self.events = events
        self.warnings = warnings
    }

    /// Local clock time `HH:MM:SS` of session frame `frame` for a start at `startSecondOfDay`.
    public static func clock(_ frame: FramePosition, rate: SampleRate, startSecondOfDay: Double) -> String {
        let t = startSecondOfDay + rate.seconds(frames: frame)
        let s = Int(t.rounded(.down)) % 86_400
        return String(format: "%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60)
    }
}
