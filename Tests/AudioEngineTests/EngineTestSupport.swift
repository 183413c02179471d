import AudioCore
import AudioEngine
import AudioTestSupport

/// Small fixtures shared by the engine tests: low rates and short plans keep every test in milliseconds.
enum EngineFixture {
    static let rate = SampleRate(checked: 1000)

    /// A mono asset from samples.
    static func asset(
        _ id: String, _ samples: [Float], rate: SampleRate = rate, loop: LoopRegion? = nil,
        seam: Int = 0
    ) -> LoadedAsset {
        try! LoadedAsset(
            id: id, buffer: AudioBuffer(channelData: [samples], sampleRate: rate), loop: loop, seamCrossfade: seam)
    }

    /// A bell that is one impulse of `amplitude` followed by `length - 1` zeros.
    static func impulseBell(amplitude: Float = 0.5, length: Int = 40) -> LoadedAsset {
        asset("impulse", SignalGenerator.impulse(frames: length, amplitude: amplitude))
    }

    /// A short plan: 5 s sittings, 3 strikes 0.5 s apart, 1 s breath, 0.2 s fades, `times` cycles.
    static func shortPlan(times: Int = 3) -> SessionPlan {
        var plan = SessionPlan()
        plan.sitting = 5
        plan.strikes = 3
        plan.strikeSpacing = 0.5
        plan.breath = 1
        plan.fadeIn = 0.2
        plan.fadeOut = 0.2
        plan.repeatMode = .times(times)
        return plan
    }

    static func engine(
        plan: SessionPlan, bell: LoadedAsset = impulseBell(), ambient: LoadedAsset? = nil, rate: SampleRate = rate
    ) -> SessionEngine {
        let timeline = try! SessionTimeline(
            plan: plan, sampleRate: rate, bellTail: bell.decayFrames(gain: plan.bellVolume))
        return try! SessionEngine(plan: plan, timeline: timeline, assets: EngineAssets(bell: bell, ambient: ambient))
    }

    /// Renders `frames` frames in blocks whose sizes `nextBlock` chooses; returns the interleaved output.
    static func render(_ engine: SessionEngine, frames: Int, nextBlock: () -> Int) -> [Float] {
        var out = [Float](repeating: 0, count: frames * 2)
        var done = 0
        out.withUnsafeMutableBufferPointer { p in
            while done < frames {
                let n = min(nextBlock(), frames - done)
                engine.render(into: p.baseAddress! + 2 * done, frames: n)
                done += n
            }
        }
        return out
    }

    /// Left channel of interleaved stereo.
    static func left(_ interleaved: [Float]) -> [Float] {
        stride(from: 0, to: interleaved.count, by: 2).map { interleaved[$0] }
    }

    /// Drains the engine's events.
    static func events(_ engine: SessionEngine) -> [EngineEvent] {
        var out: [EngineEvent] = []
        while let e = engine.pollEvent() { out.append(e) }
        return out
    }
}
