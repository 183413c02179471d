import Foundation

extension SeamMetrics {
    /// The shortest pulse period the rhythm metric looks for: 50 ms (20 Hz).
    static let shortestPulseSeconds = 0.05

    /// Metric 6: rhythm and phase continuity, for material with a pulse.
    ///
    /// The pulse period P is the lag (50 ms ... half the loop) of the strongest normalised autocorrelation of the
    /// mono loop, searched on a 4 kHz boxcar decimation and refined at full rate to the exact frame
    /// (``pulsePeriod(_:sampleRate:)``). Across the
    /// seam, the first W = min(P, loop/4) frames of the loop are correlated with the W frames one period earlier in
    /// the looped signal (which straddle the wrap). The value is that correlation divided by R, the median of the
    /// same correlation at 24 points inside the loop: the fraction of the file's own self-similarity that survives
    /// the seam; in a loop of whole periods (a ``Pattern``), divided by the least of R and what the pattern's places
    /// keep (``patternSimilarity(_:_:_:lag:window:)``). Material whose R is below 0.5 has no steady pulse and is not
    /// measured.
    ///
    /// A period is a pulse only when events keep it (``pulseEvents(_:period:sampleRate:)``) or when the material is
    /// a repeating texture without a pitch (its autocorrelation peaks below ``pitchSimilarity`` at every lag from 2
    /// to 50 ms, or not at all). Pitched material without a pulse (a sustained instrument, a drone: its period above
    /// 50 ms is only a multiple of its pitch period) is judged on its phase instead: the same measure at the pitch
    /// period p (the strongest peak from 2 to 50 ms: it may be a few periods, and the note names the one,
    /// ``fundamentalPeriod(_:of:window:inside:sampleRate:)``), with W = min(max(p, 20 ms), loop/4), when the pitch is
    /// steady (the lower quartile of the 24 inside points at 0.5 or more: pitched everywhere, not only in bursts). A
    /// waveform that carries on smoothly keeps its self-similarity across the seam; a drone's cycle cut short under
    /// noise (which hides the step from metric 1) loses it. Neither a pulse nor a steady pitch: `n/a`.
    ///
    /// - Returns: the measure; the pulse period found (frames) and whether the waveform repeats at it; whether events
    ///   keep it; and the loop's pattern at it (``pattern(_:period:)``), which the other metrics read, when events
    ///   keep a period the waveform repeats at and the loop holds whole periods of it, or its whole beats when events
    ///   keep a steady pulse that the waveform does not repeat at (``eventPattern(_:pulse:)``).
    static func rhythm(_ view: LoopView) -> (
        metric: Measure, period: Int?, repeats: Bool, events: Bool, pattern: Pattern?
    ) {
        let n = view.count
        let m = view.mono
        var (search, pitch, spread) = pulseSearch(m, sampleRate: view.sampleRate)
        if case .period(let p) = search, let beat = beatUnderPitch(m, period: p, sampleRate: view.sampleRate) {
            search = .period(beat)
        }
        var period: Int?
        var repeats = false
        let why: NoPulse
        switch search {
        case .tooShort:
            return (skipped(.rhythm, .tooShortForPulse(seconds: view.seconds(n))), nil, false, false, nil)
        case .noPulse(let best):
            why = .noPeriod(best: Double(best))
        case .period(let p):
            period = p
            let (seam, r, _) = similarityAcross(m, lag: p, window: min(p, n / 4))
            repeats = r >= 0.5
            if !repeats {
                why = .weakPeriod(similarity: r, period: view.seconds(p))
                break
            }
            // Only events keep time: a waveform that repeats (a tone's pitch period, a drone) or swells slowly has
            // a period but no pulse to break. A repeating texture (frozen noise: the waveform repeats at the period
            // and peaks at no lag from 2 to 50 ms, so it has no pitch) keeps time without events; listeners hear its
            // repetition.
            let texture = pitch.similarity < pitchSimilarity
            let events = pulseEvents(m, period: p, sampleRate: view.sampleRate)
            // A texture's repetition (no events keep its period) must stand out from chance: noise dominated by low
            // frequencies holds few independent values in a window, and in a short loop its best lag, the one the
            // search picks among many, reads 0.5–0.8 inside without anything repeating, while the seam's one pair
            // reads what chance gives (a perfect 0.2 s brown-noise loop failed: "the 0.055 s pulse breaks").
            let chance = chanceSimilarity(spread: spread)
            if texture, events != .pulse, r < chance {
                why = .chancePeriod(similarity: r, period: view.seconds(p), chance: chance)
                break
            }
            switch texture ? PulseEvents.pulse : events {
            case .pulse:
                // Events that keep the period in a waveform that repeats at it: a pattern (the bars of a beat loop,
                // pitched or not). Frozen noise repeated to fill the loop has none.
                let evidence = Evidence.pulse(period: view.seconds(p))
                guard events == .pulse, let pattern = pattern(view, mono: m, period: p, similarity: r) else {
                    return (measured(.rhythm, seam / r, evidence), p, true, events == .pulse, nil)
                }
                let (reference, at) = patternSimilarity(m, r, pattern, lag: p, window: min(p, n / 4))
                return (measured(.rhythm, seam / reference, evidence, pattern: at), p, true, true, pattern)
            case .tooFew(let count):
                why = .tooFewEvents(count)
            case .unrelated(let count, let share):
                why = .unrelatedEvents(count: count, period: view.seconds(p), share: share)
            }
        }
        // Events at a steady pulse whose waveform does not repeat (a recorded timer's ticks): the interval across the
        // seam must keep the pulse.
        if let events = eventPulse(m, sampleRate: view.sampleRate) {
            return (
                eventRhythm(events, frames: n, sampleRate: view.sampleRate), Int(events.period.rounded()), repeats,
                true, eventPattern(view, pulse: events)
            )
        }
        // Pitched material without a pulse: the phase of its waveform must carry on across the seam, one pitch
        // period against the next (a drone's cycle cut short thumps at every wrap, however much noise covers its
        // samples' steps).
        guard pitch.similarity >= pitchSimilarity, pitch.lag > 0 else {
            return (skipped(.rhythm, .noPulse(why, pitch: nil)), period, repeats, false, nil)
        }
        let lag = refinePeriod(
            m, around: pitch.lag, radius: max(2, view.sampleRate / 4000 + 1), sampleRate: view.sampleRate)
        let w = min(max(lag, view.frames(0.02)), n / 4)
        guard n >= lag + w + 24 else {
            return (skipped(.rhythm, .noPulse(why, pitch: nil)), period, repeats, false, nil)
        }
        let (seam, r, low) = similarityAcross(m, lag: lag, window: w)
        // Steady: pitched at three quarters of the points or more (a drone, a sustain), not only in bursts (drips
        // ring, but the seam may fall in the quiet between them).
        guard low >= 0.5 else {
            let unsteady = UnsteadyPitch(similarity: low, period: view.seconds(lag))
            return (skipped(.rhythm, .noPulse(why, pitch: unsteady)), period, repeats, false, nil)
        }
        // The period a listener hears, named in the note: the lag may be a few of them.
        let cycle = fundamentalPeriod(m, of: lag, window: w, inside: r, sampleRate: view.sampleRate)
        let seconds = cycle / Double(view.sampleRate)
        return (measured(.rhythm, seam / r, .phase(period: seconds, hertz: 1 / seconds)), period, repeats, false, nil)
    }

