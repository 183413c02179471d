import AudioCore
import AudioEngine
import ControlProtocol

extension PlanReport {
    /// The most events a plan lists: one reply's bound (``ClientConnection/maxReplyBytes``, no event encoding in under
    /// 64 bytes), 8 192. The protocol's `plan` refuses a plan with more; `enso plan` lists the first ones and says the
    /// plan holds more. A day-long sitting with a bell every 5 s repeated 1 000 times (17 million events) was listed
    /// whole, for minutes and gigabytes.
    public static let mostEventsListed = ClientConnection.maxReplyBytes / 64

    /// The report of `timeline` (of `plan`), with clock times from `startSecondOfDay`; its warnings name the plan's
    /// fields as `frontEnd` spells them.
    ///
    /// With `limit`, the events of no cycle after the one that takes the list past `limit`
    /// (``AudioEngine/SessionTimeline/events(cycles:atMost:)``): more than `limit` events then says the plan holds
    /// more than were listed.
    public init(
        timeline: SessionTimeline, plan: SessionPlan, startSecondOfDay: Double, themeChanges: [ThemeChange] = [],
        frontEnd: SessionPlan.FrontEnd = .protocol, atMost limit: Int? = nil
    ) {
        let rate = timeline.sampleRate
        func clock(_ frame: Int64) -> String { Self.clock(frame, rate: rate, startSecondOfDay: startSecondOfDay) }
        var events = timeline.events(cycles: timeline.cycleCount == nil ? 2 : nil, atMost: limit).map {
            Event(
                kind: $0.kind.rawValue, frame: $0.frame, cycle: $0.cycle, strike: $0.strike,
                offset: rate.seconds(frames: $0.frame), clock: clock($0.frame), group: $0.group?.rawValue)
        }
        // Cut short: no change after the last event listed.
        let listedEnd = limit.flatMap { events.count > $0 ? events.last?.frame : nil }
        for change in themeChanges where listedEnd.map({ change.frame <= $0 }) ?? true {
            // After every timeline event on the same frame: the change applies from that frame on.
            let index = events.firstIndex { $0.frame > change.frame } ?? events.count
            events.insert(
                Event(
                    kind: "theme-change", frame: change.frame, cycle: timeline.cycle(of: change.frame),
                    strike: 0,
                    offset: rate.seconds(frames: change.frame), clock: clock(change.frame), theme: change.theme),
                at: index)
        }
        self.init(
            sampleRate: rate.hertz, endFrame: timeline.endFrame,
            duration: timeline.endFrame.map { rate.seconds(frames: $0) },
            cycles: timeline.cycleCount, repeat: plan.repeatMode.description, events: events,
            warnings: Self.warnings(timeline, frontEnd))
    }

    /// The timeline's warnings for `frontEnd` (`nil` when none): each interval time that never rings.
    public static func warnings(_ timeline: SessionTimeline, _ frontEnd: SessionPlan.FrontEnd) -> [String]? {
        let silent = timeline.silentIntervals.map { $0.message(frontEnd) }
        return silent.isEmpty ? nil : silent
    }
}
