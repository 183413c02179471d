import Foundation

extension SeamMetrics {
    /// A steady pulse of events whose waveform does not repeat: a recorded timer's ticks, footsteps, a metronome
    /// played live. Each tick differs from the last, so the waveform's self-similarity (the rhythm metric's) finds no
    /// period, but a listener keeps time by the ticks, and a loop that is not a whole number of them skips at every
    /// wrap.
    struct EventPulse: Equatable {
        /// The event onsets (frames from the loop start), in order.
        var onsets: [Double]
        /// The pulse period: the mean of the intervals inside the loop that keep the pulse (frames).
        var period: Double
        /// The largest distance from the period of the intervals that keep it (frames): the material's own timing.
        var jitter: Double

        /// The interval across the seam of a loop of `n` frames (from the last onset to the loop's end and on to the
        /// first onset), the whole number of periods nearest it (at least one: a pattern may rest across the seam),
        /// and its distance from them (frames).
        func seamInterval(frames n: Int) -> (across: Double, beats: Double, distance: Double) {
            let across = Double(n) - onsets[onsets.count - 1] + onsets[0]
            let beats = max(1, (across / period).rounded())
            return (across, beats, abs(across - beats * period))
        }

        /// The distance from whole periods a listener hears as a skip (frames): ``eventSkipFraction`` of the period,
        /// ``eventSkipSeconds`` at least.
        func skip(sampleRate: Int) -> Double {
            max(eventSkipFraction * period, eventSkipSeconds * Double(sampleRate))
        }
    }

    /// The fewest intervals inside the loop that a steady pulse of events needs: 4.
    static let minimumEventIntervals = 4
    /// How far from the period an interval may lie and still keep the pulse (a fraction of it): 10 %.
    static let eventPulseTolerance = 0.1
    /// The share of the intervals inside the loop that must keep the pulse: three quarters.
    static let eventPulseShare = 0.75
    /// A seam interval this far from the period (a fraction of it) is a skip anyone keeping time hears: twice the
    /// just-noticeable displacement of one event in an isochronous sequence (about 2.5 % of the interval for intervals
    /// of 0.25 s and more, Friberg and Sundberg 1995).
    package static let eventSkipFraction = 0.05
    /// The same for short intervals (seconds): twice the 6 ms heard under 0.25 s.
    static let eventSkipSeconds = 0.012

    /// The steady pulse of events in the mono loop `m`, read as it plays (cyclically), or nil.
    ///
    /// Events are read on the waveform's first difference (x[i] − x[i − 1], +6 dB per octave): their attacks are
    /// broadband, and the difference lifts them over a bed's low rumble (a clock's ticks stand 25 dB over it there,
    /// 10 dB in the plain level). Onsets as for ``pulseEvents(_:period:sampleRate:)`` (10 ms blocks, 10 dB over the
    /// floor, a 6 dB rise within 20 ms, 50 ms apart), each timed to the first 1 ms from two blocks before it that
    /// reaches halfway (in dB) from the level two blocks before to its block's. The pulse is steady when the loop holds at least ``minimumEventIntervals``
    /// intervals between onsets (the one across the seam left out), their median is 50 ms or more, and three
    /// quarters of them lie within 10 % of it; the period is their mean.
    static func eventPulse(_ m: [Float], sampleRate: Int) -> EventPulse? {
        let n = m.count
        guard n >= 2 else { return nil }
        let block = max(1, sampleRate / 100)
        let level = differenceBlockLevels(m, block: block)
        let blocks = eventOnsets(level, cyclic: true)
        guard blocks.count > minimumEventIntervals else { return nil }
        let fine = max(1, sampleRate / 1000)
        let onsets = m.withUnsafeBufferPointer { x in
            blocks.map { k -> Double in
                // Halfway (in dB) from the level before the rise to the onset block's: a tick rising over a loud bed
                // is timed by its own rise, not by the bed, which reaches 6 dB under the block long before it.
                let before = level[(k - 2 + level.count) % level.count]
                let target = pow(10, ((before + level[k]) / 2) / 10) * Double(fine)
                var start = max(0, (k - 2) * block)
                while start + fine <= n && start < k * block {
                    var e = 0.0
                    for i in start..<(start + fine) {
                        let d = Self.difference(x, at: i)
                        e += Double(d) * Double(d)
                    }
                    if e >= target { break }
                    start += fine
                }
                return Double(min(start, k * block))
            }
        }
        let intervals = zip(onsets.dropFirst(), onsets).map { $0 - $1 }
        let median = intervals.sorted()[intervals.count / 2]
        guard median >= shortestPulseSeconds * Double(sampleRate) else { return nil }
        let keeping = intervals.filter { abs($0 - median) <= eventPulseTolerance * median }
        guard Double(keeping.count) >= eventPulseShare * Double(intervals.count) else { return nil }
        // The period is the mean of the intervals that keep the pulse: onsets are timed to the millisecond, and a
        // loop of many beats needs the period closer than that (16 beats at a period 2.5 ms off end 40 ms off).
        let period = keeping.reduce(0, +) / Double(keeping.count)
        return EventPulse(onsets: onsets, period: period, jitter: keeping.map { abs($0 - period) }.max() ?? 0)
    }

