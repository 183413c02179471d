import AssetPipeline
import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// A steady pulse of events whose waveform does not repeat (a recorded timer's ticks) is judged by the interval across
/// the seam: a loop of whole beats carries on, one cut short of them skips a beat at every wrap (docs/loops.md,
/// metric 6).
@Suite struct SeamMetricsEventPulseTests {
    static let rate = 48_000
    static let beat = 12_000  // 0.25 s

    func rhythm(_ b: AudioBuffer) -> SeamRules.Metric? { SeamCheck.analyze(b).metric(.rhythm) }

    /// Sixteen ticks in a loop of sixteen beats pass; the same ticks in a loop 60 ms short of them (the interval across
    /// the seam 24 % short) fail, saying the pulse skips. The waveform never repeats, so only the events show the pulse.
    @Test func aLoopOfWholeBeatsCarriesOnAndOneCutShortSkips() {
        let whole = LoopSignals.ticks(interval: Self.beat, frames: 16 * Self.beat, offset: 600, seed: 41)
        let kept = rhythm(whole)
        #expect(kept?.status == .pass, "\(kept?.note ?? "")")
        #expect(
            kept?.note.hasPrefix("the events' 0.250 s pulse carries on across the seam") == true, "\(kept?.note ?? "")")
        let short = LoopSignals.ticks(interval: Self.beat, frames: 16 * Self.beat - 2_880, offset: 600, seed: 41)
        let skipped = rhythm(short)
        #expect(skipped?.status == .fail, "\(skipped?.note ?? "")")
        #expect(
            skipped?.note.hasPrefix("the events' 0.250 s pulse skips at the seam") == true, "\(skipped?.note ?? "")")
        #expect(SeamCheck.analyze(short).verdict == .fail)
    }

    /// A rest across the seam keeps the grid: the last beat left out, the interval across it is two beats.
    @Test func aRestAcrossTheSeamKeepsTheGrid() {
        let rested = LoopSignals.ticks(interval: Self.beat, frames: 16 * Self.beat, offset: 600, rests: [15], seed: 42)
        let r = rhythm(rested)
        #expect(r?.status == .pass, "\(r?.note ?? "")")
        #expect(r?.note.contains("(2 beats)") == true, "\(r?.note ?? "")")
    }

    /// A seam no listener can tell from the beat does not warn, however steady the loop's own onsets: under the
    /// just-noticeable displacement of one event (2.5 % of a beat of 0.25 s or more, 6 ms under it) the rhythm passes,
    /// past it it warns, past twice it it fails. The warning sat at 40 % of the failing distance without that floor:
    /// seamless grooves at 128 bpm whose seams read 5.9 ms off their 0.234 s pulse warned.
    @Test func aSkipUnderTheJustNoticeableDisplacementDoesNotWarn() {
        for seconds in [0.234, 0.5] {
            let period = seconds * Double(Self.rate)
            let pulse = SeamMetrics.EventPulse(
                onsets: (0..<16).map { Double($0) * period + 600 }, period: period, jitter: 0)
            let noticeable = max(0.025 * period, 0.006 * Double(Self.rate))
            for (times, status) in [(0.9, SeamRules.Status.pass), (1.2, .warn), (2.2, .fail)] {
                let n = Int((16 * period + times * noticeable).rounded())
                let measure = SeamMetrics.eventRhythm(pulse, frames: n, sampleRate: Self.rate)
                let judged = SeamRules.rule(.rhythm).judge(measure)
                #expect(judged.status == status, "\(seconds) s, \(times)× noticeable: \(judged.note)")
            }
        }
    }

    /// Ticks at random times have no pulse to keep: the metric does not judge them by events.
    @Test func ticksAtRandomTimesAreNoPulse() {
        var rng = SeededRandom(seed: 43)
        var b = LoopSignals.ticks(interval: 4 * Self.rate, frames: 4 * Self.rate, offset: 4 * Self.rate, seed: 44)
        for _ in 0..<16 {
            let at = Int(rng.nextUnit() * Double(b.frameCount - 4_800))
            for j in 0..<4_800 { b[0, at + j] += 0.3 * rng.nextSigned() * Float(exp(-Double(j) / 720)) }
        }
        #expect(SeamMetrics.eventPulse(b.samples, sampleRate: Self.rate) == nil)
        #expect(rhythm(b)?.note.contains("events'") != true, "\(rhythm(b)?.note ?? "")")
    }
}
