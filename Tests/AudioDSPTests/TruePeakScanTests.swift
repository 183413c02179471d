import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// The span-limited true peak against libebur128 oversampling the whole padded buffer: the same value, bit for bit.
@Suite struct TruePeakScanTests {
    /// libebur128's true peak of `buffer` fed whole, with 0.4 s of silence after it (as the loudness scan pads).
    func wholeBufferTruePeak(_ b: AudioBuffer) throws -> Double {
        let m = try LoudnessMeter(channels: b.channelCount, sampleRate: b.sampleRate, truePeak: true)
        m.add(b)
        m.addSilence(frames: b.sampleRate.hertz * 2 / 5)
        return m.truePeak
    }

    func expectSame(_ b: AudioBuffer, _ label: String) throws {
        let whole = try wholeBufferTruePeak(b)
        let scanned = try TruePeakScan.truePeak(b)
        #expect(scanned == whole, "\(label): scan \(scanned) vs whole \(whole)")
        #expect(whole >= Double(b.peak), "\(label): the true peak is never below the sample peak")
    }

    /// A decaying tone at fs/4 with a 45° phase: its inter-sample peaks are 3 dB above its samples.
    func quarterRateTone(rate: Int, channels: Int, seconds: Double, loudAt: Double = 0) -> AudioBuffer {
        let n = Int(seconds * Double(rate))
        let data = (0..<channels).map { ch in
            (0..<n).map { i -> Float in
                let t = Double(i) / Double(rate)
                let env = t < loudAt ? 0.01 : 0.7 * pow(10, -2 * (t - loudAt))
                return Float(env * sin(Double.pi / 2 * Double(i) + .pi / 4 + Double(ch)))
            }
        }
        return AudioBuffer(channelData: data, sampleRate: SampleRate(rate)!)
    }

    @Test(arguments: [(48000, 1), (44100, 2), (96000, 2), (192000, 1)])
    func decayingQuarterRateToneMatches(rate: Int, channels: Int) throws {
        try expectSame(quarterRateTone(rate: rate, channels: channels, seconds: 3), "tone at \(rate)")
        try expectSame(quarterRateTone(rate: rate, channels: channels, seconds: 3, loudAt: 1.7), "late tone at \(rate)")
    }

    @Test func peaksAtTheVeryEdgesMatch() throws {
        let rate = 48000
        for at in [0, 1, 5, rate - 1, rate - 3] {
            var x = [Float](repeating: 0, count: rate)
            for i in 0..<rate { x[i] = 0.05 * Float(sin(Double(i) * 0.3)) }
            // An alternating full-scale burst: the interpolator overshoots between its samples.
            for k in -3...3 where at + k >= 0 && at + k < rate { x[at + k] = k % 2 == 0 ? 0.9 : -0.9 }
            try expectSame(SignalGenerator.buffer(x, sampleRate: rate), "burst at frame \(at)")
        }
    }

    @Test func loudestInOneChannelOfAStereoBellMatches() throws {
        var b = BellSignals.bell(seconds: 4, channels: 2)
        // A late, loud click in the right channel only, after the bell has decayed.
        let n = b.frameCount
        b.samples[n + 3 * n / 4] = 0.99
        b.samples[n + 3 * n / 4 + 1] = -0.99
        try expectSame(b, "stereo bell with a late click")
        try expectSame(BellSignals.bell(seconds: 4, channels: 1), "clean mono bell")
    }

    @Test func seededNoiseBurstsMatch() throws {
        for seed in 1...20 {
            var rng = SeededRandom(seed: UInt64(seed))
            let n = 9600 + Int(rng.nextUnit() * 48000)
            var x = [Float](repeating: 0, count: n)
            for i in 0..<n { x[i] = 0.02 * rng.nextSigned() }
            let bursts = 1 + Int(rng.nextUnit() * 4)
            for _ in 0..<bursts {
                let at = Int(rng.nextUnit() * Double(n - 200))
                let level = Float(0.2 + 0.8 * rng.nextUnit())
                for i in at..<(at + 200) { x[i] = level * rng.nextSigned() }
            }
            try expectSame(SignalGenerator.buffer(x, sampleRate: 48000), "noise bursts, seed \(seed)")
        }
    }