    /// The beat of a groove over a drone, where the pulse search's period is a few of the drone's pitch periods: when
    /// `period` (frames) is shorter than a beat (``shortestBeatSeconds``) and the events do not keep it, the lag
    /// where the waveform repeats best from a beat on, if the events keep that one and the waveform repeats there (the
    /// median self-similarity one lag apart is 0.5 or more); nil otherwise.
    ///
    /// The search takes the first lag from 50 ms whose self-similarity comes within 90 % of the best. Under a drone
    /// of 55 Hz, three of its periods (54.7 ms) repeat as well as the groove's bars, and which comes first depends on
    /// where the loop starts (the search correlates the loop with itself, not as it wraps): a 4-bar groove over held
    /// chords and a drone read its 4 s pulse started on two of its bar lines and the drone's 54.7 ms on the other two,
    /// where its events kept nothing, so it was judged as a drone, on its phase, and its chord changing at the seam
    /// failed it ("the waveform's 36.4 ms period (28 Hz) breaks at the seam: its phase jumps"), as it changes at every
    /// bar line inside. A drone without events keeps its phase judgment: its events keep no beat.
    static func beatUnderPitch(_ m: [Float], period: Int, sampleRate: Int) -> Int? {
        // Events that do not keep the period (enough of them: with too few, as under a drone alone, no lag is a beat).
        guard Double(period) < shortestBeatSeconds * Double(sampleRate),
            case .unrelated = pulseEvents(m, period: period, sampleRate: sampleRate),
            case .period(let beat) = pulseSearch(m, sampleRate: sampleRate, from: shortestBeatSeconds).0,
            pulseEvents(m, period: beat, sampleRate: sampleRate) == .pulse,
            similarityAcross(m, lag: beat, window: min(beat, m.count / 4)).inside >= 0.5
        else { return nil }
        return beat
    }

