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
    /// what the places reach (the typical one, the median of them or the lower of two, plus their own spread:
    /// ``ownReference(_:atPattern:_:)``). A seamless wrap is one more of them; a fault at the seam (a click, a gap, a
    /// cut that the bar lines do not share) still stands out from them, and a fault of the loop's own at one place
    /// (its second half turned down, stepping at its middle bar line) excuses nothing: read against the most any
    /// place read, it did.
    ///
    /// A pattern is the rhythm metric's pulse when events keep it and the waveform repeats at its period (the median
    /// self-similarity one period apart is 0.5 or more), and the loop holds two or more whole periods to within
    /// ``patternFit`` (``pattern(_:period:)``); when it holds none, the longest whole fraction of the period that it
    /// holds and that events and waveform keep alike (``pattern(_:mono:period:)``); or, where events keep a steady
    /// pulse that the waveform does not repeat at, the loop's whole beats (``eventPattern(_:pulse:)``). The places
    /// read are those that divide the loop most coarsely (``coarsestPlaces(_:)``). A repeating texture without
    /// events (noise repeated to fill the loop) is no pattern: the places it repeats are where it was spliced, and a
    /// splice inside excuses none at the seam.
    struct Pattern {
        /// The junctions, in frames from the loop's start: the whole periods that divide the loop most coarsely
        /// (``coarsestPlaces(_:)``; all of them are the seam's place in the pattern).
        let junctions: [Int]
        /// The pattern's period in seconds, for the evidence.
        let seconds: Double
        /// Whether the waveform repeats at the period (a bar of the same sounds), or only events keep it (a pulse
        /// of events whose sounds differ: ``eventPattern(_:pulse:)``).
        var repeats = true
    }

    /// The pattern of a loop of `view`'s length holding `count` whole periods: its places at the loop's coarsest
    /// division (``coarsestPlaces(_:)``), placed on the loop's own length (n · k / count) so that rounding the
    /// period to a frame does not add up over the bars.
    static func pattern(_ view: LoopView, periods count: Int, repeats: Bool) -> Pattern {
        let n = Double(view.count)
        let junctions = coarsestPlaces(count).map { Int((n * Double($0) / Double(count)).rounded()) }
        return Pattern(junctions: junctions, seconds: view.seconds(view.count) / Double(count), repeats: repeats)
    }

    /// How far from a whole number of periods a loop may be and still hold its pattern: 1 ms, under the 2–3 ms
    /// gap-detection threshold (a beat that early or late at the wrap is not heard to skip).
    static let patternFit = 0.001

    /// The most places of the pattern a metric reads: 7, the bar lines inside an 8-bar loop. Every one is the seam's
    /// place in the pattern, so more would only cost time.
    static let patternJunctions = 7

    /// The fewest places the loop's coarsest division must give: 3, so that the typical place (their median) is no
    /// single one of them, and a fault of the loop's own at its middle (its second half turned down) excuses nothing.
    static let fewestPlaces = 3

    /// The whole periods k (1 ..< `count`) that divide the loop most coarsely: those at the fractions k / count with
    /// the smallest denominator in lowest terms (the half, then the thirds, the quarters, ...), as few denominators as
    /// give ``fewestPlaces`` places (all of them when the loop holds fewer than four periods); at most
    /// ``patternJunctions`` of them, spread evenly.
    ///
    /// The seam is where the whole loop starts again, the top of its own division: a loop of bars divides into
    /// halves, quarters and eighths at its bar lines and phrases, and its seam, on a bar line, is most like the
    /// places that divide it as coarsely. A 4-bar groove read at its half bar holds 8 periods; its places at every
    /// eighth of the loop were 3 bar lines and 4 half bars, and the typical one a half bar, so a chord released
    /// before each bar line (a dip of 20-27 dB in 5 ms windows) and struck on it stood out from them, where the same
    /// groove of 8 bars, whose eighths are bar lines, passed. Its quarters are its bar lines (or, started on another
    /// beat, that beat of each bar).
    static func coarsestPlaces(_ count: Int) -> [Int] {
        guard count > fewestPlaces else { return Array(1..<max(1, count)) }
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let divisors = (2...count).filter { count % $0 == 0 }
        var places: [Int] = []
        for d in divisors {
            places = (1..<count).filter { count / gcd($0, count) <= d }
            if places.count >= fewestPlaces { break }
        }
        guard places.count > patternJunctions else { return places }
        return (0..<patternJunctions).map {
            places[Int((Double($0) * Double(places.count - 1) / Double(patternJunctions - 1)).rounded())]
        }
    }

    /// The pattern of `view` at the pulse `period` (frames) the rhythm metric found kept by repeating events, or nil
    /// when the loop does not hold two or more whole periods of it to within ``patternFit``.
    static func pattern(_ view: LoopView, period: Int) -> Pattern? {
        let n = view.count
        guard period > 0 else { return nil }
        let count = Int((Double(n) / Double(period)).rounded())
        guard count >= 2, abs(n - count * period) <= view.frames(patternFit) else { return nil }
        return pattern(view, periods: count, repeats: true)
    }

    /// The pattern of a loop whose steady pulse of events (``EventPulse``) the waveform does not repeat at: the
    /// places at the loop's coarsest division in whole beats (``coarsestPlaces(_:)``), when the loop holds two or
    /// more beats and its seam keeps the beat (the interval across it within the skip a listener hears,
    /// ``eventSkipFraction`` of the period, ``eventSkipSeconds`` at least; past it the rhythm metric judges the skip).
    ///
    /// A groove over chords that change at each bar line repeats its drums every half bar, but its waveform does not
    /// (the chords differ), so the rhythm metric reads it as a pulse of events, and the loop had no places: started on
    /// a bar line, where the chord is released before the line (a dip of 20-28 dB in 5 ms windows) and the next one
    /// struck on it, it failed on the loop's other bar lines, three of 512 junctions. Its quarters in whole beats are
    /// its bar lines (or, started on another beat, that beat of each bar). A fault at the seam that the places do not
    /// share (a click, a gap in the sound, a fade) still stands out from them.
    static func eventPattern(_ view: LoopView, pulse: EventPulse) -> Pattern? {
        let count = Int((Double(view.count) / pulse.period).rounded())
        // The interval across the seam off the nearest whole number of beats, as the rhythm metric reads it.
        guard count >= 2, !pulse.onsets.isEmpty,
            pulse.seamInterval(frames: view.count).distance <= pulse.skip(sampleRate: view.sampleRate)
        else { return nil }
        return pattern(view, periods: count, repeats: false)
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

    /// How far above the places' typical reading they reach: 2 of their robust standard deviations (1.4826 times
    /// their median absolute deviation from the typical reading, the normal σ), about what one normal reading in 40
    /// exceeds.
    static let placeSpread = 2.0

    /// The reference a seam is judged against: the 99th percentile `own` of the loop's ordinary junctions, or, when
    /// the places of the loop's pattern reach more, what they reach: their typical reading (the median of
    /// `atPattern`, the lower middle of an even count) plus ``placeSpread`` of their robust standard deviation, with
    /// the pattern's period for the evidence (``Measure/pattern``).
    ///
    /// The places are a few moments of the seam's own kind, and they differ among themselves: a groove over held
    /// chords that change at each bar line dips 12-16 dB in 20 ms windows before its four bar lines (where each
    /// chord's release ends and the next starts, in a different phase of its cycle), and a seam on the deepest is
    /// past the typical one by 3-4 dB, where a dip fails from 3 dB: of 72 such grooves, started on each bar line, 13
    /// failed and 20 warned, now 9 and 5. The spread is the median absolute deviation, which one place far from the
    /// others leaves unchanged (of three places, the smaller of the two distances to the middle one), so a fault of
    /// the loop's own at one place (its second half turned down, stepping at its middle bar line) still widens
    /// nothing and excuses no seam.
    static func ownReference(_ own: Double, atPattern: [Double], _ pattern: Pattern?) -> (
        value: Double, pattern: Double?
    ) {
        guard let pattern, !atPattern.isEmpty else { return (own, nil) }
        let sorted = atPattern.sorted()
        let typical = sorted[(sorted.count - 1) / 2]
        let deviations = sorted.map { abs($0 - typical) }.sorted()
        let reach = typical + placeSpread * 1.4826 * deviations[(deviations.count - 1) / 2]
        guard reach > own else { return (own, nil) }
        return (reach, pattern.seconds)
    }
}
