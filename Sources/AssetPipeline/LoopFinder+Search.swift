import AudioCore
import AudioDSP
import Foundation

extension LoopFinder {
    /// The first frame of the sustain of a mono signal: 0 when there is no attack or fade-in; after an attack, the
    /// first point after the envelope peak where the 10 ms RMS envelope stops falling faster than 1 dB per 50 ms,
    /// plus 50 ms; after a fade-in, the point where the envelope first comes within 1.5 dB of the second half's
    /// median, plus 50 ms.
    ///
    /// An attack is an envelope peak in the first quarter that stands at least 6 dB above the median envelope of
    /// the second half and 3 dB above its loudest moment (a burst that recurs is a pulse, not an attack). A fade-in
    /// is a first 10 ms at least 10 dB under that median, rising to it within the first quarter: a loop that
    /// started inside it would dip at every wrap.
    static func sustainStart(_ mono: [Float], sampleRate: Int) -> Int {
        let hop = max(1, sampleRate / 100)
        let count = mono.count / hop
        guard count >= 20 else { return 0 }
        var env = [Double](repeating: 0, count: count)
        for k in 0..<count {
            var e = 0.0
            for i in (k * hop)..<((k + 1) * hop) { e += Double(mono[i]) * Double(mono[i]) }
            env[k] = 10 * log10(max(e / Double(hop), 1e-12))
        }
        let quarter = max(1, count / 4)
        let peak = (0..<quarter).max { env[$0] < env[$1] }!
        let later = Array(env[(count / 2)...]).sorted()
        let laterMedian = later[later.count / 2]
        // A burst that recurs later (a drip, a crackle) is the material's pulse, not an attack.
        guard env[peak] - laterMedian >= 6, env[peak] - later[later.count - 1] >= 3 else {
            guard env[0] < laterMedian - 10, let k = env.firstIndex(where: { $0 >= laterMedian - 1.5 }), k < quarter
            else { return 0 }
            return min(mono.count - 1, (k + 5) * hop)
        }
        var k = peak
        while k + 5 < count && env[k] - env[k + 5] > 1 { k += 1 }
        return min(mono.count - 1, (k + 5) * hop)
    }

    /// Candidate ends for a loop starting at `start`: local maxima of the normalised correlation of the decimated
    /// signal after `start` with the decimated signal at every allowed end, best first (at most 6), and the RMS of
    /// that correlation over every allowed end (how well the template matches by chance: see ``chanceCorrelation``).
    static func coarseEnds(
        _ decimated: [Float], start: Int, factor: Int, window: Int, minLength: Int, maxLength: Int, latestEnd: Int
    ) -> (ends: [Int], spread: Double) {
        let s = start / factor
        let w = max(4, window / factor)
        guard s + w <= decimated.count else { return ([], 0) }
        let template = Array(decimated[s..<(s + w)])
        let r = CrossCorrelation.normalizedSliding(template: template, in: decimated)
        let lo = max(0, (start + minLength) / factor - 2)
        let hi = min(r.count - 1, min(start + maxLength, latestEnd) / factor + 2)
        guard lo <= hi else { return ([], 0) }
        var squares = 0.0
        for o in lo...hi { squares += Double(r[o]) * Double(r[o]) }
        let spread = (squares / Double(hi - lo + 1)).squareRoot()
        var peaks: [(Int, Float)] = []
        for o in lo...hi {
            let left = o > lo ? r[o - 1] : -2
            let right = o < hi ? r[o + 1] : -2
            if r[o] >= left && r[o] >= right { peaks.append((o, r[o])) }
        }
        peaks.sort { $0.1 > $1.1 }
        // Keep peaks at least a quarter window apart, so the list is not six neighbours of one maximum.
        var chosen: [Int] = []
        for (o, _) in peaks where !chosen.contains(where: { abs($0 - o) < max(2, w / 4) }) {
            chosen.append(o)
            if chosen.count == 6 { break }
        }
        return (chosen.map { $0 * factor }, spread)
    }

    /// The correlation a loop's start reaches by chance somewhere in material whose correlation with it has RMS
    /// `spread` over the allowed ends: four times that spread, capped at 0.9. Noise dominated by low frequencies
    /// (brown noise, rumble, surf) holds few independent values in the match window, so its correlation swings
    /// widely from end to end and its best match reaches 0.5–0.6 without anything repeating; a truly periodic
    /// signal correlates near 1 at its period and near 0 elsewhere. Tonal material correlates well at many ends
    /// (a large spread) because it does repeat: material with a steady pulse skips this test (see ``find``). The
    /// rule is the rhythm metric's (``SeamMetrics/chanceSimilarity(spread:)``).
    static func chanceCorrelation(spread: Double) -> Double { SeamMetrics.chanceSimilarity(spread: spread) }

