import AudioCore
import AudioEngine
import AudioTestSupport
import Testing

/// `repeat until=T` is a clock time: pauses shorten the last cycle so the closing group still starts on T
/// (a 5 s pause moved it 5 s past T).
@Suite struct UntilPauseTests {
    /// The short plan (L = 7000 frames at 1 kHz) until 00:00:17 from 00:00:00.4: U = 16 600 output frames.
    static func engine() throws -> SessionEngine {
        var plan = EngineFixture.shortPlan()
        plan.repeatMode = .until(ClockTime(hour: 0, minute: 0, second: 17)!)
        let timeline = try SessionTimeline(
            plan: plan, sampleRate: EngineFixture.rate, bellTail: 1, startSecondOfDay: 0.4)
        return try SessionEngine(
            plan: plan, timeline: timeline, assets: EngineAssets(bell: EngineFixture.impulseBell()))
    }

    /// Renders in 100-frame blocks until the end, pausing for `pause.frames` at each output frame listed; returns the
    /// output frames of the strikes (cycle, output frame) and the output frame the session ended on.
    static func run(_ engine: SessionEngine, pauses: [(at: Int, frames: Int)]) -> (strikes: [(Int, Int64)], end: Int64?)
    {
        var strikes: [(Int, Int64)] = []
        var end: Int64?
        var buffer = [Float](repeating: 0, count: 200)
        var frame = 0
        while engine.state != .ended && frame < 100_000 {
            for p in pauses {
                if frame == p.at { engine.pause() }
                if frame == p.at + p.frames { engine.resume() }
            }
            buffer.withUnsafeMutableBufferPointer { engine.render(into: $0.baseAddress!, frames: 100) }
            frame += 100
            for e in EngineFixture.events(engine) {
                if case .timeline(let t, let out) = e {
                    if t.kind == .strike { strikes.append((t.cycle, out)) }
                    if t.kind == .end { end = out }
                }
            }
        }
        return (strikes, end)
    }

    @Test func withoutPausesTheClosingGroupStartsOnT() throws {
        let r = Self.run(try Self.engine(), pauses: [])
        #expect(r.strikes.suffix(3).map(\.1) == [16_600, 17_100, 17_600])
    }

    @Test func aPauseShortensTheLastCycleSoTheCloseStaysOnT() throws {
        // 2 s paused in cycle 1: the close is due at session frame 14 600, 600 frames into cycle 3, too short a
        // last sitting (under 2500): cycle 2 sits on and closes, its group on output frame 16 600 all the same.
        let engine = try Self.engine()
        #expect(engine.closingFrame == 16_600)
        let r = Self.run(engine, pauses: [(3_000, 2_000)])
        #expect(r.strikes.suffix(3).map(\.1) == [16_600, 17_100, 17_600])
        // The engine says where the close moved (the server's endsAt and outcome read it).
        #expect(engine.closingFrame == 14_600)
        #expect(r.strikes.suffix(3).allSatisfy { $0.0 == 2 })
        #expect(r.strikes.count == 9)
    }

    @Test func pausesInTwoCyclesStillCloseOnT() throws {
        // 1 s paused in cycle 1, 0.5 s in cycle 2: the close is due at session frame 15 100, in cycle 3.
        let r = Self.run(try Self.engine(), pauses: [(2_000, 1_000), (9_000, 500)])
        #expect(r.strikes.suffix(3).map(\.1) == [16_600, 17_100, 17_600])
        #expect(r.strikes.suffix(3).allSatisfy { $0.0 == 2 || $0.0 == 3 })
    }

    @Test func pausesThatEatTheWholeLastCycleCloseOnResume() throws {
        // Paused from 15 000 to 18 000, across T: the closing group starts on the resume (cycle 3 sat 1000 frames).
        let engine = try Self.engine()
        let r = Self.run(engine, pauses: [(15_000, 3_000)])
        #expect(r.strikes.suffix(3).map(\.1) == [18_000, 18_500, 19_000])
        #expect(engine.closingFrame == 15_000)
        #expect(r.end == 19_200)
    }

    @Test func aPauseDuringATransitionGroupMakesItTheClosingGroup() throws {
        // Paused 4 s in cycle 2's transition group (strikes 12 000, 12 500, 13 000 in session frames): the close is
        // due at session frame 12 600, inside that group, which becomes the closing group.
        let r = Self.run(try Self.engine(), pauses: [(12_100, 4_000)])
        #expect(r.strikes.map(\.1).suffix(3) == [12_000, 16_500, 17_000])
        #expect(r.strikes.count == 9)
        #expect(r.end == 17_200)
    }
}
