import AudioCore
import AudioEngine
import AudioTestSupport
import Foundation
import Testing

/// `SessionEngine` as a ``WallClockSource``: a device stall skips wall time, and the session stays on its
/// wall-clock schedule: a strike due in the gap sounds as soon as it ends, later ones on their own frames.
@Suite struct SessionEngineSkipTests {
    /// Renders `frames` frames in blocks of 64, then skips `lost` frames, then renders `after` frames; returns
    /// the output indexed by output frame (the skipped frames silent).
    func renderWithStall(_ engine: SessionEngine, frames: Int, lost: Int, after: Int) -> [Float] {
        let before = EngineFixture.render(engine, frames: frames, nextBlock: { 64 })
        engine.skip(lostFrames: lost)
        let rest = EngineFixture.render(engine, frames: after, nextBlock: { 64 })
        return before + [Float](repeating: 0, count: 2 * lost) + rest
    }

    /// Output frames whose left sample is not silent.
    func sounding(_ interleaved: [Float]) -> [Int] {
        EngineFixture.left(interleaved).enumerated().filter { $0.element != 0 }.map(\.offset)
    }

    @Test func aStrikeDueInTheGapIsStruckOnTheFirstFrameAfterItAndLaterStrikesKeepTheirFrames() throws {
        // Impulse bell, no ambient: every sounding frame is a strike's first sample.
        let plan = EngineFixture.shortPlan(times: 1)
        let strikes = EngineFixture.engine(plan: plan).timeline.events().filter { $0.kind == .strike }.map {
            Int($0.frame)
        }
        try #require(strikes.count >= 3)
        let reference = EngineFixture.engine(plan: plan)
        let planned = EngineFixture.render(reference, frames: strikes[2] + 100, nextBlock: { 64 })
        #expect(sounding(planned) == Array(strikes[0...2]))

        // Stall from 10 frames before strike 1 for 30 frames (1000 Hz: 30 ms).
        let engine = EngineFixture.engine(plan: plan)
        let stallStart = strikes[1] - 10
        let out = renderWithStall(engine, frames: stallStart, lost: 30, after: strikes[2] + 100 - stallStart - 30)
        #expect(sounding(out) == [strikes[0], stallStart + 30, strikes[2]])
        // The same strike, late: its first sample is what it would have been on time (same gains).
        let left = EngineFixture.left(out)
        let reference0 = EngineFixture.left(planned)
        #expect(left[stallStart + 30] == reference0[strikes[1]])
        #expect(left[strikes[2]] == reference0[strikes[2]])
        // The engine reports it at the output frame it was struck, with its planned session frame.
        let struck = EngineFixture.events(engine).compactMap { e -> (FramePosition, FramePosition)? in
            if case .timeline(let t, let at) = e, t.kind == .strike { return (t.frame, at) }
            return nil
        }
        #expect(struck.map(\.0) == strikes[0...2].map { FramePosition($0) })
        #expect(struck.map(\.1) == [strikes[0], stallStart + 30, strikes[2]].map { FramePosition($0) })
        #expect(engine.sessionFrame == engine.outputFrame)
    }

    @Test func aBellRingingThroughTheGapGoesOnWhereItWouldHaveBeen() throws {
        // A 300-frame ramp as the bell: each frame's sample tells where in the bell the voice is.
        let ramp = (0..<300).map { Float($0 + 1) / 600 }
        let bell = EngineFixture.asset("ramp", ramp)
        let plan = EngineFixture.shortPlan(times: 1)
        let reference = EngineFixture.engine(plan: plan, bell: bell)
        let stalled = EngineFixture.engine(plan: plan, bell: bell)
        let strike = try #require(reference.timeline.events().first { $0.kind == .strike && $0.frame > 0 }).frame
        let total = Int(strike) + 400
        let expected = EngineFixture.left(EngineFixture.render(reference, frames: total, nextBlock: { 64 }))
        // Lose 120 frames from 50 frames into the strike: the voice resumes 170 frames into the bell.
        let out = EngineFixture.left(
            renderWithStall(stalled, frames: Int(strike) + 50, lost: 120, after: total - Int(strike) - 170))
        let resumed = Int(strike) + 170
        #expect(out[resumed] != 0)
        // Same voice position, same gains: bit-identical (1e-6 allows only float rounding).
        #expect(Tolerance.maxDifference(Array(out[resumed...]), Array(expected[resumed...])) <= 1e-6)
    }

