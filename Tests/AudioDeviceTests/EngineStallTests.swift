import AudioCore
import AudioEngine
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDevice

/// A real `SessionEngine` through the paced null output with an injected stall: the engine adopts
/// ``WallClockSource``, so the xrun is counted, the bell due in the stall is struck late (never early, never
/// dropped) and the bells after it ring at their wall-clock times.
/// Serialized: it measures wall time, like ``NullOutputTests``.
@Suite(.serialized) struct EngineStallTests {
    static let rate = SampleRate.hz48000

    @Test func bellsAfterAStallKeepTheirWallClockTimes() throws {
        // 2 strikes 0.5 s apart, 0.6 s sitting, 0.3 s breath, repeating: a strike every 0.5-0.9 s.
        var plan = SessionPlan()
        plan.sitting = 0.6
        plan.strikes = 2
        plan.strikeSpacing = 0.5
        plan.breath = 0.3
        plan.fadeIn = 0.1
        plan.fadeOut = 0.1
        plan.repeatMode = .untilStopped
        let bellSamples = SignalGenerator.bell(partials: [(523, 0.5, 0.3)], seconds: 0.4, sampleRate: Self.rate.hertz)
        let bell = try LoadedAsset(
            id: "test-bell", buffer: SignalGenerator.buffer(bellSamples, sampleRate: Self.rate.hertz))
        let timeline = try SessionTimeline(
            plan: plan, sampleRate: Self.rate, bellTail: bell.decayFrames(gain: plan.bellVolume))
        let engine = try SessionEngine(plan: plan, timeline: timeline, assets: EngineAssets(bell: bell, ambient: nil))

        var config = OutputConfig()
        config.lockMemory = false
        let output = try NullOutput(config: config)
        engine.prepare(maxFrames: output.format.periodFrames)
        // Stall once 0.75 s is heard: the render thread, up to a buffer and a period ahead (at most 0.96 s),
        // stalls before the strike at 1.0 s, which falls in the ~230 ms lost.
        let stallAt: FramePosition = 36_000
        try output.start(engine, startFrame: 0, frameLimit: 170_000)  // 3.54 s of timeline
        try waitUntilHeard(output, frame: stallAt, seconds: 10)
        let origin = try #require(output.clock.audibleTime(ofFrame: 0)).monotonicNanoseconds
        output.injectStall(nanoseconds: 400_000_000)  // more than the 171 ms buffer
        try waitUntilStopped(output, seconds: 10)
        output.stop(drain: false)

        #expect(output.xrunCount == 1)
        #expect(output.lostFrameCount > 0)
        // The engine's output clock moved by every rendered frame (the limit counts those) and the skip.
        #expect(engine.outputFrame == 170_000 + FramePosition(output.lostFrameCount))
        var struck: [(planned: FramePosition, at: FramePosition)] = []
        while let e = engine.pollEvent() {
            if case .timeline(let t, let at) = e, t.kind == .strike { struck.append((t.frame, at)) }
        }
        let planned = timeline.events(cycles: 3).filter { $0.kind == .strike && $0.frame < 170_000 }.map(\.frame)
        // Every planned strike rang: none dropped by the skip.
        #expect(struck.map(\.planned) == planned)
        // The stall begins at most a buffer and a period (10 240 frames) after it is requested and loses
        // less than its 400 ms.
        let stallEnd = stallAt + 10_240 + 19_200
        var afterStall = 0
        var late = 0
        var residualsMs: [Double] = []
        for s in struck {
            if s.planned < stallAt {
                #expect(s.at == s.planned)
            } else if s.planned <= stallEnd {
                // Due around the stall: late or on time, never early, and late by less than the stall.
                #expect(s.at >= s.planned && s.at - s.planned < 19_200, "strike at \(s.planned) struck at \(s.at)")
                if s.at > s.planned { late += 1 }
            } else {
                afterStall += 1
                #expect(s.at == s.planned)
                // Heard at its wall-clock time: ±25 ms covers the clock's reading of
                // the stall and thread wake-up on a loaded 2-core machine; the null sink's clock is exact.
                let heard = try #require(output.clock.audibleTime(ofFrame: s.at)).monotonicNanoseconds
                let due = origin + AudioClock.nanoseconds(frames: s.planned, rate: Self.rate.hertz)
                residualsMs.append(Double(heard - due) / 1e6)
                #expect(
                    abs(Double(heard - due) / 1e6) < 25,
                    "strike at \(s.planned) heard \(Double(heard - due) / 1e6) ms off")
            }
        }
        #expect(late == 1, "the strike at 1.0 s was due in the stall")
        #expect(afterStall >= 2)
        print(
            "engine stall: xruns \(output.xrunCount), lost \(output.lostFrameCount) frames, strikes (planned, at) \(struck.map { ($0.planned, $0.at) }), after-stall residuals ms \(residualsMs)"
        )
    }
}
