import AudioCore
import AudioEngine
import AudioTestSupport
import Foundation
import Testing

@Suite struct AmbientLoopTests {
    /// An ambient-only plan: no fades, bell muted, long enough for the frames a test renders.
    func ambientPlan(seconds: Double) -> SessionPlan {
        SessionPlan(sitting: seconds, ambientVolume: 1, bellVolume: 0, fadeIn: 0)
    }

    @Test func aPeriodicLoopEqualsItsPeriodicExtensionOverThousandsOfWraps() {
        // 50 frames of intro, a 97-frame loop, 20 frames after the loop end that must never play.
        let loop = SignalGenerator.whiteNoise(frames: 97, amplitude: 0.5, seed: 3)
        let intro = SignalGenerator.whiteNoise(frames: 50, amplitude: 0.5, seed: 4)
        let tail = [Float](repeating: 0.7, count: 20)
        let asset = EngineFixture.asset("rain", intro + loop + tail, loop: LoopRegion(start: 50, end: 147))
        let frames = 50 + 97 * 1100
        var rng = SeededRandom(seed: 11)
        let engine = EngineFixture.engine(plan: ambientPlan(seconds: 200), ambient: asset)
        let out = EngineFixture.left(
            EngineFixture.render(engine, frames: frames, nextBlock: { Int(rng.next() % 300) + 1 }))
        let expected: [Float] = (0..<frames).map { (i: Int) -> Float in i < 50 ? intro[i] : loop[(i - 50) % 97] }
        // Unity gains and a clipper that is transparent below 0.9: after the 20 ms de-click fade-in (20 frames
        // at 1 kHz; a fade-in of 0 still ramps) the loop plays exact (1e-6: float rounding of unity gain
        // products, −120 dBFS).
        #expect(Tolerance.maxDifference(Array(out[20...]), Array(expected[20...])) <= 1e-6)
    }

    /// The largest sample-to-sample step in `x`.
    func largestStep(_ x: [Float]) -> Float { zip(x, x.dropFirst()).map { abs($1 - $0) }.max() ?? 0 }

    @Test func aSeamCrossfadeRemovesADeliberateStep() {
        // 3.5 cycles of a cosine in the loop: the wrap jumps from -0.5 to +0.5.
        let n = 1000
        let samples = (0..<n).map { Float(0.5 * cos(2 * Double.pi * 3.5 * Double($0) / Double(n))) }
        let smooth = 2 * Float.pi * 3.5 / Float(n) * 0.5  // the cosine's own largest step
        let plain = EngineFixture.engine(plan: ambientPlan(seconds: 20), ambient: EngineFixture.asset("c", samples))
        let raw = EngineFixture.left(EngineFixture.render(plain, frames: 5 * n, nextBlock: { 256 }))
        #expect(largestStep(raw) > 0.9)
        let faded = EngineFixture.engine(
            plan: ambientPlan(seconds: 20), ambient: EngineFixture.asset("c", samples, seam: 200))
        let out = EngineFixture.left(EngineFixture.render(faded, frames: 5 * n, nextBlock: { 256 }))
        // The seam metric: the largest step anywhere after the 20-frame de-click fade-in, wraps included, stays
        // within 3x the material's own largest step (the blend of two cosine segments changes slope, never jumps).
        #expect(largestStep(Array(out[20...])) < 3 * smooth)
        #expect(faded.assets.ambient!.loop == LoopRegion(start: 200, end: 1000))
    }

    @Test func themeCrossfadeKeepsThePowerOfUncorrelatedNoise() {
        let rate = SampleRate.hz48000
        let a = EngineFixture.asset(
            "a", SignalGenerator.whiteNoise(frames: 48_000, amplitude: 0.5, seed: 21), rate: rate)
        let b = EngineFixture.asset(
            "b", SignalGenerator.whiteNoise(frames: 47_000, amplitude: 0.5, seed: 22), rate: rate)
        let engine = EngineFixture.engine(
            plan: ambientPlan(seconds: 60), bell: EngineFixture.impulseBell().resampledForTest(rate), ambient: a,
            rate: rate)
        var out = EngineFixture.render(engine, frames: 48_000, nextBlock: { 1024 })
        engine.setTheme(b, crossfadeFrames: 3 * 48_000)
        out += EngineFixture.render(engine, frames: 4 * 48_000, nextBlock: { 1024 })
        let left = EngineFixture.left(out)
        func power(_ s: ArraySlice<Float>) -> Double { s.reduce(0) { $0 + Double($1) * Double($1) } / Double(s.count) }
        let reference = power(left[0..<48_000])
        var worst = 0.0
        for w in stride(from: 48_000, to: 5 * 48_000, by: 4800) {
            worst = max(worst, abs(10 * log10(power(left[w..<(w + 4800)]) / reference)))
        }
        // Equal-power crossfade: ±0.5 dB, below the ~1 dB level change a listener notices; a 0.1 s window of
        // noise estimates power to ~0.1 dB.
        #expect(worst < 0.5)
        let changed = EngineFixture.events(engine).contains {
            if case .themeChanged(let id, 48_000) = $0 { return id == "b" }
            return false
        }
        #expect(changed)
    }

    @Test func switchingToNoThemeFadesOutAndRetiresTheAsset() {
        let a = EngineFixture.asset("a", SignalGenerator.whiteNoise(frames: 500, amplitude: 0.5, seed: 1))
        let engine = EngineFixture.engine(plan: ambientPlan(seconds: 20), ambient: a)
        _ = EngineFixture.render(engine, frames: 1000, nextBlock: { 100 })
        engine.setTheme(nil, crossfadeFrames: 300)
        let left = EngineFixture.left(EngineFixture.render(engine, frames: 1000, nextBlock: { 100 }))
        #expect(left[0] != 0)
        #expect(left[300...].allSatisfy { $0 == 0 })
        let retired = EngineFixture.events(engine).contains {
            if case .retired(let asset) = $0 { return asset === a }
            return false
        }
        #expect(retired)
    }
}

extension LoadedAsset {
    /// The same samples labelled with another rate (an impulse is an impulse at any rate).
    func resampledForTest(_ rate: SampleRate) -> LoadedAsset {
        let samples = (0..<frameCount).map { sample(channel: 0, frame: $0) }
        return EngineFixture.asset(id, samples, rate: rate)
    }
}