    @Test func aSkipWhilePausedKeepsTheSessionClockAndCountsAsPausedTime() {
        let engine = EngineFixture.engine(plan: EngineFixture.shortPlan(times: 1))
        _ = EngineFixture.render(engine, frames: 700, nextBlock: { 50 })
        engine.pause()
        _ = EngineFixture.render(engine, frames: 100, nextBlock: { 50 })  // past the 20 ms de-click fade
        #expect(engine.state == .paused)
        let session = engine.sessionFrame
        engine.skip(lostFrames: 400)
        #expect(engine.sessionFrame == session)
        #expect(engine.outputFrame == 1200)
        #expect(engine.state == .paused)
        engine.resume()
        _ = EngineFixture.render(engine, frames: 50, nextBlock: { 50 })
        #expect(engine.sessionFrame == session + 50)
        let resumed = EngineFixture.events(engine).compactMap { e -> FrameCount? in
            if case .resumed(_, _, let paused) = e { return paused }
            return nil
        }
        #expect(resumed == [500])  // 100 rendered while paused plus the 400 lost
    }

    @Test func theAmbientLoopKeepsItsPhaseAcrossASkip() {
        // A periodic ambient (a 0.1 s period sine in a 0.5 s loop after a 0.13 s intro), the bell muted: after
        // a stall across the fade-in and into a volume ramp, the stalled engine must match the un-stalled one
        // at every output frame.
        let intro = (0..<130).map { Float(0.3 * sin(Double($0) * 0.37)) }
        let loop = (0..<500).map { Float(0.4 * sin(2 * Double.pi * Double($0) / 100)) }
        let ambient = EngineFixture.asset("sine", intro + loop, loop: LoopRegion(start: 130, end: 630))
        var plan = EngineFixture.shortPlan(times: 1)
        plan.bellVolume = 0
        plan.ambientVolume = 0.8
        plan.fadeIn = 1
        let reference = EngineFixture.engine(plan: plan, ambient: ambient)
        let stalled = EngineFixture.engine(plan: plan, ambient: ambient)
        let total = 3000
        // Both: 200 frames, then a 2000-frame volume ramp starts; the stalled engine renders one block of the
        // ramp and then loses 1777 frames (three loop wraps and a partial period, from inside the fade-in to
        // the middle of the ramp).
        var expected = EngineFixture.render(reference, frames: 200, nextBlock: { 64 })
        reference.setVolume(.ambient, 0.3, rampFrames: 2000)
        expected += EngineFixture.render(reference, frames: total - 200, nextBlock: { 64 })
        var out = EngineFixture.render(stalled, frames: 200, nextBlock: { 64 })
        stalled.setVolume(.ambient, 0.3, rampFrames: 2000)
        out += renderWithStall(stalled, frames: 64, lost: 1777, after: total - 264 - 1777)
        #expect(stalled.outputFrame == FramePosition(total))
        #expect(stalled.sessionFrame == FramePosition(total))
        let a = Array(EngineFixture.left(expected)[(264 + 1777)...])
        let b = Array(EngineFixture.left(out)[(264 + 1777)...])
        #expect(b.contains { $0 != 0 })
        // Same frames, same fade and ramp gains; 1e-6 (−120 dBFS) covers float rounding of gain products.
        #expect(Tolerance.maxDifference(a, b) <= 1e-6)
    }
}