    /// The self-similarity a seam on a bar line keeps: the least that `inside` (the median of the ordinary points)
    /// and the places of the loop's `pattern` read, with the pattern's period when a place reads less.
    ///
    /// The loop holds whole periods of its pulse to within ``patternFit``, so the seam cannot put a beat early or
    /// late; what the correlation across it still reads is how much the material changes there. A seam on a bar
    /// line compares the bar's first beats with the last beats of the bar before, as every bar line inside does: a
    /// beat loop whose chord changes at its bar lines keeps 70 % of its self-similarity across each of them, and
    /// across its seam, while the 24 ordinary points, most inside a bar, keep all of it. The places are the seam's
    /// own in the pattern (whole periods from it), so the bar lines are among them; the least of them stands for a
    /// bar line. Read against it, a seamless loop started on its first bar keeps its pulse; a seam that changes the
    /// material more than any bar line does (a splice from elsewhere) still breaks it. The correlation is
    /// normalised, so a step in level at a bar line (which the level metric judges) lowers no place.
    static func patternSimilarity(_ m: [Float], _ inside: Double, _ pattern: Pattern, lag: Int, window w: Int) -> (
        reference: Double, pattern: Double?
    ) {
        let n = m.count
        var now = [Float](repeating: 0, count: w)
        var before = [Float](repeating: 0, count: w)
        var least = inside
        for junction in pattern.junctions {
            for j in 0..<w {
                now[j] = m[(junction + j) % n]
                before[j] = m[((junction - lag + j) % n + n) % n]
            }
            least = min(least, CrossCorrelation.normalized(now, from: 0, before, from: 0, count: w))
        }
        // A place that keeps no self-similarity is no reference: the seam's value would have no bound.
        guard least < inside, least > 0 else { return (inside, nil) }
        return (least, pattern.seconds)
    }

    /// The normalised correlation of the first `window` frames of the loop with the `window` frames `lag` earlier
    /// in the looped signal (straddling the wrap), R, the median of the same correlation at 24 points inside, and
    /// the lower quartile of those.
    static func similarityAcross(_ m: [Float], lag: Int, window w: Int) -> (
        seam: Double, inside: Double, lowerQuartile: Double
    ) {
        let n = m.count
        var across = [Float](repeating: 0, count: w)
        for j in 0..<w { across[j] = m[((n - lag + j) % n + n) % n] }
        let seam = CrossCorrelation.normalized(m, from: 0, across, from: 0, count: w)
        let sorted = insideSimilarities(m, lag: lag, window: w)
        return (seam, sorted[12], sorted[6])
    }

    /// The normalised correlation, in windows of `w` frames, of the loop with itself `lag` frames earlier at 24
    /// points spread evenly from `lag` to the loop's end, in ascending order.
    static func insideSimilarities(_ m: [Float], lag: Int, window w: Int) -> [Double] {
        let lastStart = m.count - w
        return (0..<24).map { i in
            let t = lag + (lastStart - lag) * i / 23
            return CrossCorrelation.normalized(m, from: t, m, from: t - lag, count: w)
        }.sorted()
    }

