import AssetPipeline
import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// What a listener does not hear must not change a verdict: the sample rate, the gain, where the loop starts, the
/// channel layout. And what the ear hears as silence (a constant, a pause between events) is judged as silence.
/// Each rule with a synthesized case on both sides (docs/loops.md, metrics 1 and 7 and "Held out").
@Suite struct SeamMetricsInvarianceTests {
    /// A 3 s stereo loop (both channels alike) of 32 sines (80 Hz ... 16 kHz, seeded phases and levels) sampled at
    /// `rate`, whose period is `frames + skip` frames: a `skip` of 0 loops exactly, 0.5 skips half a sample of
    /// time at the wrap (what a loop of fractional length rounded to whole frames does, e.g. after resampling).
    /// Nothing above 16 kHz: the same sound at any rate from 32 kHz up.
    static func sines(rate: Int, skip: Double, seconds: Double = 3, seed: UInt64 = 7) -> AudioBuffer {
        let frames = Int(seconds * Double(rate))
        let period = Double(frames) + skip
        var rng = SeededRandom(seed: seed)
        let parts: [(cycles: Double, phase: Double, amplitude: Double)] = (0..<32).map { k in
            let hz = 80 * pow(200, Double(k) / 31)
            // Whole cycles in the period (at every rate: the period is the same length of time).
            let cycles = (hz * seconds).rounded()
            return (cycles, 2 * Double.pi * rng.nextUnit(), 0.02 * (0.3 + rng.nextUnit()) * pow(hz / 80, -0.3))
        }
        let x: [Float] = (0..<frames).map { i in
            var s = 0.0
            for p in parts { s += p.amplitude * sin(2 * Double.pi * p.cycles * Double(i) / period + p.phase) }
            return Float(s)
        }
        return AudioBuffer(channelData: [x, x], sampleRate: SampleRate(checked: rate))
    }

    /// The step and click measures read a 96 kHz loop as the same loop at 48 kHz. The same 32 sines with a
    /// half-sample skip at the wrap (a quarter sample at 48 kHz: 5 µs) pass alike at both rates, with continuity and
    /// click values alike. A 2 ms burst at 45 kHz on the seam (Hann-gated: nothing below 43 kHz, far above
    /// hearing) passes; measured between neighbouring 96 kHz samples it was the largest step and click of the loop
    /// (the second difference weighs 45 kHz 14 dB above what it gives it at samples two apart). A click of the
    /// same peak fails.
    @Test func aNinetySixKilohertzLoopReadsAsAtFortyEight() {
        let at48 = SeamCheck.analyze(Self.sines(rate: 48_000, skip: 0.25))
        let at96 = SeamCheck.analyze(Self.sines(rate: 96_000, skip: 0.5))
        #expect(at48.verdict == .pass, "\(SeamCheck.describe(at48))")
        #expect(at96.verdict == .pass, "\(SeamCheck.describe(at96))")
        for name in [SeamMetrics.Name.continuity, .click] {
            let a = at48.metric(name)?.value ?? .nan
            let b = at96.metric(name)?.value ?? .nan
            // Within a factor 1.5 (3.5 dB for the click): the two files hold the same sound.
            let close = name == .click ? abs(a - b) < 3.5 : max(a, b) / min(a, b) < 1.5
            #expect(close, "\(name): 48 kHz \(a), 96 kHz \(b)")
        }
        #expect(SeamMetrics.analysisStride(44_100) == 1 && SeamMetrics.analysisStride(96_000) == 2)
        #expect(SeamMetrics.analysisStride(192_000) == 4)
        func burst(hz: Double) -> AudioBuffer {
            var b = Self.sines(rate: 96_000, skip: 0)
            let half = 96
            for c in 0..<b.channels {
                for k in -half..<half {
                    let i = (k + b.frameCount) % b.frameCount
                    let gate = 0.5 - 0.5 * cos(Double.pi * Double(k + half) / Double(half))
                    b[c, i] += Float(0.05 * gate * sin(2 * Double.pi * hz * Double(k) / 96_000))
                }
            }
            return b
        }
        let ultrasonic = SeamCheck.analyze(burst(hz: 45_000))
        #expect(ultrasonic.seamPasses, "\(SeamCheck.describe(ultrasonic))")
        // A click of the same peak (one sample at 0.05, broadband: heard) fails.
        var clicked = Self.sines(rate: 96_000, skip: 0)
        for c in 0..<clicked.channels { clicked[c, 0] += 0.05 }
        let audible = SeamCheck.analyze(clicked)
        #expect(!audible.seamPasses, "\(SeamCheck.describe(audible))")
    }

