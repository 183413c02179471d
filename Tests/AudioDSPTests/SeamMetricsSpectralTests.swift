import AudioCore
import AudioTestSupport
import Testing

@testable import AudioDSP

/// What the seam's spectral metric costs in transforms (issue #42: `loops verify` against bare decoding), counted
/// per call with ``TransformCount`` as `perf stat -e probe_libkissfft:kiss_fftr` counts them per process
/// (docs/benchmarks.md): one transform per ~21 ms frame, the frames half a frame apart (a sixteenth of a frame in a
/// loop under 0.24 s), and one for the seam's last frame; the texture signature reads the same frames.
@Suite struct SeamMetricsSpectralTests {
    /// Rumbling noise under white noise, stereo, `seconds` long at `rate` Hz (the bench loops' material).
    static func material(seconds: Double, rate: Int) -> AudioBuffer {
        let n = Int(seconds * Double(rate))
        var mix = LoopSignals.periodicNoise(period: n, frames: n, sampleRate: rate, amplitude: 0.1, seed: 7)
        let bed = LoopSignals.periodicNoise(
            period: 9_973, frames: n, sampleRate: rate, amplitude: 0.2, smoothingHz: 1_200, poles: 2, seed: 8)
        for k in mix.samples.indices { mix.samples[k] += bed.samples[k] }
        return mix
    }

    /// The forward transforms `body` makes.
    static func transforms(_ body: () -> Void) -> Int {
        let count = TransformCount()
        TransformCount.$current.withValue(count) { body() }
        return count.forward
    }

    @Test(
        "one transform per frame half a frame apart and one for the seam's last frame; a sixteenth apart under 0.24 s",
        arguments: [(30.0, 48_000), (30.0, 44_100), (2.0, 48_000), (0.3, 48_000), (0.2, 48_000), (0.1, 44_100)])
    func theSpectralMetricTransformsEachFrameOnce(seconds: Double, rate: Int) {
        let buffer = Self.material(seconds: seconds, rate: rate)
        let view = LoopView(checking: buffer, loop: 0..<buffer.frameCount)
        let n = buffer.frameCount
        let size = SeamMetrics.spectralFrameSize(sampleRate: rate)
        #expect(size == 1_024)
        // 22 frames half a frame apart (20 pairs of adjacent frames) need 11.5 frames of 1024: 0.245 s at 48 kHz.
        let hop = n >= size + 21 * size / 2 ? size / 2 : size / 16
        var none: TextureSpectra?
        var measure: SeamMetrics.Measure?
        let count = Self.transforms { measure = SeamMetrics.spectral(view, texture: &none, pattern: nil) }
        #expect(measure?.value != nil, "\(seconds) s at \(rate) Hz: \(String(describing: measure))")
        #expect(count == (n - size) / hop + 1 + 1, "\(seconds) s at \(rate) Hz")
        // A 30 s loop at 48 kHz: 2 811 frames and the seam's (docs/benchmarks.md, twenty-sixth session).
        if seconds == 30, rate == 48_000 { #expect(count == 2_812) }
    }

    /// `loops verify`'s path: every metric and the texture signature of a 30 s loop cost the spectral metric's
    /// transforms and the pulse search's three; the signature only the two frames across the loop's end (it reads
    /// the spectral frames, and the loop as a cycle: ``TextureSpectra/wrapFrames``).
    @Test func aThirtySecondLoopCostsItsFramesAndTheSignatureNoMore() {
        let buffer = Self.material(seconds: 30, rate: 48_000)
        let loop = 0..<buffer.frameCount
        let cheap = Self.transforms { _ = SeamMetrics.measure(buffer, loop: loop, goOn: { _ in false }) }
        let all = Self.transforms { _ = SeamMetrics.measure(buffer, loop: loop) }
        let shared = Self.transforms { _ = SeamMetrics.measureWithTexture(buffer, loop: loop) }
        #expect(all - cheap == 2_812)
        #expect(cheap == 3, "the pulse search's transforms")
        // 1 440 000 samples: frames start every 512 up to the end, ⌈2 812.5⌉ = 2 813 of them, 2 811 within the loop.
        #expect(shared == all + 2)
        // Alone, the signature reads its frames itself, and searches the pulse its events keep: what sharing saves.
        let alone = Self.transforms { _ = LikenessSignature.texture(buffer) }
        #expect(alone == 2_813 + cheap)
    }
}