    /// What the onsets of a mono signal say about a pulse of `period` frames.
    enum PulseEvents: Equatable {
        /// Fewer than ``minimumPulseEvents`` onsets: a tone, a drone, a bed or a swell.
        case tooFew(Int)
        /// Enough onsets, but fewer than half are followed by another one a period later.
        case unrelated(Int, Double)
        /// Events that recur at the period.
        case pulse
    }

    /// The fewest onsets a pulse needs in the loop: 4 (two periods with two events each, or four periods).
    static let minimumPulseEvents = 4

    /// The onsets of `m` and whether they recur at `period`.
    ///
    /// Levels in 10 ms blocks (dB), read as the loop plays (``eventOnsets(_:cyclic:)``: an event on the loop's first
    /// frame is an onset, as it is heard after the last). The floor is the 20th percentile of the blocks: the level
    /// between events. An onset is a block 10 dB or more above the floor that rises 6 dB or more within 20 ms (an
    /// event: a drip, a crackle, a tick; a swell rises slower, a steady tone not at all), 50 ms or more after the
    /// previous onset.
    /// The events show the period when at least half of the onsets that have a period of loop after them are
    /// followed by another within ±5 % of the period (at least ±2 blocks).
    static func pulseEvents(_ m: [Float], period: Int, sampleRate: Int) -> PulseEvents {
        let block = max(1, sampleRate / 100)
        let count = m.count / block
        guard count >= 8 else { return .tooFew(0) }
        let onsets = eventOnsets(blockLevels(m, block: block), cyclic: true)
        guard onsets.count >= minimumPulseEvents else { return .tooFew(onsets.count) }
        guard let share = share(onsets, period: Double(period) / Double(block), blocks: count) else {
            return .tooFew(onsets.count)
        }
        return share >= keptShare ? .pulse : .unrelated(onsets.count, share)
    }

    /// The share of the onsets followed by another a period later at which the events keep the period: half.
    static let keptShare = 0.5

    /// The shortest beat likeness reads (s): at 0.2 s the onsets' tolerance (±2 blocks of 10 ms) is already a tenth
    /// of the period, and any dense train of events would keep a shorter one.
    static let shortestBeatSeconds = 0.2

    /// The whole fractions of the pulse `period` (frames; 1/2 to 1/16, longest first, none shorter than
    /// ``shortestBeatSeconds``) that `m`'s events keep by ``pulseEvents(_:period:sampleRate:)``'s rule: the beat
    /// likeness reads (``beatPeriod(_:period:sampleRate:)``) and the pattern of a loop that holds no whole period
    /// (``pattern(_:mono:period:)``) are among them.
    static func keptFractions(_ m: [Float], period: Int, sampleRate: Int) -> [Double] {
        let block = max(1, sampleRate / 100)
        let count = m.count / block
        let onsets = eventOnsets(blockLevels(m, block: block), cyclic: true)
        return (2...16).map { Double(period) / Double($0) }.filter { fraction in
            guard fraction >= shortestBeatSeconds * Double(sampleRate),
                let kept = share(onsets, period: fraction / Double(block), blocks: count)
            else { return false }
            return kept >= keptShare
        }
    }

    /// The beat `m`'s events keep (frames), for the tempo likeness compares: the shortest of
    /// ``keptFractions(_:period:sampleRate:)``; `period` itself when the events keep none.
    ///
    /// The rhythm metric's period is the lag where the waveform repeats best: a bar, half a bar, or six beats where a
    /// bed's chords happen to repeat so. The same groove cut at 2 and at 4 bars read 1.333 and 4 s; their shortest kept
    /// fraction is the groove's beat or subdivision in both.
    static func beatPeriod(_ m: [Float], period: Int, sampleRate: Int) -> Double {
        keptFractions(m, period: period, sampleRate: sampleRate).last ?? Double(period)
    }

    /// The share of `onsets` (blocks of a `blocks`-long signal) that have a `period` (blocks) of signal after them and
    /// are followed by another within ±5 % of it (at least ±2 blocks); nil when none has. The events keep the period
    /// from ``keptShare``.
    static func share(_ onsets: [Int], period p: Double, blocks count: Int) -> Double? {
        let tolerance = max(2, 0.05 * p)
        var judged = 0
        var recurring = 0
        for o in onsets where Double(o) + p + tolerance < Double(count) {
            judged += 1
            if onsets.contains(where: { abs(Double($0 - o) - p) <= tolerance }) { recurring += 1 }
        }
        return judged > 0 ? Double(recurring) / Double(judged) : nil
    }

