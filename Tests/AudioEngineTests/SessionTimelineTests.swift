import AudioCore
import AudioEngine
import Testing

@Suite struct SessionTimelineTests {
    @Test func framesFollowTheFormulas() throws {
        let t = try SessionTimeline(
            plan: EngineFixture.shortPlan(times: 3), sampleRate: EngineFixture.rate, bellTail: 1)
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

    @Test("cycle(of:) is the c with S_c ≤ frame < S_(c+1), at most the last cycle")
    func cycleOfAFrame() throws {
        // L = 7000 frames (framesFollowTheFormulas): cycles start at 0, 7000 and 14 000.
        let t = try SessionTimeline(plan: EngineFixture.shortPlan(times: 3), sampleRate: EngineFixture.rate)
        let frames: [FramePosition] = [0, 6_999, 7_000, 13_999, 14_000, 20_199, 1_000_000]
        #expect(frames.map { t.cycle(of: $0) } == [1, 1, 2, 2, 3, 3, 3])
        var plan = EngineFixture.shortPlan()
        plan.repeatMode = .untilStopped
        let open = try SessionTimeline(plan: plan, sampleRate: EngineFixture.rate)
        #expect(open.cycle(of: 70_000) == 11)
    }

    /// The horizon: the next occurrence of the clock time after the start, up to 24 h ahead (a time more than
    /// 12 h ahead was refused as "in the past").
    @Test func untilIsTheNextOccurrenceWithin24HoursAndTooCloseIsRejected() throws {
        var plan = SessionPlan()
        plan.repeatMode = .until(ClockTime(hour: 9, minute: 0)!)
        let t = try SessionTimeline(plan: plan, sampleRate: .hz48000, startSecondOfDay: 36_000)
        #expect(t.untilFrame == FramePosition(23 * 3600 * 48_000))
        plan.repeatMode = .until(ClockTime(hour: 23, minute: 0)!)
        let t2 = try SessionTimeline(plan: plan, sampleRate: .hz48000, startSecondOfDay: 36_000)
        #expect(t2.untilFrame == FramePosition(13 * 3600 * 48_000))
        plan.repeatMode = .until(ClockTime(hour: 10, minute: 0, second: 12)!)
        #expect(
            throws: PlanValidationError(
                field: .repeatCount,
                problem:
                    "until=10:00:12 is only 12 s ahead; it must be at least one strike group plus 10 s (16 s) ahead")
        ) {
            try SessionTimeline(plan: plan, sampleRate: .hz48000, startSecondOfDay: 36_000)
        }
        // Just after midnight is tomorrow; the start's own clock time is 24 h ahead.
        plan.repeatMode = .until(ClockTime(hour: 0, minute: 30)!)
        #expect(
            try SessionTimeline(plan: plan, sampleRate: .hz48000, startSecondOfDay: 23 * 3600).untilFrame == 5400
                * 48_000)
        plan.repeatMode = .until(ClockTime(hour: 10, minute: 0)!)
        #expect(
            try SessionTimeline(plan: plan, sampleRate: .hz48000, startSecondOfDay: 36_000).untilFrame == 86_400
                * 48_000)
    }

    /// A clock time on or just after a cycle start gave a last cycle of a few seconds (six strikes in 14 s); a last
    /// sitting shorter than half a sitting (at most 60 s) folds into the cycle before.
    @Test func aDegenerateLastCycleFoldsIntoTheOneBefore() throws {
        var plan = EngineFixture.shortPlan(times: 1)
        // L = 7000 frames, D = 5000: the minimum last sitting is 2500 frames.
        #expect(try SessionTimeline(plan: plan, sampleRate: EngineFixture.rate).minimumLastSittingFrames == 2500)
        for (second, cycles, end) in [(14.0, 2, 14_000), (16.4, 2, 16_400), (16.5, 3, 16_500), (19.0, 3, 19_000)] {
            plan.repeatMode = .until(ClockTime(hour: 0, minute: 0, second: Int(second.rounded(.down)))!)
            let start = second.rounded(.down) - second
            let t = try SessionTimeline(plan: plan, sampleRate: EngineFixture.rate, startSecondOfDay: start)
            #expect(t.cycleCount == cycles, "until \(second)")
            #expect(t.cycleEnd(cycles) == FramePosition(end), "until \(second)")
            let closing = t.events().filter { $0.kind == .strike && $0.cycle == cycles }.map(\.frame)
            #expect(closing.prefix(1) == [FramePosition(end)], "until \(second)")
            #expect(t.events().filter { $0.kind == .strike }.count == 3 * (cycles + 1))
        }
    }

    /// `--sit 5` with 3 strikes 3 s apart rang 1, 2, 1, 3, 2, 3: refused, with the shortest sitting they allow.
    @Test func aSittingShorterThanItsStrikeGroupIsRefused() throws {
        #expect(
            throws: PlanValidationError(
                field: .sitting,
                problem: "5 s is shorter than its strike group (3 strikes 3 s apart span 6 s); "
                    + "the shortest sitting those strikes allow is 9 s")
        ) {
            try SessionPlan.validated(.init(sitting: 5, strikes: 3, strikeSpacing: 3))
        }
        #expect(throws: PlanValidationError.self) {
            try SessionPlan.validated(.init(sitting: 8.9, strikes: 3, strikeSpacing: 3))
        }
        #expect(try SessionPlan.validated(.init(sitting: 9, strikes: 3, strikeSpacing: 3)).sitting == 9)
        #expect(try SessionPlan.validated(.init(sitting: 1, strikes: 2, strikeSpacing: 0.5)).sitting == 1)
        #expect(try SessionPlan.validated(.init(sitting: 1, strikes: 1, strikeSpacing: 15)).sitting == 1)
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
