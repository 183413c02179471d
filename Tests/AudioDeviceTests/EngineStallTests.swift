import AudioCore
import AudioEngine
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDevice

/// A real `SessionEngine` through the null device on a manual clock, with a stall: the engine adopts
/// ``WallClockSource``, so the xrun is counted, the bell due in the stall is struck late (never early, never
/// dropped) and the bells after it ring at their wall-clock times. The clock is moved by hand, so every figure
/// is exact on any machine.
@Suite struct EngineStallTests {
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

        let output = try ManualOutput()
        engine.prepare(maxFrames: output.format.periodFrames)
        try output.start(engine, startFrame: 0, frameLimit: 170_000)  // 3.54 s of timeline
        // Stall once 0.75 s is heard: the loop, a buffer and a period ahead, has rendered up to just before the
        // strike at 1.0 s, which falls in the time lost.
        let stallAt: FramePosition = 36_000
        try ManualOutputTests.play(output, untilHeard: stallAt)
        let origin = try #require(output.clock.audibleTime(ofFrame: 0)).monotonicNanoseconds
        let rendered = FramePosition(output.statistics.periodCount * 2048)
        output.stall(nanoseconds: 400_000_000)  // more than the 171 ms buffer
        output.runToEnd()
        output.stop(drain: false)

        #expect(output.xrunCount == 1)
        let lost = FramePosition(output.lostFrameCount)
        #expect(lost > 0)
        // The engine's output clock moved by every rendered frame (the limit counts those) and the skip.
        #expect(engine.outputFrame == 170_000 + lost)
        var struck: [(planned: FramePosition, at: FramePosition)] = []
        while let e = engine.pollEvent() {
            if case .timeline(let t, let at) = e, t.kind == .strike { struck.append((t.frame, at)) }
        }
        let planned = timeline.events(cycles: 3).filter { $0.kind == .strike && $0.frame < 170_000 }.map(\.frame)
        // Every planned strike rang: none dropped by the skip.
        #expect(struck.map(\.planned) == planned)
        // The period after the stall was rendered before the xrun showed; the skip follows it.
        let skippedFrom = rendered + 2048
        var late = 0
        var afterStall = 0
        for s in struck {
            if s.planned < skippedFrom {
                #expect(s.at == s.planned)
            } else if s.planned < skippedFrom + lost {
                // Due in the lost time: struck at the first frame after it, late by less than the lost time.
                #expect(s.at == skippedFrom + lost, "strike at \(s.planned) struck at \(s.at)")
                late += 1
            } else {
                afterStall += 1
                #expect(s.at == s.planned)
                // Heard at its wall-clock time, to the frame: the device's delay is in whole frames.
                let heard = try #require(output.clock.audibleTime(ofFrame: s.at)).monotonicNanoseconds
                let due = origin + AudioClock.nanoseconds(frames: s.planned, rate: Self.rate.hertz)
                #expect(
                    abs(heard - due) <= ManualOutputTests.frameNs, "strike at \(s.planned) heard \(heard - due) ns off")
            }
        }
        #expect(late == 1, "the strike at 1.0 s was due in the stall (rendered to \(rendered), lost \(lost))")
        #expect(afterStall >= 2)
    }
}