    /// The level (dB) of each whole block of `block` frames of `m`.
    static func blockLevels(_ m: [Float], block: Int) -> [Double] {
        m.withUnsafeBufferPointer { x in blockLevels(frames: x.count, block: block) { x[$0] } }
    }

    /// The level (dB) of each whole block of `block` of the `frames` values `value(i)`: their mean square, summed in
    /// order in `Double`.
    @inline(__always)
    static func blockLevels(frames: Int, block: Int, _ value: (Int) -> Float) -> [Double] {
        let count = frames / block
        var level = [Double](repeating: 0, count: count)
        for k in 0..<count {
            var e = 0.0
            for i in (k * block)..<((k + 1) * block) {
                let v = value(i)
                e += Double(v) * Double(v)
            }
            level[k] = 10 * log10(max(e / Double(block), 1e-14))
        }
        return level
    }

    /// The blocks of 10 ms `level` where an event starts: 10 dB or more above the floor (the 20th percentile of the
    /// blocks: the level between events) and 6 dB or more over the block two before (20 ms), 50 ms or more after the
    /// previous onset. `cyclic`: the blocks before the first are the last ones (a loop read as it plays), and a last
    /// onset less than 50 ms before the first is the same event.
    static func eventOnsets(_ level: [Double], cyclic: Bool) -> [Int] {
        let count = level.count
        guard count >= 8 else { return [] }
        let floor = percentile(level, 0.2)
        var onsets: [Int] = []
        for k in (cyclic ? 0 : 2)..<count
        where level[k] >= floor + 10 && level[k] - level[(k - 2 + count) % count] >= 6 {
            if let last = onsets.last, k - last < 5 { continue }
            onsets.append(k)
        }
        if cyclic, onsets.count >= 2, onsets[0] + count - onsets[onsets.count - 1] < 5 { onsets.removeLast() }
        return onsets
    }

    /// What the pulse search found.
    package enum PulseSearch: Equatable {
        /// The signal cannot hold two pulses of at least 50 ms.
        case tooShort
        /// No lag correlates well enough (the best normalised autocorrelation on the decimated signal).
        case noPulse(Float)
        /// The pulse period, exact to the frame at full rate.
        case period(Int)
    }

    /// The pulse period of a mono signal: the lag (50 ms ... half the signal) of the strongest normalised
    /// autocorrelation, searched on a 4 kHz boxcar decimation (the first peak within 90 % of the best peak, screened
    /// at 0.3, then the strongest lag within ±5 % of that peak) and refined at full rate to the exact frame
    /// (``fullRatePeriod(_:around:sampleRate:)``).
    package static func pulsePeriod(_ m: [Float], sampleRate: Int) -> PulseSearch {
        pulseSearch(m, sampleRate: sampleRate).0
    }

    /// The self-similarity a lag reaches by chance in material whose normalised autocorrelation over the lags searched
    /// has RMS `spread`: four times that, capped at 0.9 (as ``LoopFinder``'s chance correlation of a loop's start
    /// with its ends). A truly repeating texture correlates near 1 at its period and near 0 elsewhere.
    package static func chanceSimilarity(spread: Double) -> Double { min(0.9, 4 * spread) }

    /// Below this normalised autocorrelation at every peak from 2 to 50 ms a signal has no pitch: 0.3 (the screen of
    /// the pulse search).
    static let pitchSimilarity: Float = 0.3