    /// The first difference of the loop `m` at `i`, read as it plays: x[i] − x[i − 1], and x[0] − x[n − 1] across the
    /// seam.
    @inline(__always)
    static func difference(_ x: UnsafeBufferPointer<Float>, at i: Int) -> Float {
        i == 0 ? x[0] - x[x.count - 1] : x[i] - x[i - 1]
    }

    /// ``blockLevels(_:block:)`` of the first difference of the loop `m` (``difference(_:at:)``), each difference taken
    /// as it is summed: the same values, with no copy of the loop held (a whole file's, an hour long, is 700 MB).
    static func differenceBlockLevels(_ m: [Float], block: Int) -> [Double] {
        m.withUnsafeBufferPointer { x in blockLevels(frames: x.count, block: block) { difference(x, at: $0) } }
    }

    /// The rhythm metric for a steady pulse of events: whether the interval across the seam keeps the period.
    ///
    /// The seam interval runs from the last onset to the loop's end and on to the first onset; its distance is from
    /// the nearest whole number of periods (a pattern may rest across the seam). It fails past the larger of the
    /// loop's own intervals' largest distance extrapolated to one in a thousand on an exponential tail (×ln 1000 /
    /// ln N for N intervals, at least ×1.5) and ``eventSkipFraction`` of the period (``eventSkipSeconds`` at least),
    /// and warns past 40 % of that, never under half the skip (the just-noticeable displacement itself: a seam
    /// whose timing no listener can tell from the beat's does not warn). The value is on the rhythm metric's scale,
    /// piecewise linear in the distance: 1 at none, 0.8 at the warning distance, 0.5 at the failing one, 0 at twice
    /// that (where the floor does not bind, 1 − distance / (2 × the failing distance), as before).
    ///
    /// The warning sat at 40 % of the failing distance even under the just-noticeable displacement: seamless 4-bar
    /// grooves over held chords at 128 bpm, whose onsets read up to 4.7 ms off their 0.234 s pulse (the chords'
    /// releases move the halfway point of an attack), warned on their seams' 5.9 ms.
    static func eventRhythm(_ pulse: EventPulse, frames n: Int, sampleRate: Int) -> Measure {
        let rate = Double(sampleRate)
        // A pattern may leave beats out (a rest across the seam): the wrap keeps the pulse when it lies on the grid.
        let (across, beats, distance) = pulse.seamInterval(frames: n)
        // The largest of N intervals stands at about the 1 − 1/N quantile of their timing; one in a thousand lies
        // ln 1000 / ln N times as far on an exponential tail (at least the 1.5 the other metrics use).
        let intervals = Double(max(2, pulse.onsets.count - 1))
        let skip = pulse.skip(sampleRate: sampleRate)
        let fail = max(skip, max(1.5, log(1000) / log(intervals)) * pulse.jitter)
        let warn = max(skip / 2, 0.4 * fail)
        let value =
            distance <= warn
            ? 1 - 0.2 * distance / warn
            : distance <= fail ? 0.8 - 0.3 * (distance - warn) / (fail - warn) : 0.5 - 0.5 * (distance - fail) / fail
        let off = (across - beats * pulse.period) / pulse.period * 100
        return measured(
            .rhythm, value,
            .events(
                period: pulse.period / rate, across: across / rate, beats: beats, offBeat: off,
                jitter: pulse.jitter / pulse.period * 100))
    }
}
