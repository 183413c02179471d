import AudioCore
import AudioEngine
import AudioTestSupport
import Foundation
import Testing

/// `stop` sent while paused ends the session now instead of waiting for a resume.
@Suite struct StopWhilePausedTests {
    static func pausedEngine() -> SessionEngine {
        var plan = EngineFixture.shortPlan()
        plan.repeatMode = .untilStopped
        let engine = EngineFixture.engine(plan: plan)
        _ = EngineFixture.render(engine, frames: 3000, nextBlock: { 1000 })
        engine.pause()
        _ = EngineFixture.render(engine, frames: 2000, nextBlock: { 1000 })
        _ = EngineFixture.events(engine)
        return engine
    }

    @Test func stopWhilePausedRingsTheClosingGroupFromThePausedFrame() {
        let engine = Self.pausedEngine()
        #expect(engine.state == .paused)
        engine.stop(withBell: true)
        let left = EngineFixture.left(EngineFixture.render(engine, frames: 2000, nextBlock: { 1000 }))
        // Output frames 5000... continue session frame 3000: strikes at +0, +500, +1000 (0.5 s spacing at 1 kHz);
        // the first is scaled by the 20 ms resume fade, but it is on its frame.
        #expect(left.indices.filter { left[$0] != 0 } == [0, 500, 1000])
        #expect(engine.state == .ended)
        // The closing group's last strike (4000) plus the 0.2 s fade-out.
        #expect(engine.sessionFrame == 4200)
        let events = EngineFixture.events(engine)
        let resumed = events.firstIndex { if case .resumed(3000, 5000, 2000) = $0 { true } else { false } }
        let stopping = events.firstIndex { if case .stopping(3000, 5000, true) = $0 { true } else { false } }
        #expect(resumed != nil && stopping != nil && resumed! < stopping!, "\(events)")
    }

    /// Without the bell, a stop while paused ends the session on the paused frame, in the pause's silence: it
    /// resumed first and let the ambient fade out from full level (a sitter who paused into silence and chose to end
    /// heard the soundscape return for the plan's whole fade-out).
    @Test func stopWithoutBellWhilePausedEndsInThePausesSilence() {
        let rain = EngineFixture.asset(
            "rain", (0..<1000).map { Float(sin(Double($0) * 0.3) * 0.3) }, loop: LoopRegion(start: 0, end: 1000))
        var plan = EngineFixture.shortPlan()
        plan.repeatMode = .untilStopped
        plan.fadeOut = 3
        let engine = EngineFixture.engine(plan: plan, ambient: rain)
        _ = EngineFixture.render(engine, frames: 3000, nextBlock: { 1000 })
        engine.pause()
        _ = EngineFixture.render(engine, frames: 2000, nextBlock: { 1000 })
        _ = EngineFixture.events(engine)
        engine.stop(withBell: false)
        let left = EngineFixture.left(EngineFixture.render(engine, frames: 1000, nextBlock: { 100 }))
        #expect(left.allSatisfy { $0 == 0 }, "the ambient came back: peak \(left.map(abs).max() ?? 0)")
        #expect(engine.state == .ended)
        #expect(engine.sessionFrame == 3000)
        let events = EngineFixture.events(engine)
        #expect(!events.contains { if case .resumed = $0 { true } else { false } }, "\(events)")
        #expect(events.contains { if case .stopping(3000, 5000, false) = $0 { true } else { false } }, "\(events)")
    }
}