    /// A cheap automatic invariance check: a seamless loop and a cut one keep their verdicts under a gain of −20
    /// and −40 dB, a rotation (the loop started elsewhere: its seam was an ordinary junction), a mono fold-down and
    /// the same loop at 96 kHz.
    @Test func verdictsHoldUnderWhatAListenerDoesNotHear() {
        let seamless = LoopSignals.periodicNoise(period: 24_000, frames: 6 * 24_000, smoothingHz: 3_000, seed: 41)
        let cut = LoopSignals.periodicNoise(period: 24_000, frames: 6 * 24_000 + 7_919, smoothingHz: 3_000, seed: 41)
        for (name, b, want) in [("seamless", seamless, true), ("cut", cut, false)] {
            var variants: [(String, AudioBuffer)] = [("as is", b)]
            for db in [-20.0, -40.0] {
                var g = b
                let gain = Float(pow(10, db / 20))
                for i in g.samples.indices { g.samples[i] *= gain }
                variants.append(("\(db) dB", g))
            }
            if want {
                // A rotation of a seamless loop moves its seam to an ordinary junction: it stays seamless.
                for offset in [10_007, 71_111] {
                    let data = (0..<b.channels).map { c in
                        b.withChannel(c) { x in (0..<b.frameCount).map { x[($0 + offset) % b.frameCount] } }
                    }
                    variants.append(("rotated by \(offset)", AudioBuffer(channelData: data, sampleRate: b.sampleRate)))
                }
            }
            let mono = (0..<b.frameCount).map { i in (b[0, i] + b[1, i]) / 2 }
            variants.append(("mono", AudioBuffer(channelData: [mono], sampleRate: b.sampleRate)))
            for (what, v) in variants {
                let r = SeamCheck.analyze(v)
                #expect(r.seamPasses == want, "\(name), \(what): \(SeamCheck.describe(r))")
            }
        }
    }

    /// A call with pauses: noise bursts between 300 ms pauses of digital silence, and a longer pause at the seam
    /// (the end's silence and the start's). Silence is part of this material: the seam is one more pause and
    /// passes. The same bursts with pauses of only 2 ms inside (the material is never silent for as long as a
    /// dip window) and 10 ms of digital silence at the seam fail as a gap.
    @Test func silenceAtTheSeamOfMaterialWithPausesIsAPause() {
        let rate = 48_000
        func call(pause: Int, head: Int, tail: Int) -> AudioBuffer {
            var rng = SeededRandom(seed: 5)
            var x = [Float](repeating: 0, count: head)
            // Irregular bursts (0.2 ... 0.5 s) with 5 ms fades, so no pulse and no click at their edges.
            for k in 0..<7 {
                let length = Int(Double(rate) * (0.2 + 0.3 * rng.nextUnit()))
                let fade = rate / 200
                for i in 0..<length {
                    let g = Float(min(1, Double(min(i, length - 1 - i)) / Double(fade)))
                    x.append(0.2 * g * rng.nextSigned())
                }
                if k < 6 { x += [Float](repeating: 0, count: pause) }
            }
            x += [Float](repeating: 0, count: tail)
            return AudioBuffer(channelData: [x, x], sampleRate: SampleRate(checked: rate))
        }
        let paused = SeamCheck.analyze(call(pause: rate * 3 / 10, head: rate / 5, tail: rate * 3 / 10))
        #expect(!paused.reasons.contains { $0.contains("digital silence") }, "\(paused.reasons)")
        #expect(paused.metric(.dip)?.status != .fail, "\(SeamCheck.describe(paused))")
        let gapped = SeamCheck.analyze(call(pause: rate / 500, head: rate / 200, tail: rate / 200))
        #expect(gapped.metric(.dip)?.status == .fail, "\(SeamCheck.describe(gapped))")
        #expect(gapped.reasons.contains { $0.hasPrefix("10.0 ms of digital silence at the seam") }, "\(gapped.reasons)")
    }

    /// A dropout in a file with a DC offset: steady noise at a +0.2 offset whose first 20 ms fall to near zero
    /// (−100 dBFS noise, not digital silence) is a gap: a loudspeaker plays the offset as nothing, so the
    /// collapse of the noise is what is heard, and the step of the offset besides. Judged about the loop's mean
    /// the near-zero stretch read as loud as the rest (0.2 from the mean) and passed. The same file without the
    /// dropout passes the dip (its offset only warns).
    @Test func aDropoutToZeroInAFileWithAnOffsetIsAGap() {
        let rate = 48_000
        let noise = LoopSignals.periodicNoise(
            period: 24_000, frames: 6 * 24_000, amplitude: 0.1, smoothingHz: 4_000, seed: 52)
        let bed = LoopSignals.addingDC(to: noise, offset: 0.2)
        var dropped = bed
        var rng = SeededRandom(seed: 53)
        for c in 0..<dropped.channels { for i in 0..<(rate / 50) { dropped[c, i] = 1e-5 * rng.nextSigned() } }
        let r = SeamCheck.analyze(dropped)
        #expect(r.metric(.dip)?.status == .fail, "\(SeamCheck.describe(r))")
        let steady = SeamCheck.analyze(bed)
        #expect(steady.metric(.dip)?.status == .pass, "\(SeamCheck.describe(steady))")
        #expect(steady.metric(.dcOffset)?.status == .warn)
    }
}
