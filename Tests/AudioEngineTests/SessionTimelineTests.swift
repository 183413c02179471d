import AudioCore
import AudioEngine
import Testing

@Suite struct SessionTimelineTests {
    @Test func framesFollowTheFormulas() throws {
        let t = try SessionTimeline(plan: EngineFixture.shortPlan(times: 3), sampleRate: EngineFixture.rate, bellTail: 1)
        // D = 5000, s = 500, P = 1000, k = 3 at 1 kHz: L = 5000 + 2 * 500 + 1000.
        #expect(t.period == 7000)
        let strikes = t.events().filter { $0.kind == .strike }.map(\.frame)
        #expect(strikes == [0, 500, 1000, 5000, 5500, 6000, 12_000, 12_500, 13_000, 19_000, 19_500, 20_000])
        let starts = t.events().filter { $0.kind == .cycleStart }.map(\.frame)
        #expect(starts == [0, 7000, 14_000])
        let breaths = t.events().filter { $0.kind == .breath }.map(\.frame)
        #expect(breaths == [6000, 13_000])
        #expect(t.events().last == SessionEvent(kind: .end, frame: 20_200, cycle: 3))
        #expect(t.events().first { $0.kind == .fadeOut }?.frame == 20_000)
        #expect(t.endFrame == 20_200)
    }

    @Test func eventsAreInFrameOrderEvenWhenTheOpeningGroupOutlastsTheSitting() throws {
        var plan = EngineFixture.shortPlan(times: 4)
        plan.sitting = 1
        plan.strikeSpacing = 2
        let events = try SessionTimeline(plan: plan, sampleRate: EngineFixture.rate).events()
        #expect(events.map(\.frame) == events.map(\.frame).sorted())
        #expect(events.filter { $0.kind == .strike }.count == 15)
    }

    @Test func aDayOfCyclesDoesNotDrift() throws {
        // Awkward durations: none is a whole number of frames' worth of seconds at 48 kHz.
        var plan = SessionPlan()
        plan.sitting = 3599.987_654_3
        plan.strikes = 3
        plan.strikeSpacing = 3.333_333_3
        plan.breath = 2.000_01
        plan.fadeOut = 7.777_77
        plan.repeatMode = .times(24)
        let rate = SampleRate.hz48000
        let t = try SessionTimeline(plan: plan, sampleRate: rate, bellTail: 100)
        // Computed independently: each duration rounded once, then integers only.
        let d = Int64((3599.987_654_3 * 48_000).rounded())
        let s = Int64((3.333_333_3 * 48_000).rounded())
        let p = Int64((2.000_01 * 48_000).rounded())
        let fade = Int64((7.777_77 * 48_000).rounded())
        let lastGroup = 23 * (d + 2 * s + p) + d
        let events = t.events()
        #expect(events.last == SessionEvent(kind: .end, frame: lastGroup + 2 * s + fade, cycle: 24))
        #expect(events.last { $0.kind == .strike }?.frame == lastGroup + 2 * s)
        #expect(events.count { $0.kind == .strike } == 3 * 25)
        // A seconds-accumulating clock would have drifted: the rounded-once answer differs from it.
        #expect(t.endFrame! > 24 * 3600 * 48_000)
    }

    @Test func untilClosesExactlyOnTheClockTime() throws {
        var plan = SessionPlan()
        plan.sitting = 20 * 60
        plan.repeatMode = .until(ClockTime(hour: 10, minute: 30)!)
        let rate = SampleRate.hz48000
        // Starting at 10:00:00.25, the target is 1799.75 s ahead.
        let t = try SessionTimeline(plan: plan, sampleRate: rate, startSecondOfDay: 36_000.25)
        let u = Int64((1799.75 * 48_000).rounded())
        #expect(t.untilFrame == u)
        #expect(t.cycleCount == 2)
        let closing = t.events().filter { $0.kind == .strike && $0.cycle == 2 }
        #expect(closing.first?.frame == u)
        #expect(t.events().last?.kind == .end)
    }

    @Test func untilLandingInABreathExtendsThatCycle() throws {
        var plan = EngineFixture.shortPlan(times: 1)
        plan.repeatMode = .until(ClockTime(hour: 0, minute: 0, second: 19)!)
        // L = 7000 frames; U = 19 000 is past E_3 = 19 000? No: cycle 3 starts at 14 000, so U falls in cycle 3.
        let t = try SessionTimeline(plan: plan, sampleRate: EngineFixture.rate, startSecondOfDay: 0)
        #expect(t.cycleCount == 3)
        #expect(t.cycleEnd(3) == 19_000)
        plan.repeatMode = .until(ClockTime(hour: 0, minute: 0, second: 13)!)
        // U = 13 000 lies in cycle 2's breath (6000 ... 7000 after E_2 = 12 000): cycle 2 closes on it.
        let t2 = try SessionTimeline(plan: plan, sampleRate: EngineFixture.rate, startSecondOfDay: 0)
        #expect(t2.cycleCount == 2)
        #expect(t2.events().first { $0.kind == .strike && $0.cycle == 2 }?.frame == 13_000)
    }

    @Test func untilInThePastOrTooCloseIsRejected() {
        var plan = SessionPlan()
        plan.repeatMode = .until(ClockTime(hour: 9, minute: 0)!)
        #expect(throws: PlanValidationError(field: .repeatCount, message: "repeat until=09:00 is in the past (3600 s ago)")) {
            try SessionTimeline(plan: plan, sampleRate: .hz48000, startSecondOfDay: 36_000)
        }
        plan.repeatMode = .until(ClockTime(hour: 10, minute: 0, second: 12)!)
        #expect(throws: PlanValidationError.self) {
            try SessionTimeline(plan: plan, sampleRate: .hz48000, startSecondOfDay: 36_000)
        }
        // Just after midnight is tomorrow, not the past.
        plan.repeatMode = .until(ClockTime(hour: 0, minute: 30)!)
        #expect(throws: Never.self) { try SessionTimeline(plan: plan, sampleRate: .hz48000, startSecondOfDay: 23 * 3600) }
    }

    @Test func untilStoppedHasNoEnd() throws {
        var plan = EngineFixture.shortPlan()
        plan.repeatMode = .untilStopped
        let t = try SessionTimeline(plan: plan, sampleRate: EngineFixture.rate)
        #expect(t.endFrame == nil)
        #expect(t.cycleCount == nil)
        #expect(t.events(cycles: 5).count { $0.kind == .cycleStart } == 5)
        #expect(!t.events(cycles: 5).contains { $0.kind == .end })
    }
}
