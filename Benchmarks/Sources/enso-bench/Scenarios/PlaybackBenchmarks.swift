import AudioCore
import AudioDevice
import AudioEngine

/// What the live render thread does per period (docs/playback.md): `SessionEngine.render` of one 2048-frame
/// period with the ambient loop and 3 ringing bells, then the conversion to the device format. Each run
/// renders 60 s of audio (1407 periods), so the median divided by 60 s is the render thread's share of one
/// core (target ≤ 1 %: ≤ 600 ms). The soak (`Benchmarks/Scripts/playback-soak.sh`, run by `make bench`)
/// measures the same on a live PulseAudio stream under load, with xruns and RSS.
enum PlaybackBenchmarks {
    static let period = 2048
    static let seconds = 60

    /// An engine on the render benchmark's session (20 min sittings: no timeline strike in 60 s), primed
    /// with three manual strikes.
    static func makeEngine() throws -> SessionEngine {
        let assets = try RenderScenarios.makeAssets()
        let plan = RenderScenarios.plan
        let rate = SampleRate(checked: RenderScenarios.rate)
        do {
            let timeline = try SessionTimeline(
                plan: plan, sampleRate: rate, bellTail: assets.bell.decayFrames(gain: plan.bellVolume))
            let engine = try SessionEngine(plan: plan, timeline: timeline, assets: assets)
            engine.prepare(maxFrames: period)
            return engine
        } catch {
            throw BenchmarkError("\(error)")
        }
    }

    /// Renders `seconds` of periods, re-striking 3 bells every 160 periods (6.8 s) so 3 always ring, and
    /// converts each period with `format` (nil: no conversion).
    static func run(
        _ engine: SessionEngine, format: SampleFormat?, float: UnsafeMutablePointer<Float>,
        device: UnsafeMutableRawPointer
    ) {
        let periods = seconds * RenderScenarios.rate / period
        for p in 0..<periods {
            if p % 160 == 0 {
                for _ in 0..<3 { engine.strike() }
            }
            engine.render(into: float, frames: period)
            format?.convert(float, count: 2 * period, into: device)
            while engine.pollEvent() != nil {}
        }
        blackHole(float[0])
    }

    static var all: [Benchmark] {
        let group =
            "Playback render thread, 60 s of 2048-frame periods, ambient + 3 ringing bells (time / 60 s = share of one core)"
        func scenario(_ title: String, baseline: Bool, format: SampleFormat?, target: Double?) -> Benchmark {
            Benchmark(
                title, group: group, baseline: baseline, target: target,
                prepare: { _ = try RenderScenarios.assetFiles() }
            ) {
                let engine = try makeEngine()
                let float = UnsafeMutablePointer<Float>.allocate(capacity: 2 * period)
                float.initialize(repeating: 0, count: 2 * period)
                let device = UnsafeMutableRawPointer.allocate(byteCount: 2 * period * 4, alignment: 16)
                return { run(engine, format: format, float: float, device: device) }
            }
        }
        return [
            scenario("SessionEngine render (60 s, 2048-frame periods)", baseline: true, format: nil, target: nil),
            scenario(
                "SessionEngine render + S16 conversion (60 s, 2048-frame periods)", baseline: false, format: .int16,
                target: 1.1),
            scenario(
                "SessionEngine render + float clip (60 s, 2048-frame periods)", baseline: false, format: .float32,
                target: 1.1),
        ]
    }
}
