import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// A fade of half a second or more is heard as the sound dying faster, not as a stop; a shorter one over a ringing
/// sound hides a cut at the level the sound rang at (docs/bells.md, `cutLevel` and "A fade that steepens").
@Suite struct DecayLongFadeTests {
    static let rate = 48_000

    /// A slowly ringing bell (five partials, T60 15 s: 4.6 dB/s, a gong's rate) cut at 3 s, 12 dB under its peak,
    /// under a final fade of `seconds`: linear, or a quarter sine (an editor's defaults).
    static func faded(_ seconds: Double, sine: Bool) -> AudioBuffer {
        let partials = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 15) }
        var b = BellSignals.bell(partials, seconds: 3, sampleRate: rate)
        let n = Int(seconds * Double(rate))
        for k in 0..<n {
            let g = Double(k) / Double(n)
            b[0, b.frameCount - 1 - k] *= Float(sine ? sin(Double.pi / 2 * g) : g)
        }
        return b
    }

    /// Faded over 0.5–2 s, linear or quarter sine, the bell dies as heard: the fade is its decay (−40 dB reached in
    /// the file), and the level it stops at is no audible cut. Read as a short fade over the ring (its last 150 ms
    /// carried on at the rate of the second before), each read `truncated-tail` 24–37 dB down.
    @Test func aLongFadeIsTheDecayAsHeard() throws {
        for (seconds, sine) in [(0.5, false), (1, false), (2, false), (1, true), (2, true)] {
            let d = try #require(DecayAnalysis(Self.faded(seconds, sine: sine)))
            let fade = "\(sine ? "quarter-sine" : "linear") fade of \(seconds) s"
            #expect(d.cutLevel < -40, "\(fade): cut read \(d.cutLevel) dB down, rate \(d.endSlope) dB/s")
            #expect(d.d40 != nil, "\(fade): the fade is the decay, yet no d40")
            #expect(d.editFadeStart == nil, "\(fade): read as an edit over the ring at \(d.editFadeStart ?? 0) s")
        }
    }

    /// The other side: the same bell faded over 50 or 150 ms (the corpus's `cut30fade` construction and the longest
    /// fade read as one) is cut while it rings, at the level it rang at there (12 dB down, within 1.5 dB).
    @Test func aShortFadeStillHidesTheCut() throws {
        for seconds in [0.05, 0.15] {
            let d = try #require(DecayAnalysis(Self.faded(seconds, sine: false)))
            #expect(d.ringingAtEnd && d.endsWithFade, "\(seconds) s fade: not read as a cut")
            #expect(abs(d.cutLevel + 12) < 1.5, "\(seconds) s fade: cut read \(d.cutLevel) dB down")
        }
    }

    /// A struck sound's own decay, however fast, does not steepen: a bell falling 40 dB in 1 s (faster than a bell
    /// rings) and one in 6 s, cut hard at 3 s: neither end reads as a long fade.
    @Test func aDecayThatSlowsIsNoFade() throws {
        for t60 in [1.5, 9.0] {
            let partials = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: t60) }
            let b = BellSignals.bell(partials, seconds: 3, sampleRate: Self.rate)
            let env = AmplitudeEnvelope(b, windowSeconds: 0.01, hopSeconds: 0.005)
            let db = env.decibels()
            let peak = try #require(env.peak).index
            #expect(!DecayAnalysis.longFade(db, after: peak, end: db.count, hop: env.hopSeconds), "T60 \(t60) s")
        }
    }
}
