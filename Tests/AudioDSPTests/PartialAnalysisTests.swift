import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

@Suite struct PartialAnalysisTests {
    @Test func partialFrequenciesWithinHalfAHertzAndTheirDecays() throws {
        let partials = [
            BellSignals.Partial(310, 0.4, t60: 6), BellSignals.Partial(592, 0.28, t60: 4),
            BellSignals.Partial(845, 0.2, t60: 3), BellSignals.Partial(1273, 0.12, t60: 2),
        ]
        let b = BellSignals.bell(partials, seconds: 6)
        let d = try #require(DecayAnalysis(b))
        let p = PartialAnalysis(b, peakTime: d.peakTime, spectrogram: Spectrogram(b))
        #expect(p.partials.count >= 4)
        for want in partials {
            let got = try #require(
                p.partials.min { abs($0.frequency - want.frequency) < abs($1.frequency - want.frequency) })
            // Partial frequencies within 0.5 Hz.
            #expect(abs(got.frequency - want.frequency) <= 0.5, "\(got.frequency) vs \(want.frequency)")
            // Per-partial decay from 43 ms spectrogram frames: within 10 % (the band also holds window leakage).
            #expect(abs(try #require(got.t60) - want.t60) <= 0.1 * want.t60, "T60 \(got.t60 ?? 0) vs \(want.t60)")
        }
        #expect(p.strongCount == 4)
        #expect(abs(p.ratios[1] - 592.0 / 310) < 0.01)
        #expect(p.inharmonicity > 0.3)
    }

    @Test func harmonicToneHasNoInharmonicityAndItsPitch() throws {
        let partials = [
            BellSignals.Partial(440, 0.4, t60: 3), BellSignals.Partial(880, 0.2, t60: 3),
            BellSignals.Partial(1320, 0.1, t60: 3),
        ]
        let b = BellSignals.bell(partials, seconds: 3)
        let p = PartialAnalysis(b, peakTime: 0.005, spectrogram: Spectrogram(b))
        #expect(p.inharmonicity < 0.01)
        #expect(abs(try #require(p.strikePitch) - 440) < 1)
    }

    /// Whether a sound rings in partials is read from its ring: a temple bell cut 35 ms after its peak leaves no ring
    /// (its tonality is unknown, nil), one cut 85 ms after it leaves one spectrogram frame of ring, read as tonal.
    @Test func tonalityNeedsAFrameOfRing() throws {
        let cut = BellSignals.bell(seconds: 0.05)
        #expect(PartialAnalysis(cut, peakTime: 0.005, spectrogram: Spectrogram(cut)).tonality == nil)
        let longer = BellSignals.bell(seconds: 0.1)
        let tonal = try #require(PartialAnalysis(longer, peakTime: 0.005, spectrogram: Spectrogram(longer)).tonality)
        #expect(tonal >= TonalityAnalysis.tonalShare, "\(tonal)")
    }

    @Test func beatingRateAndDepth() throws {
        let b = BellSignals.bell(seconds: 6, beat: 1.5)
        let s = Spectrogram(b)
        let beat = BeatingAnalysis(spectrogram: s, frequencies: [310.75, 592, 845])
        // Two equal partials 1.5 Hz apart: full-depth beats at 1.5 Hz; the crossing count over a few seconds
        // can miss one cycle at either end (±0.3 Hz).
        #expect(abs(beat.rate - 1.5) <= 0.3, "rate \(beat.rate)")
        #expect(beat.depth > 10)
        let none = BeatingAnalysis(spectrogram: Spectrogram(BellSignals.bell(seconds: 6)), frequencies: [310, 592])
        #expect(none.depth < 2)
    }

    /// A pure sine faded out over 3 s, linearly or by a quarter cosine: its level bows once away from a straight line
    /// in dB (8–12 dB before), which is the fade's curve, not a beat; a slow real beat of two cycles over the same span
    /// still is one.
    @Test func aFadesCurveIsNoBeat() {
        let rate = 48_000
        let n = 3 * rate
        for fade in ["linear", "cosine"] {
            let x = (0..<n).map { i -> Float in
                let t = Double(i) / Double(n)
                let gain = fade == "linear" ? 1 - t : cos(t * Double.pi / 2)
                return Float(0.5 * gain * sin(2 * Double.pi * 1318 * Double(i) / Double(rate)))
            }
            let s = Spectrogram(SignalGenerator.buffer(x, sampleRate: rate))
            let beat = BeatingAnalysis(spectrogram: s, frequencies: [1318])
            #expect(beat.depth == 0, "\(fade): \(beat)")
        }
        let slow = BellSignals.bell([BellSignals.Partial(310, 0.5, t60: 30)], seconds: 3, beat: 0.8)
        let beat = BeatingAnalysis(spectrogram: Spectrogram(slow), frequencies: [310.4])
        #expect(beat.depth > 6, "\(beat)")
    }
}
