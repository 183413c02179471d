import AudioCore
import AudioEngine
import AudioTestSupport
import Foundation
import Testing

/// Every start, stop, cut and switch ramps (docs/engine.md, "Transitions"): a battery of renders with every
/// zero-length option, each transition scanned for a sample-to-sample step larger than the material's own
/// around it, and every session's last frame exactly 0.
@Suite struct DeclickTests {
    static let rate = SampleRate.hz48000
    /// 200 Hz (240 frames a period) from a cosine's peak: a start or cut at frame 0 of it is a full step.
    static let toneA = (0..<4_800).map { Float(0.5 * cos(2 * Double.pi * Double($0) / 240)) }
    /// 300 Hz (160 frames a period), another level and phase.
    static let toneB = (0..<4_800).map { Float(0.4 * sin(2 * Double.pi * Double($0) / 160 + 1)) }
    /// A bell: 800 Hz under a 0.3 s exponential decay, 3 s long (it falls below -60 dBFS at ~1.9 s).
    static let bell = (0..<144_000).map { n -> Float in
        let t = Double(n) / 48_000
        return Float(0.5 * sin(2 * Double.pi * 800 * t) * exp(-t / 0.3))
    }

    static func asset(_ id: String, _ x: [Float]) -> LoadedAsset { EngineFixture.asset(id, x, rate: rate) }

    /// 3 s sittings, quiet strikes (0.05: the ambient dominates, so a strike's onset under a transition does not
    /// hide a step), every fade 0.
    static func plan(_ repeatMode: SessionPlan.Repeat = .once) -> SessionPlan {
        SessionPlan(
            sitting: 3, strikes: 2, strikeSpacing: 1, breath: 0, ambientVolume: 1, bellVolume: 0.05, fadeIn: 0,
            fadeOut: 0, repeatMode: repeatMode)
    }

    static func engine(_ plan: SessionPlan) throws -> SessionEngine {
        let bellAsset = asset("bell", bell)
        let timeline = try SessionTimeline(
            plan: plan, sampleRate: rate, bellTail: bellAsset.decayFrames(gain: plan.bellVolume))
        return try SessionEngine(
            plan: plan, timeline: timeline, assets: EngineAssets(bell: bellAsset, ambient: asset("a", toneA)))
    }

    /// The largest |x[n] - x[n-1]| for n in `range` (x[-1] = 0: the output starts from silence).
    static func largestStep(_ x: [Float], _ range: Range<Int>) -> Float {
        var worst: Float = 0
        let lower = max(0, range.lowerBound)
        let upper = min(x.count, range.upperBound)
        guard lower < upper else { return 0 }
        for n in lower..<upper {
            worst = max(worst, abs(x[n] - (n > 0 ? x[n - 1] : 0)))
        }
        return worst
    }

    /// The largest step within 10 ms of the transition at `frame` (and its `ramp`) over the material's own
    /// largest step in the 100 ms on either side of that window.
    static func stepRatio(_ x: [Float], at frame: Int, ramp: Int = 960) -> Float {
        let w = 480
        let m = 4_800
        let window = (frame - w)..<(frame + ramp + w)
        let own = max(
            largestStep(x, (frame - w - m)..<(frame - w)), largestStep(x, (frame + ramp + w)..<(frame + ramp + w + m)))
        return largestStep(x, window) / max(own, 1e-6)
    }

