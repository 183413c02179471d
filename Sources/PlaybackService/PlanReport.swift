import AudioCore
import AudioEngine
import Foundation

/// A plan's timeline as data, without playing it: what `enso plan --json` prints and the protocol's `plan`
/// command replies.
///
/// A plan that repeats forever lists its first two cycles and has no end (`endFrame`, `duration` and `cycles`
/// absent in JSON). Each scheduled theme change is a `theme-change` event after every timeline event on its frame.
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
    public var endFrame: Int64?
    public var duration: Double?
    public var cycles: Int?
    public var `repeat`: String
    public var events: [Event]

    /// The report of `timeline` (of `plan`), with clock times from `startSecondOfDay`.
    public init(
        timeline: SessionTimeline, plan: SessionPlan, startSecondOfDay: Double, themeChanges: [ThemeChange] = []
    ) {
        let rate = timeline.sampleRate
        func clock(_ frame: Int64) -> String { Self.clock(frame, rate: rate, startSecondOfDay: startSecondOfDay) }
        var events = timeline.events(cycles: timeline.cycleCount == nil ? 2 : nil).map {
            Event(
                kind: $0.kind.rawValue, frame: $0.frame, cycle: $0.cycle, strike: $0.strike,
                offset: rate.seconds(frames: $0.frame), clock: clock($0.frame), group: $0.group?.rawValue)
        }
        for change in themeChanges {
            // After every timeline event on the same frame: the change applies from that frame on.
            let index = events.firstIndex { $0.frame > change.frame } ?? events.count
            events.insert(
                Event(
                    kind: "theme-change", frame: change.frame, cycle: Self.cycle(of: change.frame, in: timeline), strike: 0,
                    offset: rate.seconds(frames: change.frame), clock: clock(change.frame), theme: change.theme),
                at: index)
        }
        sampleRate = rate.hertz
        endFrame = timeline.endFrame
        duration = timeline.endFrame.map { rate.seconds(frames: $0) }
        cycles = timeline.cycleCount
        `repeat` = plan.repeatMode.description
        self.events = events
    }

    /// Local clock time `HH:MM:SS` of session frame `frame` for a start at `startSecondOfDay`.
    public static func clock(_ frame: FramePosition, rate: SampleRate, startSecondOfDay: Double) -> String {
        let t = startSecondOfDay + rate.seconds(frames: frame)
        let s = Int(t.rounded(.down)) % 86_400
        return String(format: "%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60)
    }

    /// The cycle session frame `frame` falls in (the last cycle for a frame past the end).
    public static func cycle(of frame: FramePosition, in timeline: SessionTimeline) -> Int {
        let c = Int(frame / max(1, timeline.period)) + 1
        return timeline.cycleCount.map { min(c, $0) } ?? c
    }
}