    /// Whether the file goes on repeating at `length` after `from`: at seven points spread up to the latest loop
    /// start the file allows, the `window` frames there correlate ``repeatCorrelation`` or more with the `window`
    /// frames `length` later. A render's loop does; an intro's own repeat (two identical halves of a 2 s intro,
    /// an exact repeat in itself) does not, and the file's loop is still to be found.
    static func repeatsThroughout(_ mono: [Float], length: Int, from start: Int, latestEnd: Int, window: Int) -> Bool {
        let last = latestEnd - length
        guard last > start else { return true }
        return (1..<8).allSatisfy { i in
            let p = start + (last - start) * i / 7
            let correlation = CrossCorrelation.normalized(mono, from: p, mono, from: p + length, count: window)
            return correlation >= repeatCorrelation
        }
    }

    /// Candidate ends at whole multiples of the material's pulse period after `start` (the longest 8 allowed).
    ///
    /// The coarse search correlates a 4 kHz decimation; a period that falls between two decimated samples turns
    /// tonal material out of phase there (a 1.8 kHz drip is half a cycle off after 6 frames), and chance matches
    /// elsewhere can outrank it. The pulse period is found on the whole signal and refined at full rate, so its
    /// multiples are exact for periodic material; they join the coarse candidates and are refined and scored alike.
    static func pulseEnds(_ period: Int?, start: Int, minLength: Int, maxLength: Int, latestEnd: Int) -> [Int] {
        guard let period, period > 0 else { return [] }
        let lastEnd = min(start + maxLength, latestEnd)
        var ends: [Int] = []
        var k = (lastEnd - start) / period
        while k >= 1 && ends.count < 8 {
            let e = start + k * period
            if e - start < minLength { break }
            ends.append(e)
            k -= 1
        }
        return ends
    }

    /// The end within `around ± radius` (clamped to `minEnd ... maxEnd`) whose following `window` frames correlate
    /// best with the `window` frames after `start`, at full rate.
    static func refine(_ mono: [Float], start: Int, around: Int, radius: Int, window: Int, minEnd: Int, maxEnd: Int)
        -> Int?
    {
        let lo = max(minEnd, around - radius)
        let hi = min(maxEnd, around + radius, mono.count - window)
        guard lo <= hi else { return nil }
        var best = lo
        var bestValue = -Double.infinity
        for e in lo...hi {
            let v = CrossCorrelation.normalized(mono, from: start, mono, from: e, count: window)
            if v > bestValue { (bestValue, best) = (v, e) }
        }
        return best
    }

    /// Scores the loop `start ..< end` (see ``LoopFinder``) and says why in words.
    ///
    /// - Parameter lead: the windows compared start this many frames before each end (0: the `window` frames after
    ///   each, the material a crossfade joins; `window`: the frames that lead into each, where the file holds too
    ///   little after the loop).
    static func score(
        _ mono: [Float], start loopStart: Int, end loopEnd: Int, window: Int, sampleRate: Int, sustain: Int,
        bands: SpectralBands, fft: RealFFT, lead: Int = 0
    ) -> Candidate {
        let (start, end) = (loopStart - lead, loopEnd - lead)
        let r = CrossCorrelation.normalized(mono, from: start, mono, from: end, count: window)
        var d = 0.0
        var levels = 0.0
        mono.withUnsafeBufferPointer { p in
            let size = bands.size
            let frames = max(1, window / size)
            var a = [Float](repeating: 0, count: bands.bandCount)
            var b = a
            for k in 0..<frames where start + (k + 1) * size <= mono.count && end + (k + 1) * size <= mono.count {
                let ea = bands.energies(p.baseAddress! + start + k * size, fft: fft)
                let eb = bands.energies(p.baseAddress! + end + k * size, fft: fft)
                for i in a.indices {
                    a[i] += ea[i]
                    b[i] += eb[i]
                }
            }
            let loudest = max(a.max() ?? 0, b.max() ?? 0)
            let floor = max(loudest * 1e-5, 1e-20)
            var sq = 0.0
            var used = 0
            for i in a.indices where max(a[i], b[i]) > floor {
                let diff = 10 * log10(Double(max(b[i], floor)) / Double(max(a[i], floor)))
                sq += diff * diff
                levels += diff
                used += 1
            }
            d = used > 0 ? (sq / Double(used)).squareRoot() : 0
            levels = used > 0 ? levels / Double(used) : 0
        }
        let score = 0.6 * max(r, 0) + 0.4 / (1 + d)
        let sr = Double(sampleRate)
        var reasons = [
            String(
                format: "waveform correlation %.4f over the %.0f ms %@", r, Double(window) / sr * 1000,
                lead == 0 ? "after the joint" : "before each end"),
            String(format: "spectra within %.2f dB (level %+.2f dB)", d, levels),
            String(
                format: "loop %.3f s (%d frames) from %.3f s", Double(loopEnd - loopStart) / sr, loopEnd - loopStart,
                Double(loopStart) / sr),
        ]
        if sustain > 0 {
            reasons.append(
                String(format: "starts in the sustain, after the attack or fade-in (%.3f s)", Double(sustain) / sr))
        }
        return Candidate(
            start: Int64(loopStart), end: Int64(loopEnd), score: (score * 10_000).rounded() / 10_000, reasons: reasons,
            correlation: r,
            spectralDistance: d, levelDifference: levels)
    }