    /// ``pulsePeriod(_:sampleRate:)`` and the strongest local maximum of the normalised autocorrelation at lags from
    /// 2 to 50 ms (a pitch period; the smoothness of low-passed noise, which falls from lag 0 without a peak, is
    /// none) on the same decimation, with its lag in full-rate frames (0 when the loop holds no such peak).
    ///
    /// `from`: the shortest lag searched (seconds), ``shortestPulseSeconds`` unless the caller looks for a beat.
    static func pulseSearch(_ m: [Float], sampleRate: Int, from: Double = shortestPulseSeconds) -> (
        PulseSearch, pitch: (similarity: Float, lag: Int), spread: Double
    ) {
        let factor = max(1, sampleRate / 4000)
        let decimated = CrossCorrelation.decimate(m, by: factor)
        let minLag = Int((from * Double(sampleRate) / Double(factor)).rounded(.up))
        let maxLag = decimated.count / 2
        guard maxLag >= minLag + 2 else { return (.tooShort, (0, 0), 0) }
        let ac = CrossCorrelation.normalizedAutocorrelation(decimated, maxLag: maxLag)
        var shortLag: Float = 0
        var pitchLag = 0
        let fromLag = max(1, Int((0.002 * Double(sampleRate) / Double(factor)).rounded()))
        // A period is a lag where the waveform resembles itself more than at the lags beside it: a local maximum of
        // the autocorrelation (the last lag searched, half the loop, is one when it rises to it: a loop of two
        // periods). Low-passed noise correlates with itself at every short lag, less the further apart (brown noise
        // high-passed at 20 Hz still reads 0.8 at 2 ms), and its strongest lag is only the edge of the range
        // searched: no pitch, and no pulse (a seamless 6 s loop of brown noise failed: "the 0.048 s pulse breaks at
        // the seam").
        func isPeak(_ k: Int) -> Bool { ac[k] > ac[k - 1] && (k == maxLag || ac[k] >= ac[k + 1]) }
        if fromLag < minLag {
            for k in fromLag..<minLag where ac[k] > shortLag && isPeak(k) { (shortLag, pitchLag) = (ac[k], k * factor) }
        }
        var best: Float = 0
        var squares = 0.0
        for k in minLag...maxLag {
            if isPeak(k) { best = max(best, ac[k]) }
            squares += Double(ac[k]) * Double(ac[k])
        }
        let lagSpread = (squares / Double(maxLag - minLag + 1)).squareRoot()
        // A boxcar-decimated period that falls between two decimated samples keeps only ~0.5 of its correlation,
        // so candidates are screened at 0.3 and judged on the full-rate correlation.
        guard best >= 0.3 else { return (.noPulse(best), (shortLag, pitchLag), lagSpread) }
        var first = minLag
        for k in minLag...maxLag where ac[k] >= 0.9 * best && isPeak(k) {
            first = k
            break
        }
        // Tonal material (a drip's ring) gives a comb of lobes a carrier period apart around the true lag, and the
        // first lobe above 90 % may be an early one: take the strongest lag within ±5 % of it.
        var coarse = first
        let spread = max(2, first / 20)
        for k in max(minLag, first - spread)...min(maxLag, first + spread) where ac[k] > ac[coarse] { coarse = k }
        return (
            .period(fullRatePeriod(m, around: coarse * factor, sampleRate: sampleRate)), (shortLag, pitchLag),
            lagSpread
        )
    }

    /// The period near `center` at full rate: the first 0.5 s correlated (FFT, normalised) with every lag within
    /// ±5 % of `center` (at least ±24 frames), then the exact direct correlation (``refinePeriod(_:around:radius:sampleRate:)``)
    /// within ±3 frames of the best. A decimated lag can sit several carrier cycles off for ringing material; ±5 %
    /// reaches the true lag, where an exactly periodic signal correlates to 1.
    static func fullRatePeriod(_ m: [Float], around center: Int, sampleRate: Int) -> Int {
        let n = m.count
        let radius = max(24, center / 20)
        let lo = max(1, center - radius)
        let hi = min(n / 2, center + radius)
        let length = min(sampleRate / 2, n - hi)
        guard lo < hi, length >= 64 else {
            return refinePeriod(m, around: center, radius: radius, sampleRate: sampleRate)
        }
        let r = CrossCorrelation.normalizedSliding(template: Array(m[0..<length]), in: Array(m[lo..<(hi + length)]))
        var best = 0
        for o in r.indices where r[o] > r[best] { best = o }
        return refinePeriod(m, around: lo + best, radius: 3, sampleRate: sampleRate)
    }

