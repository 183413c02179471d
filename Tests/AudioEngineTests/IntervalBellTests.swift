import AudioCore
import AudioEngine
import AudioTestSupport
import Testing

/// Interval bells inside a sitting (`--interval 10m`, `--interval-at 10m,25m`): their own bell, strikes and volume,
/// frame-exact, counted in sat time, skipped where they would overlap a group.
@Suite struct IntervalBellTests {
    /// ``EngineFixture/shortPlan(times:)`` (3 strikes, 0.2 s fades) stretched: 60 s sittings, strikes 15 s apart (the
    /// opening group spans 30 s), 2 s breath, at 1 kHz.
    static func plan(every: Double? = 10, at: [Double] = [], strikes: Int = 1, times: Int = 2) -> SessionPlan {
        SessionPlan(
            sitting: 60, strikes: 3, strikeSpacing: 15, breath: 2, fadeIn: 0.2, fadeOut: 0.2, repeatMode: .times(times),
            interval: every, intervalAt: at, intervalStrikes: strikes, intervalVolume: 0.5)
    }

    static func intervals(_ events: [SessionEvent]) -> [FramePosition] {
        events.filter { $0.group == .interval }.map(\.frame)
    }

    @Test func everyNSkipsWhatWouldOverlapAGroup() throws {
        let t = try SessionTimeline(plan: Self.plan(), sampleRate: EngineFixture.rate)
        // Cycle 1: 10 s and 20 s fall inside the opening group (0 ... 30 s), 30 s on its last strike: skipped;
        // 60 s is the closing... the transition group. Cycle 2 starts at 92 s and has no opening group.
        #expect(Self.intervals(t.events()) == [40_000, 50_000, 102_000, 112_000, 122_000, 132_000, 142_000])
        #expect(t.events().filter { $0.group == .interval }.allSatisfy { $0.kind == .strike && $0.strike == 1 })
        #expect(t.events().map(\.frame) == t.events().map(\.frame).sorted())
    }

    @Test func listedTimesWithTwoStrikesStopShortOfTheClosingGroup() throws {
        // Two strikes 15 s apart: at 40 s they end at 55 s (kept); at 50 s they would end at 65 s, past the
        // transition group's first strike at 60 s (skipped).
        let t = try SessionTimeline(
            plan: Self.plan(every: nil, at: [50, 40], strikes: 2, times: 1), sampleRate: EngineFixture.rate)
        #expect(Self.intervals(t.events()) == [40_000, 55_000])
        #expect(t.events().filter { $0.group == .interval }.map(\.strike) == [1, 2])
    }

    /// The next interval strike after any frame is the one the timeline lists next: the status's next bell must not
    /// skip an interval bell (issue 46: with `interval: 5` it named the closing bell while an interval bell was due).
    @Test func theNextIntervalStrikeAfterAnyFrameIsTheNextListed() throws {
        for plan in [Self.plan(), Self.plan(every: nil, at: [50, 40], strikes: 2, times: 1), Self.plan(strikes: 3)] {
            let t = try SessionTimeline(plan: plan, sampleRate: EngineFixture.rate)
            let listed = t.events().filter { $0.group == .interval }
            for frame in stride(from: FramePosition(-1), through: t.endFrame!, by: 500) {
                let c = t.cycle(of: frame)
                let expected = listed.first { $0.frame > frame && $0.cycle == c }
                let found = t.nextIntervalStrike(cycle: c, after: frame, sittingEnd: t.cycleEnd(c))
                #expect(found == expected, "frame \(frame)")
            }
        }
    }

    /// The interval bell (its own asset, at its own volume) on exactly its frames, for every block size.
    @Test func theEngineStrikesThemOnTheirFramesWithTheirBellAndVolume() throws {
        let plan = Self.plan()
        let bell = EngineFixture.impulseBell(amplitude: 0.5)
        let soft = EngineFixture.impulseBell(amplitude: 0.25)
        let timeline = try SessionTimeline(plan: plan, sampleRate: EngineFixture.rate, bellTail: 1)
        let planned = Self.intervals(timeline.events())
        for block in [1, 7, 256, 4096] {
            let engine = try SessionEngine(
                plan: plan, timeline: timeline, assets: EngineAssets(bell: bell, interval: soft))
            let out = EngineFixture.left(
                EngineFixture.render(engine, frames: Int(timeline.endFrame!), nextBlock: { block }))
            let hits = out.indices.filter { abs(out[$0] - 0.125) < 1e-7 }.map { FramePosition($0) }
            #expect(hits == planned, "block \(block)")
            let reported = EngineFixture.events(engine).compactMap { e -> FramePosition? in
                if case .timeline(let t, let frame) = e, t.group == .interval { return frame }
                return nil
            }
            #expect(reported == planned, "block \(block)")
        }
    }

    @Test func theyCountSatTimeAndStopWithTheSession() throws {
        var plan = Self.plan()
        plan.repeatMode = .untilStopped
        let timeline = try SessionTimeline(plan: plan, sampleRate: EngineFixture.rate, bellTail: 1)
        let engine = try SessionEngine(
            plan: plan, timeline: timeline,
            assets: EngineAssets(
                bell: EngineFixture.impulseBell(), interval: EngineFixture.impulseBell(amplitude: 0.25)))
        var out = EngineFixture.render(engine, frames: 35_000, nextBlock: { 500 })
        engine.pause()
        out += EngineFixture.render(engine, frames: 2_000, nextBlock: { 500 })
        engine.resume()
        out += EngineFixture.render(engine, frames: 15_000, nextBlock: { 500 })
        // 2 s paused: the 40 s and 50 s bells ring at output frames 42 000 and 52 000.
        let left = EngineFixture.left(out)
        let hits = left.indices.filter { abs(left[$0] - 0.125) < 1e-7 }
        #expect(hits == [42_000])
        engine.stop(withBell: false)
        let after = EngineFixture.left(EngineFixture.render(engine, frames: 20_000, nextBlock: { 500 }))
        #expect(!after.contains { abs($0 - 0.125) < 1e-7 })
        #expect(engine.state == .ended)
    }
}