    /// How far the end of a designer's loop that fails is moved to mend it: ±25 ms, a period of 40 Hz (the lowest
    /// fundamental a sampled note loops on: a bass's E1 is 41 Hz), so the next and the previous period of any note are
    /// within reach.
    static let mendRadiusSeconds = 0.025

    /// How many of the ends that repeat a failing loop's start best are tried as its mend.
    static let mendCandidates = 5

    /// The file's own loop (embedded or sidecar) that fails, mended: its start kept (where the designer heard the sound
    /// steady), its end moved within ±``mendRadiusSeconds`` to one of the frames whose 50 ms (at most `window`) repeat
    /// the start's (correlation ``repeatCorrelation`` or more; after each end, or leading into each where the file
    /// holds too little after the loop: a sampled note ends a few frames after its loop), the first of the best
    /// ``mendCandidates`` whose seam passes verify's metrics. An end a fraction of a period off (a loop cut or
    /// resampled carelessly) is the usual fault. The loop keeps at least half its length. `nil` when no end mends it.
    static func mendedCandidate(
        _ buffer: AudioBuffer, mono: [Float], region: LoopRegion, source: LoopVerifier.LoopSource, window: Int,
        lengths: ClosedRange<Int>, crossfade: Int, bands: SpectralBands, fft: RealFFT
    ) -> Candidate? {
        let n = mono.count
        let sampleRate = buffer.sampleRate.hertz
        let (start, end) = (Int(region.start), Int(region.end))
        let radius = max(1, Int(mendRadiusSeconds * Double(sampleRate)))
        // A mend is a small correction: the loop keeps at least half its length.
        let lo = max(start + lengths.lowerBound, end - radius, start + (end - start + 1) / 2)
        let hi = min(start + lengths.upperBound, n - crossfade, end + radius)
        guard lo <= hi else { return nil }
        // The windows: 50 ms (two periods of the lowest note), what the joint plays through; over a longer one a
        // note that evolves (a decay, a vibrato) matches its start worse the longer it runs, wherever the end is.
        let span = min(window, sampleRate / 20)
        let forward = n - hi >= min(span, start)
        let w = min(span, forward ? n - hi : start)
        // 20 ms: two periods of a 100 Hz note, the least that tells a period from its neighbours.
        guard w >= max(2, sampleRate / 50) else { return nil }
        let lead = forward ? 0 : w
        // The ends where the correlation peaks (each period of a note is one), best first; of ends that repeat the start
        // alike (a strictly periodic sustain) the nearest first, so the mend is the smallest move. The first of the
        // best five whose seam passes is the mend: the best correlation over the window may sit a period or two from
        // the end that joins best (a vibrato, a slow decay).
        let values = (lo...hi).map {
            CrossCorrelation.normalized(mono, from: start - lead, mono, from: $0 - lead, count: w)
        }
        // Only an end that repeats the start (``repeatCorrelation``) mends a loop: in material that never repeats, a
        // joint that happens to pass is luck, not the designer's loop put right.
        let peaks = values.indices.filter { i in
            values[i] >= repeatCorrelation
                && (i == 0 || values[i] >= values[i - 1]) && (i + 1 == values.count || values[i] >= values[i + 1])
        }
        let ranked = peaks.sorted { a, b in
            if abs(values[a] - values[b]) > 1e-9 { return values[a] > values[b] }
            return abs(lo + a - end) < abs(lo + b - end)
        }
        guard
            let best = ranked.prefix(mendCandidates).map({ lo + $0 }).first(where: { e in
                e != end && SeamRules.passes(buffer, loop: start..<e).seamPasses
            })
        else { return nil }
        var c = score(
            mono, start: start, end: best, window: w, sampleRate: sampleRate, sustain: 0, bands: bands, fft: fft,
            lead: lead)
        let whose = source == .sidecar ? "sidecar's" : "embedded"
        c.reasons.insert(
            String(
                format:
                    "the %@ loop mended ranks first: its end moved %+d frames (%+.2f ms) onto a repeat of its start, and verify passes on it",
                whose, best - end, Double(best - end) / Double(sampleRate) * 1000),
            at: 0)
        return c
    }