    /// The pitch period (frames, fractional) of which `lag` is a whole number: `lag / k` for the largest `k` at
    /// whose fraction the waveform repeats as well as at `lag` (`inside`, the median self-similarity of the loop's
    /// 24 points in windows of `w` frames, ``similarityAcross(_:lag:window:)``), to within ``fundamentalTolerance``.
    ///
    /// The pitch search takes the strongest peak from 2 to 50 ms on a 4 kHz decimation, and a steady tone repeats
    /// equally at every whole number of its periods: the one that wins is the one closest to a whole decimated
    /// sample (a 220 Hz sine read 9 periods, "40.9 ms (24 Hz)"), and a tone above 500 Hz has only multiples there
    /// (a 904 Hz whistle read 3 periods). A fraction of a true period repeats worse (a horn's half period keeps its
    /// even harmonics and loses its odd ones), so it is taken only where it repeats as well: reading as it does,
    /// the tone is indistinguishable from one of that period. Fractions are searched down to 0.25 ms (4 kHz, a
    /// piccolo's top). Each must be a peak (its self-similarity above the lag a frame shorter's, as high as the lag a
    /// frame longer's), and a period: a waveform without a constant part (DC is a defect of its own) correlates with
    /// itself at zero on average over a period, so the self-similarity must fall to zero or below at some shorter
    /// lag. A dull sound resembles itself at every short lag (a bass line reads 0.9 from 1 to 0.5 ms); its
    /// ripples there are no period. The peak, placed between frames by a parabola, must go into `lag` closest to
    /// `k` times (else it is the period of another `k`: a 904 Hz sine's 41 periods read as 43 of 948 Hz), and
    /// `lag / k` is then the period to a fraction of a frame.
    static func fundamentalPeriod(_ m: [Float], of lag: Int, window w: Int, inside: Double, sampleRate: Int) -> Double {
        let shortest = max(2, sampleRate / 4000)
        guard lag >= 2 * shortest else { return Double(lag) }
        var known: [Int: Double] = [:]
        func similarity(_ l: Int) -> Double {
            if let v = known[l] { return v }
            let v = insideSimilarities(m, lag: l, window: w)[12]
            known[l] = v
            return v
        }
        for k in stride(from: lag / shortest, through: 2, by: -1) {
            let center = Int((Double(lag) / Double(k)).rounded())
            let peak = ((center - 1)...(center + 1)).max { similarity($0) < similarity($1) } ?? center
            let value = similarity(peak)
            guard peak > 1, value > similarity(peak - 1), value >= similarity(peak + 1),
                value >= inside - fundamentalTolerance
            else { continue }
            // The period the peak gives (between frames) must go into `lag` closest to k times.
            let between = ParabolicPeak.interpolate(similarity(peak - 1), value, similarity(peak + 1)).offset
            guard (Double(lag) / (Double(peak) + between)).rounded() == Double(k),
                (1..<peak).contains(where: { similarity($0) <= 0 })
            else { continue }
            return Double(lag) / Double(k)
        }
        return Double(lag)
    }

    /// How much less than at a multiple of it a fraction of a pitch period may correlate and still be the period:
    /// 0.01, what a slowly changing tone loses over a few more periods. A true fraction of a harmonic tone's period
    /// (a half, a third) loses far more: only the harmonics it is a period of repeat there.
    static let fundamentalTolerance = 0.01

    /// The lag within `center ± radius` (at least 1, at most half the signal) with the highest full-rate
    /// normalised correlation between the signal's start and the same length `lag` frames later (up to 2 s).
    static func refinePeriod(_ m: [Float], around center: Int, radius: Int, sampleRate: Int) -> Int {
        let n = m.count
        let lo = max(1, center - radius)
        let hi = min(n / 2, center + radius)
        guard lo <= hi else { return max(1, min(center, n / 2)) }
        var bestLag = lo
        var bestValue = -Double.infinity
        for lag in lo...hi {
            let count = min(n - lag, 2 * sampleRate)
            let v = CrossCorrelation.normalized(m, from: 0, m, from: lag, count: count)
            if v > bestValue { (bestValue, bestLag) = (v, lag) }
        }
        return bestLag
    }
}
