import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

@Suite struct ClippedTonesTests {
    typealias P = BellSignals.Partial

    /// The level (dB) of `x` over the 50 ms from `seconds`, its mean (an offset) left out.
    static func level(_ x: [Float], at seconds: Double, sampleRate: Int = 48_000) -> Double {
        let a = Int(seconds * Double(sampleRate))
        let block = x[a..<(a + sampleRate / 20)].map(Double.init)
        let mean = block.reduce(0, +) / Double(block.count)
        return 10 * log10(block.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(block.count))
    }

    /// How far the level falls from 0.1 s to 1.5 s.
    static func fall(_ x: [Float]) -> Double { level(x, at: 0.1) - level(x, at: 1.5) }

    /// A decaying tone of one partial or of several, with and without an offset, clipped 20 dB over full scale (to
    /// the end of the span read: its level stays over the rail), has its decay read under the clipping within 1 dB
    /// for every 10 dB of the true one: a decay 10 % off moves a bell's −40 dB time by 10 %, and a listener hears
    /// nothing of the class in that. For the three partials the arcs alone (``ClippedTops/fill(_:)``) read it
    /// 20 % fast (the test's failure before the fit); for one partial they are exact already.
    @Test(arguments: [
        ("one partial", [P(440, 0.5, t60: 8)], Float(0)),
        ("one partial, offset", [P(440, 0.5, t60: 8)], Float(0.03)),
        ("three partials", [P(440, 0.5, t60: 6), P(1187, 0.3, t60: 4), P(2213, 0.2, t60: 3)], Float(0)),
        ("three partials, offset", [P(440, 0.5, t60: 6), P(1187, 0.3, t60: 4), P(2213, 0.2, t60: 3)], Float(0.03)),
        (
            "five partials (temple bell)",
            BellSignals.templePartials.map { P($0.frequency, $0.amplitude, t60: 8) }, Float(0)
        ),
    ])
    func theDecayUnderTheClippingIsReadWithinOneDecibelInTen(name: String, partials: [P], offset: Float) {
        let tone = BellSignals.dcOffset(BellSignals.bell(partials, seconds: 2), offset)
        let over = BellSignals.scaled(tone, decibels: 20)
        let clipped = BellSignals.clipped(tone, gain: 20)
        #expect(clipped.samples[Int(1.5 * 48_000)..<Int(1.55 * 48_000)].contains { abs($0) >= 1 }, "not clipped")
        let truth = Self.fall(over.samples)
        let read = Self.fall(ClippedTops.filled(clipped).samples)
        #expect(abs(read - truth) <= truth / 10, "\(name): fell \(read) dB, not \(truth)")
        if partials.count == 3 {
            var arcs = clipped
            arcs.withMutableChannel(0) { ClippedTops.fill($0) }
            let arcsRead = Self.fall(arcs.samples)
            #expect(abs(arcsRead - truth) > truth / 10, "\(name): the arcs alone read \(arcsRead) dB")
        }
    }

    /// A high partial's tops are one or two samples wide, so a clipper holds many of them on the rail in runs too
    /// short to be clipping runs (fewer than ``SignalDefectScan/minimumRun``): a sample on the rail of a clipped file
    /// is clipped whatever its run, and the fit draws it too where a window is kept. A bright ring (7.4, 3.1 and
    /// 1.05 kHz at 44.1 kHz: 6 samples a cycle at the top) clipped 12 dB over, most of its rail samples outside the
    /// runs, reads its level under the clipping within the half decibel by which tops are told apart
    /// (``ClippedTops/peakTolerance``); drawing the runs alone read it 0.9 dB short from 20 to 100 ms.
    @Test func railSamplesOutsideTheRunsAreDrawnToo() {
        let rate = 44_100
        let tone = BellSignals.bell(
            [P(7400, 0.5, t60: 2), P(3100, 0.3, t60: 2), P(1046, 0.2, t60: 3)], seconds: 1, sampleRate: rate)
        let over = BellSignals.scaled(tone, decibels: 12)
        let clipped = BellSignals.clipped(tone, gain: 12)
        let onRail = clipped.samples.map { abs($0) >= SignalDefectScan.fullScale }
        let inRuns = ClippedTops.runs(clipped.samples).reduce(0) { $0 + $1.count }
        let railCount = onRail.filter { $0 }.count
        #expect(railCount > 2 * inRuns, "rail samples mostly outside runs: \(inRuns) of \(railCount) in runs")
        let filled = ClippedTops.filled(clipped).samples
        for t in [0.02, 0.06, 0.1] {
            let truth = Self.level(over.samples, at: t, sampleRate: rate)
            let read = Self.level(filled, at: t, sampleRate: rate)
            #expect(abs(read - truth) <= ClippedTops.peakTolerance, "at \(t) s: \(read) dB, not \(truth)")
        }
    }

    /// The partials are read from the spectrum at their frequencies, strongest first, within a few hertz (a window
    /// of 20 ms drifts a tenth of a cycle at 5 Hz off).
    @Test func thePartialsAreTheSpectrumsStrongestPeaks() {
        let tone = BellSignals.bell([P(440, 0.5, t60: 6), P(1187, 0.3, t60: 4), P(2213, 0.2, t60: 3)], seconds: 2)
        let found = ClippedTones.partials(tone.samples, sampleRate: 48_000)
        #expect(found.count >= 3)
        for (f, expected) in zip(found.prefix(3), [440.0, 1187, 2213]) {
            #expect(abs(f - expected) < 5, "\(found.prefix(3))")
        }
        // Two peaks closer than a window can tell apart: the stronger carries both.
        let pair = BellSignals.bell([P(600, 0.5, t60: 6), P(620, 0.3, t60: 6)], seconds: 2)
        let read = ClippedTones.partials(pair.samples, sampleRate: 48_000)
        #expect(read.allSatisfy { abs($0 - 620) > 25 || abs($0 - 600) < 5 }, "\(read)")
    }

    /// A window whose samples are nearly all on the rail has too few intact samples to fit: its run keeps the arc
    /// (or the rail), never a value the fit made up.
    @Test func aWindowWithoutEnoughIntactSamplesKeepsWhatItHad() {
        var x = [Float](repeating: 1, count: 2000)
        x[1000] = 0.5
        var inRun = [Bool](repeating: false, count: x.count)
        for r in ClippedTops.runs(x) { for i in r { inRun[i] = true } }
        var filled = x
        var arcs = [Bool](repeating: false, count: x.count)
        filled.withUnsafeMutableBufferPointer {
            ClippedTones.fill(
                $0, clipped: x, inRun: inRun, onRail: x.map { abs($0) >= SignalDefectScan.fullScale },
                frequencies: [440], sampleRate: 48_000, arcs: &arcs)
        }
        #expect(filled == x)
        // Every run sample is left to what it had (the arcs), and marked so; no sample outside a run is.
        #expect(arcs == inRun)
    }

    /// The normal equations are solved exactly for a small known system.
    @Test func solveSolvesASymmetricSystem() {
        // [[4, 2], [2, 3]] · [1, 2] = [8, 8]; only the upper triangle is read.
        let y = ClippedTones.solve([4, 2, 0, 3], [8, 8], size: 2)
        #expect(y.map { abs($0[0] - 1) < 1e-6 && abs($0[1] - 2) < 1e-6 } == true, "\(String(describing: y))")
        #expect(ClippedTones.solve([0, 0, 0, 0], [1, 1], size: 2) == nil)
    }
}