    /// The size of the spectra compared over a match window of `window` frames: 2048, or the largest power of two that
    /// fits the window (below 8.2 kHz, a quarter second is less than 2048 frames and a 2048-frame window after the
    /// latest end would run past the file).
    static func spectrumSize(window: Int) -> Int { min(2048, 1 << (Int.bitWidth - 1 - window.leadingZeroBitCount)) }

    /// A designer's loop (embedded or sidecar) whose seam fails, mended:
    /// ``mendedCandidate(_:mono:region:source:window:lengths:crossfade:bands:fft:)`` on its own, for `verify` to say
    /// what mends it and for `bake` to bake it mended; a whole-file loop that fails, without the stray frames at its
    /// ends (``strayFramesMended(_:region:report:)``). Nil for a `--loop` given, for a loop that passes or only warns (whole
    /// metrics: `report`, or measured here when not given) and when nothing so small mends it. The mend compares at
    /// most 50 ms, and no search runs.
    public static func mended(
        _ buffer: AudioBuffer, region: LoopRegion, source: LoopVerifier.LoopSource, report: SeamRules.Report? = nil
    ) -> Candidate? {
        guard source == .embedded || source == .sidecar || source == .wholeFile else { return nil }
        let judged = report ?? SeamRules.judge(buffer, loop: Int(region.start)..<Int(region.end))
        guard judged.verdict == .fail else { return nil }
        // A whole file has nothing past its ends to move them onto: only stray frames at its ends are mended.
        if source == .wholeFile { return strayFramesMended(buffer, region: region, report: judged) }
        let sr = buffer.sampleRate.hertz
        let window = sr / 4
        let size = spectrumSize(window: window)
        let fft = RealFFT.pooled(size: size)
        defer { RealFFT.recycle(fft) }
        return mendedCandidate(
            buffer, mono: buffer.monoMix(), region: region, source: source, window: window,
            lengths: 2...buffer.frameCount, crossfade: 0, bands: SpectralBands(size: size, sampleRate: sr), fft: fft)
    }

    /// The file's own loop (embedded or sidecar) that verify only warns on, as the first candidate: scored as a search
    /// candidate is, on the `window` frames after each end, or, when the file holds fewer after the loop's end than
    /// before its start (a sampled note ends a few frames after its loop), on the frames that lead into each end.
    static func keptCandidate(
        _ mono: [Float], region: LoopRegion, source: LoopVerifier.LoopSource, report: SeamRules.Report, window: Int,
        sampleRate: Int, bands: SpectralBands, fft: RealFFT
    ) -> Candidate {
        let start = Int(region.start)
        let end = Int(region.end)
        let after = mono.count - end
        let forward = after >= min(window, start)
        let w = min(window, forward ? after : start)
        let whose = source == .sidecar ? "sidecar's" : "embedded"
        let why = "the \(whose) loop ranks first: verify only warns on it (\(report.reasons.first ?? "warn"))"
        guard w >= 2 else {
            return Candidate(
                start: region.start, end: region.end, score: 0,
                reasons: [why, "no frames around the loop to compare its ends by: unscored"], correlation: 0)
        }
        var c = score(
            mono, start: start, end: end, window: w, sampleRate: sampleRate, sustain: 0, bands: bands, fft: fft,
            lead: forward ? 0 : w)
        c.reasons.insert(why, at: 0)
        return c
    }
}