    /// Renders `engine` in 512-frame blocks, calling `at` before the block starting on each listed frame.
    static func render(_ engine: SessionEngine, frames: Int, at commands: [Int: (SessionEngine) -> Void] = [:])
        -> [Float]
    {
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 1024)
        var done = 0
        while done < frames {
            commands[done]?(engine)
            let n = min(512, frames - done)
            buffer.withUnsafeMutableBufferPointer { engine.render(into: $0.baseAddress!, frames: n) }
            out += buffer[..<(2 * n)]
            done += n
        }
        return EngineFixture.left(out)
    }

    @Test func theStartTheLastStrikeAndTheEndRampWithEveryFadeAtZero() throws {
        let plan = Self.plan()
        let engine = try Self.engine(plan)
        let timeline = engine.timeline
        let end = Int(timeline.endFrame!)
        let x = Self.render(engine, frames: end + 4_800)
        // The start (fade-in 0) and the ambient under the last strike (fade-out 0).
        #expect(Self.stepRatio(x, at: 0) < 1.5, "start: \(Self.stepRatio(x, at: 0))")
        let lastStrike = Int(timeline.lastStrikeFrame!)
        #expect(Self.stepRatio(x, at: lastStrike) < 1.5, "fade-out 0: \(Self.stepRatio(x, at: lastStrike))")
        // The end: the bell's -60 dBFS tail ramps to exactly 0 on the last frame.
        #expect(Self.stepRatio(x, at: end - 960) < 1.5, "end: \(Self.stepRatio(x, at: end - 960))")
        #expect(x[end - 1] == 0)
        #expect(x[(end - 960)...].allSatisfy { abs($0) < 0.0012 }, "\(x[(end - 960)...].map { abs($0) }.max()!)")
        #expect(engine.state == .ended)
    }

    @Test func themeSwitchesWithACrossfadeOfZeroRamp() throws {
        // A switch to another tone, then to silence, both with crossfade 0, offline on their exact frames.
        var plan = Self.plan()
        plan.sitting = 6
        let engine = try Self.engine(plan)
        let renderer = OfflineRenderer(engine: engine, blockFrames: 333)
        renderer.scheduleTheme(Self.asset("b", Self.toneB), atFrame: 48_077, crossfadeFrames: 0)
        renderer.scheduleTheme(nil, atFrame: 144_011, crossfadeFrames: 0)
        var out: [Float] = []
        try renderer.run(sink: { b, _ in out += b })
        let x = EngineFixture.left(out)
        #expect(Self.stepRatio(x, at: 48_077) < 1.5, "tone to tone: \(Self.stepRatio(x, at: 48_077))")
        #expect(Self.stepRatio(x, at: 144_011) < 1.5, "tone to silence: \(Self.stepRatio(x, at: 144_011))")
        #expect(x.last == 0)
    }

    @Test func liveStopsVolumeJumpsAndPausesRamp() throws {
        // Until stopped: a volume jump (ramp 0), a pause and resume, and a stop without a bell with fade-out 0.
        let engine = try Self.engine(Self.plan(.untilStopped))
        let commands: [Int: (SessionEngine) -> Void] = [
            30_720: { $0.setVolume(.ambient, 0.2, rampFrames: 0) },
            61_440: { $0.pause() },
            71_680: { $0.resume() },
            102_400: { $0.stop(withBell: false) },
        ]
        let x = Self.render(engine, frames: 110_000, at: commands)
        for (frame, what) in [(30_720, "volume"), (61_440, "pause"), (71_680, "resume"), (102_400, "stop")] {
            #expect(Self.stepRatio(x, at: frame) < 1.5, "\(what): \(Self.stepRatio(x, at: frame))")
        }
        #expect(engine.state == .ended)
        let last = x.lastIndex { $0 != 0 } ?? 0
        #expect(last < 102_400 + 960, "ended at \(last)")
    }

    @Test func aStopWithoutBellDuringTheClosingRingRamps() throws {
        let plan = Self.plan()
        let engine = try Self.engine(plan)
        let closing = Int(engine.timeline.lastStrikeFrame!) + 10_240
        let x = Self.render(engine, frames: closing + 4_800, at: [closing: { $0.stop(withBell: false) }])
        #expect(Self.stepRatio(x, at: closing) < 1.5, "silenced ring: \(Self.stepRatio(x, at: closing))")
        #expect(engine.state == .ended)
        #expect(x[(closing + 960)...].allSatisfy { $0 == 0 })
    }

    /// A fifth sounding theme releases the quietest voice in the de-click ramp; with four slots it was cut.
    @Test func aFifthSoundingThemeIsReleasedNotCut() throws {
        // Alternating short and long crossfades leave four themes at high level, fading over 10 s each.
        let engine = try Self.engine(Self.plan(.untilStopped))
        var commands: [Int: (SessionEngine) -> Void] = [:]
        for i in 0..<8 {
            let tone = (0..<4_800).map {
                Float(0.2 * sin(2 * Double.pi * Double($0) * Double(i + 2) / 480 + Double(i)))
            }
            commands[10_240 + 2_048 * i] = {
                $0.setTheme(Self.asset("t\(i)", tone), crossfadeFrames: i % 2 == 0 ? 0 : 480_000)
            }
        }
        let fifth = 10_240 + 2_048 * 7
        let x = Self.render(engine, frames: fifth + 8_000, at: commands)
        #expect(Self.stepRatio(x, at: fifth) < 1.5, "fifth theme: \(Self.stepRatio(x, at: fifth))")
    }
}
