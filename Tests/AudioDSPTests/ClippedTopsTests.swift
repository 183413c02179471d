import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

@Suite struct ClippedTopsTests {
    /// A tone of `amplitude` clipped at full scale, as sox writes a gain that passes it.
    static func clippedTone(hertz: Double, amplitude: Double, sampleRate: Int = 48_000) -> (AudioBuffer, AudioBuffer) {
        let tone = (0..<sampleRate / 2).map { i in
            Float(amplitude * sin(2 * Double.pi * hertz * Double(i) / Double(sampleRate)))
        }
        let rate = SampleRate(sampleRate)!
        let clipped = tone.map { min(max($0, -1), 1) }
        return (
            AudioBuffer(channelData: [tone], sampleRate: rate), AudioBuffer(channelData: [clipped], sampleRate: rate)
        )
    }

    static func rmsDecibels(_ b: AudioBuffer) -> Double {
        let p = b.samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(b.samples.count)
        return 10 * log10(p)
    }

    /// A pure tone clipped 3.5 to 30 dB over full scale, with a few intact samples between its tops, is drawn back
    /// to its own sine: its level within 0.3 dB (the clipped copy reads 1.9 to 25 dB low), its peak within 0.5 dB.
    /// 0.3 dB is well under the 1 dB change in level a listener notices; the arc's width is known to a sample, and at
    /// 20 dB over a 440 Hz tone at 48 kHz stays over the rail for 51 samples.
    @Test(arguments: [(100.0, 31.6), (440.0, 1.5), (440.0, 3.16), (440.0, 10.0), (1_250.0, 3.16), (3_000.0, 1.5)])
    func aClippedToneIsDrawnBackToItsSine(hertz: Double, amplitude: Double) {
        let (tone, clipped) = Self.clippedTone(hertz: hertz, amplitude: amplitude)
        let filled = ClippedTops.filled(clipped)
        let error = Self.rmsDecibels(filled) - Self.rmsDecibels(tone)
        #expect(
            abs(error) < 0.3, "level \(error) dB off (clipped: \(Self.rmsDecibels(clipped) - Self.rmsDecibels(tone)))")
        let peak = Double(filled.samples.map(abs).max()!)
        #expect(abs(20 * log10(peak / amplitude)) < 0.5, "peak \(peak), not \(amplitude)")
    }

    /// A tone whose tops are a sample or two apart shows no slope steeper than one rail-to-rail step: its level is
    /// read short of the sound's (0.9 to 12 dB), never beyond it (0.3 dB, as above), and nearer than the plateau's.
    @Test(arguments: [(1_250.0, 10.0), (3_000.0, 3.16), (3_000.0, 10.0), (5_000.0, 3.16)])
    func aToneTooHighForItsTopsIsReadLowNeverHigh(hertz: Double, amplitude: Double) {
        let (tone, clipped) = Self.clippedTone(hertz: hertz, amplitude: amplitude)
        let filled = Self.rmsDecibels(ClippedTops.filled(clipped)) - Self.rmsDecibels(tone)
        #expect(filled < 0.3 && filled > Self.rmsDecibels(clipped) - Self.rmsDecibels(tone), "level \(filled) dB off")
    }

    /// Samples outside clipping runs are the file's own: a file with no clipping is unchanged bit for bit, and in a
    /// clipped one every sample under the rail is kept and every run sample stays on its own side of the rail.
    @Test func onlyTheClippingRunsChange() {
        let bell = BellSignals.bell(seconds: 2)
        #expect(ClippedTops.filled(bell).samples == bell.samples)
        let clipped = BellSignals.clipped(bell, gain: 20)
        let filled = ClippedTops.filled(clipped)
        var changed = 0
        for (a, b) in zip(clipped.samples, filled.samples) {
            if abs(a) < SignalDefectScan.fullScale {
                #expect(a == b)
            } else {
                #expect(abs(b) >= abs(a) && (a > 0) == (b > 0))
                if a != b { changed += 1 }
            }
        }
        #expect(changed > 0)
    }

    /// A rail with no intact slope beside it (a file that starts and ends on it, an offset pinned to it) keeps the
    /// rail: nothing says how far over it the sound went. Runs shorter than ``SignalDefectScan/minimumRun`` are a
    /// smooth peak, not clipping, and stay.
    @Test func aRailWithoutSlopeOrTooShortStays() {
        let rate = SampleRate(48_000)!
        let held = AudioBuffer(channelData: [[Float](repeating: 1, count: 1000)], sampleRate: rate)
        #expect(ClippedTops.filled(held).samples == held.samples)
        let short = AudioBuffer(channelData: [[0, 0.5, 1, 1, 0.5, 0, -0.5, -1, -1, -0.5, 0]], sampleRate: rate)
        #expect(ClippedTops.filled(short).samples == short.samples)
    }

    /// The arc's phase solves tan u / (π − 2u) = k on both sides of the crossing at k = 1 (u ≈ 0.65).
    @Test func railPhaseSolvesItsEquation() {
        for k in [0.01, 0.3, 1, 3, 100] {
            let u = ClippedTops.railPhase(k)
            #expect(u > 0 && u < Double.pi / 2)
            #expect(abs(tan(u) / (Double.pi - 2 * u) - k) < 1e-9 * max(1, k))
        }
    }

    /// The frames left to the arcs are marked, and only those: a bell of three partials 20 dB over is fitted nearly
    /// everywhere (under 5 % of its frames left to the arcs), every frame marked lies in a clipping run, and the
    /// buffer is the one ``ClippedTops/filled(_:rails:)`` draws.
    @Test func theFramesLeftToTheArcsAreMarked() {
        let bell = BellSignals.bell(
            [.init(440, 0.5, t60: 6), .init(1187, 0.3, t60: 4), .init(2213, 0.2, t60: 3)], seconds: 2)
        let clipped = BellSignals.clipped(bell, gain: 20)
        let (buffer, arcs) = ClippedTops.filledMarkingArcs(clipped)
        #expect(buffer.samples == ClippedTops.filled(clipped).samples)
        var inRun = [Bool](repeating: false, count: clipped.frameCount)
        for r in ClippedTops.runs(clipped.channel(0)) { for i in r { inRun[i] = true } }
        #expect(arcs.count == clipped.frameCount && zip(arcs, inRun).allSatisfy { !$0 || $1 })
        let share = Double(arcs.count(where: { $0 })) / Double(inRun.count(where: { $0 }))
        #expect(share < 0.05, "\(share) of the run frames left to the arcs")
    }
}
