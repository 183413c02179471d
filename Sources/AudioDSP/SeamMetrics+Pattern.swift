import Foundation

extension SeamMetrics {
    /// The loop's own pattern: a bar of events that repeats a whole number of times in the loop, and the places where
    /// it repeats.
    ///
    /// The seam of a loop made of bars falls on a bar line, and a bar line is no ordinary moment: a drum loop's
    /// last beat decays before the downbeat (a dip), and the downbeat starts abruptly (a step, a change of timbre).
    /// Inside the loop the other bar lines do the same, but they are a few of the 512 ordinary junctions each metric
    /// reads, under the 1 % its 99th percentile stands for: a seamless 8 s beat loop failed on its own downbeat, and
    /// rotated to start on another bar line it failed again. So where the material has a pattern, each of the
    /// continuity, spectral, level, click and dip metrics also reads the junctions a whole number of periods from the
    /// seam, the seam's own place in the pattern, and judges the seam against the larger of the 99th percentile and
    /// what the typical place reads (the median of them, the lower of two). A seamless wrap is one more of them; a
    /// fault at the seam (a click, a gap, a cut that the bar lines do not share) still stands out from them, and a
    /// fault of the loop's own at one place (its second half turned down, stepping at its middle bar line) excuses
    /// nothing: read against the most any place read, it did.
    ///
    /// A pattern is the rhythm metric's pulse when events keep it and the waveform repeats at its period (the median
    /// self-similarity one period apart is 0.5 or more), and the loop holds two or more whole periods to within
    /// ``patternFit`` (``pattern(_:period:)``); when it holds none, the longest whole fraction of the period that it
    /// holds and that events and waveform keep alike (``pattern(_:mono:period:)``). A repeating texture without
    /// events (noise repeated to fill the loop) is no pattern: the places it repeats are where it was spliced, and a
    /// splice inside excuses none at the seam.
    struct Pattern {
        /// The junctions, in frames from the loop's start: at most ``patternJunctions`` of the whole periods, spread
        /// evenly (all of them are the seam's place in the pattern).
        let junctions: [Int]
        /// The pattern's period in seconds, for the evidence.
        let seconds: Double
    }

    /// How far from a whole number of periods a loop may be and still hold its pattern: 1 ms, under the 2–3 ms
    /// gap-detection threshold (a beat that early or late at the wrap is not heard to skip).
    static let patternFit = 0.001

    /// The most places of the pattern a metric reads: 7, the bar lines inside an 8-bar loop. Every one is the seam's
    /// place in the pattern, so more would only cost time.
    static let patternJunctions = 7

    /// The pattern of `view` at the pulse `period` (frames) the rhythm metric found kept by repeating events, or nil
    /// when the loop does not hold two or more whole periods of it to within ``patternFit``.
    static func pattern(_ view: LoopView, period: Int) -> Pattern? {
        let n = view.count
        guard period > 0 else { return nil }
        let count = Int((Double(n) / Double(period)).rounded())
        guard count >= 2, abs(n - count * period) <= view.frames(patternFit) else { return nil }
        // Whole periods k = 1 ..< count, placed on the loop's own length (n · k / count) so that rounding the period
        // to a frame does not add up over the bars; at most ``patternJunctions`` of them, spread evenly.
        let ks =
            count - 1 <= patternJunctions
            ? Array(1..<count)
            : (1...patternJunctions).map { Int((Double($0) * Double(count) / Double(patternJunctions + 1)).rounded()) }
        let junctions = ks.map { Int((Double(n) * Double($0) / Double(count)).rounded()) }
        return Pattern(junctions: junctions, seconds: view.seconds(n) / Double(count))
    }

    /// The pattern of `view` (mono mix `m`) at the pulse `period` (frames) whose events the rhythm metric found to keep
    /// it (or at the loop's own period near it, ``loopsOwnPeriod(_:mono:period:similarity:)``; `similarity` is the
    /// median self-similarity at `period`, when the caller has it), or, when the loop does not hold whole periods of
    /// it, at the longest whole fraction of it (1/2 to 1/16, no shorter than ``shortestBeatSeconds``) that the loop
    /// holds whole, the events keep (``keptFractions(_:period:sampleRate:)``) and the waveform repeats at (the median
    /// self-similarity one fraction apart is 0.5 or more).
    ///
    /// The period is the lag where the waveform repeats best, which a bed may set: a 90 bpm groove over chords that
    /// happen to repeat every six beats reads 4 s, and its 4-bar loop (10.67 s) holds 2.67 of them, so it had no
    /// pattern, and started on an off-beat its hi-hat's onset failed on `continuity` (2.4× the p99) though every
    /// other beat's hi-hat starts so. Its beat pair (1.333 s) the loop holds 8 times, the events keep, and the waveform
    /// repeats at: the places of the pattern are there.
    static func pattern(_ view: LoopView, mono m: [Float], period: Int, similarity: Double? = nil) -> Pattern? {
        if let whole = pattern(view, period: period) { return whole }
        if let own = loopsOwnPeriod(view, mono: m, period: period, similarity: similarity),
            let whole = pattern(view, period: own)
        {
            return whole
        }
        for fraction in keptFractions(m, period: period, sampleRate: view.sampleRate) {
            let lag = Int(fraction.rounded())
            guard let candidate = pattern(view, period: lag),
                similarityAcross(m, lag: lag, window: min(lag, view.count / 4)).inside >= 0.5
            else { continue }
            return candidate
        }
        return nil
    }

    /// The loop's own whole period near the pulse search's `period`: the loop's length over the whole number of
    /// periods nearest it, when that lies within ``patternFit`` of `period` and the waveform repeats at it at least as
    /// well as at `period` (`similarity`, the median self-similarity there, when the caller has it). The search reads
    /// the period to a fraction of a millisecond (a 120 bpm groove's 1.000 s beat pair as 44 087-44 114 frames at
    /// 44.1 kHz), which eight periods multiply past the 1 ms a loop may be off its whole periods: 15 of 48 seamless
    /// drum loops had no pattern by that chance.
    static func loopsOwnPeriod(_ view: LoopView, mono m: [Float], period: Int, similarity: Double? = nil) -> Int? {
        let n = view.count
        guard period > 0 else { return nil }
        let count = Int((Double(n) / Double(period)).rounded())
        guard count >= 2 else { return nil }
        let own = Int((Double(n) / Double(count)).rounded())
        guard own != period, abs(own - period) <= view.frames(patternFit) else { return nil }
        let atOwn = similarityAcross(m, lag: own, window: min(own, n / 4)).inside
        let atSearch = similarity ?? similarityAcross(m, lag: period, window: min(period, n / 4)).inside
        return atOwn >= atSearch ? own : nil
    }

    /// The reference a seam is judged against: the 99th percentile `own` of the loop's ordinary junctions, or, when
    /// the typical place of the loop's pattern reads more (the median of `atPattern`, the lower middle of an even
    /// count), that, with the pattern's period for the evidence (``Measure/pattern``).
    static func ownReference(_ own: Double, atPattern: [Double], _ pattern: Pattern?) -> (
        value: Double, pattern: Double?
    ) {
        guard let pattern, !atPattern.isEmpty else { return (own, nil) }
        let sorted = atPattern.sorted()
        let typical = sorted[(sorted.count - 1) / 2]
        guard typical > own else { return (own, nil) }
        return (typical, pattern.seconds)
    }
}