    /// The taps of libebur128's interpolator branch `phase` (49-tap Hann-windowed sinc, `factor`× oversampling),
    /// input frame nearest first, as its `interp_create` computes them.
    func branchTaps(factor: Int, phase: Int) -> [Double] {
        stride(from: phase, to: 49, by: factor).map { j in
            let m = Double(j) - 24
            let x = m * Double.pi / Double(factor)
            let sinc = abs(m) < 1e-9 ? 1 : sin(x) / x
            return sinc * 0.5 * (1 - cos(2 * Double.pi * Double(j) / 48))
        }
    }

    /// The worst case of the bound: frames signed like the half-sample branch's taps, scaled so that branch's
    /// output is 2 % above a lone full-scale sample elsewhere. The true peak then lies in frames far below the
    /// sample peak, the scan must include them, and a smaller gain bound than the branch's own would miss them.
    @Test(arguments: [(48000, 4), (44100, 4), (96000, 2)])
    func worstCaseSignPatternMatches(rate: Int, factor: Int) throws {
        let taps = branchTaps(factor: factor, phase: factor / 2)
        let gain = taps.reduce(0) { $0 + abs($1) }
        #expect(Float(gain) < TruePeakScan.gainBound(sampleRate: SampleRate(rate)!))
        var x = [Float](repeating: 0, count: rate)
        x[rate / 10] = 1
        let level = 1.02 / gain
        let at = rate / 2
        for (k, h) in taps.enumerated() { x[at - k] = Float(h >= 0 ? level : -level) }
        let b = SignalGenerator.buffer(x, sampleRate: rate)
        let whole = try wholeBufferTruePeak(b)
        #expect(whole > 1.01, "the pattern's true peak \(whole) should exceed the lone sample at \(rate) Hz")
        try expectSame(b, "worst-case pattern at \(rate) Hz")
    }

    /// Loud spans fed one after the other: the worst-case pattern (as above) follows a full-scale pulse at spacings
    /// from a few frames to three blocks, so they fall in one run of loud blocks or in runs apart, and two spans
    /// meet in the meter with nothing but their quiet contexts between them.
    @Test(arguments: [(48000, 4), (96000, 2)])
    func loudSpansAtEverySpacingMatch(rate: Int, factor: Int) throws {
        let taps = branchTaps(factor: factor, phase: factor / 2)
        let level = 1.02 / taps.reduce(0) { $0 + abs($1) }
        var separate = 0
        for gap in stride(from: 2, through: 800, by: 23) {
            var x = [Float](repeating: 0, count: rate / 4)
            for i in x.indices { x[i] = 0.01 * Float(sin(Double(i) * 0.7)) }
            let pulse = 1000 + gap % 7
            x[pulse] = 1
            // The pattern's loud frames start `gap` frames after the pulse, its newest tap frame the last of them.
            let newest = pulse + gap + taps.count - 1
            for (k, h) in taps.enumerated() { x[newest - k] = Float(h >= 0 ? level : -level) }
            let b = SignalGenerator.buffer(x, sampleRate: rate)
            if TruePeakScan.loudSpans(b).spans.count > 1 { separate += 1 }
            try expectSame(b, "pulse, then the pattern \(gap) frames later at \(rate) Hz")
        }
        #expect(separate > 0, "some spacings should leave two spans")
    }

    @Test func silenceHasNoTruePeak() throws {
        #expect(
            try TruePeakScan.truePeak(SignalGenerator.buffer([Float](repeating: 0, count: 4800), sampleRate: 48000))
                == 0)
    }
}
