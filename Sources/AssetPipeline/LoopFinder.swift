import AudioCore
import AudioDSP
import AudioFile
import Foundation

/// `enso loops find`: loop points for a file, best first.
///
/// 1. If the file's loop (embedded, sidecar or the whole file) already passes ``SeamRules``, that is the answer.
/// 2. Otherwise: find where the sustain starts (after the attack of a sampled instrument; frame 0 for a bed). The
///    loop starts there; when nothing there repeats exactly (``exactRepeatCorrelation``: a render's intro) or
///    what does is not repeated on through the file (an intro that repeats itself), seven later starts are searched
///    too.
/// 3. Coarse search on a mono mix decimated to about 4 kHz: the first `W` frames after each candidate start are
///    correlated (normalised, by FFT through KissFFT) with every later position whose distance is an allowed loop
///    length; local maxima become candidate ends.
/// 4. Refinement at full rate: each end moves within ±2 decimated samples to the frame with the highest
///    normalised correlation of the W frames after it with the W frames after the start. A loop length in a
///    truly periodic signal comes out exact to the frame.
/// 5. Score: 0.6 × waveform correlation (clamped at 0) + 0.4 × spectral similarity (1 / (1 + d), d the RMS
///    difference in dB of third-octave band levels of the two windows, level included). Near-equal scores
///    (within ``nearEqualScore`` of the best left) prefer the longer loop (``rankedByScore(_:)``). When no
///    candidate correlates above ``noRepeatCorrelation`` or above what chance gives in this material
///    (``chanceCorrelation(spread:)``: rain, wind, brown noise: nothing repeats), the longest allowed loop is scored
///    too, with the longest three on a 50 ms grid whose ends match in level, and the longest loop whose ends match in
///    level (within 1 dB) and spectrum (within 1 dB of the closest match) and are not out of phase
///    (``antiPhaseCorrelation``) ranks first. Material with a steady pulse (the rhythm metric measured
///    its period: a drone, a hum) repeats, so its correlations are never taken for chance.
///
/// - Thread safety: pure functions.
/// - Real-time safe: no.
public enum LoopFinder {
    /// Below this waveform correlation no candidate repeats the loop's start: ranking prefers long loops.
    public static let noRepeatCorrelation = 0.5

    /// From this waveform correlation on, a loop's ends repeat the material (a render of a loop, a sampled
    /// sustain): 0.9.
    public static let repeatCorrelation = 0.9

    /// From this waveform correlation on, a loop's ends are the same recording (what differs is 20 dB down or more:
    /// a render's repetitions through a lossy codec), not only alike (a hum's periods, a sustained note's): 0.99.
    /// Below it, a render's intro may be what repeats at the sustain start (an engine's hum correlates 0.95 with
    /// itself a second later), so the later starts are searched for the loop the render repeats.
    public static let exactRepeatCorrelation = 0.99

    /// Below this waveform correlation a loop's ends are out of phase: halfway through an equal-power crossfade
    /// the power is `1 + ρ` times the material's, so ends at −0.1 dip by 0.5 dB (the smallest level step `verify`
    /// flags) and ends at −0.8 (a noisy drone cut half a cycle off) by 7 dB. When nothing repeats, such ends do not
    /// count as matching, however long the loop.
    public static let antiPhaseCorrelation = -0.1

    /// Scores this close (0.6 × correlation + 0.4 × spectral similarity) are a tie, where the longer loop ranks first:
    /// its repetition shows less.
    public static let nearEqualScore = 0.002

    /// `candidates` best first: each place goes to the longest of those that score within ``nearEqualScore`` of the
    /// best left (the first of them in score order at equal length). A choice made place by place is an order,
    /// where a comparison that calls near-equal scores a tie is none (a ties b, b ties c, a beats c).
    static func rankedByScore(_ candidates: [Candidate]) -> [Candidate] {
        var left = candidates.sorted { $0.score > $1.score }
        var ranked: [Candidate] = []
        ranked.reserveCapacity(left.count)
        while let top = left.first?.score {
            var pick = 0
            var k = 1
            while k < left.count, left[k].score >= top - nearEqualScore {
                if left[k].end - left[k].start > left[pick].end - left[pick].start { pick = k }
                k += 1
            }
            ranked.append(left.remove(at: pick))
        }
        return ranked
    }

    /// Where candidate loops may start.
    public enum StartMode: String, Sendable, Codable {
        /// The loop starts where the sustain starts (frame 0 for material without an attack).
        case keep
        /// The loop may start anywhere in the sustain.
        case free
    }

    /// Search constraints.
    public struct Options: Sendable, Equatable {
        /// The shortest loop, in frames; `nil` for 1 s, or half the file or half of `maxLength` when shorter.
        public var minLength: Int?
        /// The longest loop, in frames; `nil` for as long as the file allows.
        public var maxLength: Int?
        /// The crossfade the loop will be baked with: that much material must follow the loop end.
        public var crossfade: Int
        public var startMode: StartMode
        /// How many candidates to return.
        public var count: Int

        public init(
            minLength: Int? = nil, maxLength: Int? = nil, crossfade: Int = 0, startMode: StartMode = .keep,
            count: Int = 5
        ) {
            self.minLength = minLength
            self.maxLength = maxLength
            self.crossfade = crossfade
            self.startMode = startMode
            self.count = count
        }
    }

    /// One candidate loop.
    public struct Candidate: Sendable, Codable, Equatable {
        public var start: Int64
        public var end: Int64
        /// 0 ... 1, higher is better.
        public var score: Double
        /// Why it scores and ranks as it does, in words.
        public var reasons: [String]
        /// The waveform correlation over the match window.
        public var correlation: Double
        /// RMS difference of the two windows' third-octave band levels, dB (level included).
        public var spectralDistance: Double = 0
        /// Mean band level after the joint minus before, dB.
        public var levelDifference: Double = 0

        /// The candidate's loop, `start ..< end`.
        public var region: LoopRegion { LoopRegion(start: start, end: end) }
    }

    /// What `find` found.
    public struct Result: Sendable {
        /// Whether the file's own loop (embedded, sidecar or the whole file) already loops cleanly.
        public var wholeFileLoops: Bool
        /// The candidates, best first.
        public var candidates: [Candidate]
        /// The first frame of the sustain (0 when the material has no attack).
        public var sustainStart: Int
        /// The seam report of the file's own loop (``SeamRules/passes(_:loop:)``: complete when it passes;
        /// otherwise the spectral and level metrics may be left unmeasured).
        public var existingReport: SeamRules.Report
    }

    /// Finds loop points in `buffer`.
    ///
    /// - Parameters:
    ///   - existing: the file's own loop (embedded or sidecar); `nil` for the whole file.
    ///   - source: where `existing` comes from, for the reason given when it already loops cleanly.
    /// - Throws: `EnsoError` `.invalidInput` when the constraints cannot be met in this file.
    public static func find(
        _ buffer: AudioBuffer, existing: LoopRegion? = nil, source: LoopVerifier.LoopSource = .embedded,
        options: Options = Options()
    ) throws(EnsoError) -> Result {
        let n = buffer.frameCount
        let sr = buffer.sampleRate.hertz
        let region = existing ?? LoopRegion(start: 0, end: FramePosition(n))
        guard region.start >= 0, region.end <= FramePosition(n), region.length >= 2 else {
            throw EnsoError(
                .invalidInput, "the loop \(region.start)..<\(region.end) does not hold 2 frames of the \(n)")
        }
        let report = SeamRules.passes(buffer, loop: Int(region.start)..<Int(region.end))
        let maxLength = options.maxLength ?? n
        guard (options.minLength ?? 2) >= 2, maxLength >= (options.minLength ?? 2) else {
            throw EnsoError(.invalidInput, "--min-length must be at least 2 frames and not above --max-length")
        }
        let length = Int(region.length)
        // The file's own loop is judged against the limits the caller gave: the default shortest length is for the
        // search (a designer's sustain loop of a few pitch periods is the answer when it passes).
        let fits = length >= (options.minLength ?? 2) && length <= (options.maxLength ?? n)
        if report.seamPasses && fits
            && Int64(n) - region.end >= Int64(options.crossfade)
        {
            let c = Candidate(
                start: region.start, end: region.end, score: 1,
                reasons: [
                    existing == nil
                        ? "the whole file already loops cleanly"
                        : "the \(source == .sidecar ? "sidecar's" : "embedded") loop already loops cleanly"
                ],
                correlation: 1)
            return Result(wholeFileLoops: true, candidates: [c], sustainStart: 0, existingReport: report)
        }
        // A designer's loop (embedded or sidecar) that verify only warns on is heard as a loop all the same: it ranks
        // first, ahead of whatever the search finds (which starts where the sustain starts, often in the attack's
        // settling that a designer loops past).
        // A seam that already fails on the cheap metrics fails whole; one that warns there is measured whole (the
        // spectral and level metrics were left out) to tell whether it only warns.
        var warned: SeamRules.Report?
        if existing != nil, fits, Int64(n) - region.end >= Int64(options.crossfade), report.verdict == .warn {
            let whole = SeamRules.judge(buffer, loop: Int(region.start)..<Int(region.end))
            if whole.verdict == .warn { warned = whole }
        }
        // A whole file that fails only for stray frames at its ends (when its length is allowed) is mended without
        // them: read before the search's mono mix is made (a whole file's junctions each hold a turned copy of it).
        let lengths = (options.minLength ?? 2)...maxLength
        let strays =
            existing == nil && !report.seamPasses && report.verdict == .fail
            ? strayFramesMended(buffer, region: region, report: report).flatMap {
                lengths.contains(Int($0.end - $0.start)) ? $0 : nil
            }
            : nil
        let mono = buffer.monoMix()
        let sustain = sustainStart(mono, sampleRate: sr)
        // The match window: 250 ms, or a quarter of what follows the attack in a short sample (a sampled note of
        // 0.3 s; 20 ms still holds several pitch periods of any note above 100 Hz).
        let window = max(options.crossfade, min(sr / 4, max(sr / 50, (n - sustain) / 4)))
        let latestEnd = n - window
        let spectrumSize = Self.spectrumSize(window: window)
        let bands = SpectralBands(size: spectrumSize, sampleRate: sr)
        let fft = RealFFT.pooled(size: spectrumSize)
        defer { RealFFT.recycle(fft) }
        // A designer's loop that fails is mended when moving its end a little makes it pass: it then ranks first. So
        // does a whole file that fails only for stray frames at its ends, without them (`strays`).
        let mended: Candidate?
        if existing == nil {
            mended = strays
        } else if warned != nil || report.seamPasses {
            mended = nil
        } else {
            mended = mendedCandidate(
                buffer, mono: mono, region: region, source: source, window: window, lengths: lengths,
                crossfade: options.crossfade, bands: bands, fft: fft)
        }
        let kept =
            warned.map { report in
                (
                    candidate: keptCandidate(
                        mono, region: region, source: source, report: report, window: window, sampleRate: sr,
                        bands: bands, fft: fft),
                    report: report
                )
            } ?? mended.map { (candidate: $0, report: report) }
        // Default: 1 s, or half of what the sustain leaves for a loop, or half of --max-length, whichever is shortest.
        let minLength = options.minLength ?? max(2, min(sr, (latestEnd - sustain) / 2, maxLength / 2))
        if let kept, !(minLength <= maxLength && latestEnd - sustain >= minLength) {
            return Result(
                wholeFileLoops: false, candidates: [kept.candidate], sustainStart: sustain, existingReport: kept.report)
        }
        guard minLength <= maxLength, latestEnd - sustain >= minLength else {
            let seconds = { (frames: Int) in Double(frames) / Double(sr) }
            throw EnsoError(
                .invalidInput,
                latestEnd - sustain < 2
                    ? String(
                        format:
                            "the file is %.3f s long: too short to search; the attack (%.3f s) and the %.3f s matched after a loop's end leave no room for a loop",
                        seconds(n), seconds(sustain), seconds(window))
                    : String(
                        format:
                            "the file is %.3f s long: too short for a loop of at least %.3f s after the attack (%.3f s) with %.3f s to match after its end",
                        seconds(n), seconds(minLength), seconds(sustain), seconds(window)))
        }
        let factor = max(1, sr / 4000)
        let decimated = CrossCorrelation.decimate(mono, by: factor)
        let starts: [Int]
        switch options.startMode {
        case .keep: starts = [sustain]
        case .free:
            let last = latestEnd - minLength
            starts = (0..<8).map { sustain + (last - sustain) * $0 / 7 }.reduce(into: [Int]()) {
                if !$0.contains($1) { $0.append($1) }
            }
        }
        var found: [Candidate] = []
        var spread = 0.0
        // The candidates that start at `s`: the coarse correlation peaks and the pulse multiples as ends, each refined
        // to the sample and scored; and the spread of the coarse correlation (for the chance level).
        func candidates(startingAt s: Int) -> (candidates: [Candidate], spread: Double) {
            let (coarse, startSpread) = coarseEnds(
                decimated, start: s, factor: factor, window: window, minLength: minLength, maxLength: maxLength,
                latestEnd: latestEnd)
            let pulsed = pulseEnds(
                report.pulsePeriod, start: s, minLength: minLength, maxLength: maxLength, latestEnd: latestEnd)
            let scored = (coarse + pulsed).compactMap { coarseEnd -> Candidate? in
                let e = refine(
                    mono, start: s, around: coarseEnd, radius: 2 * factor, window: window, minEnd: s + minLength,
                    maxEnd: min(s + maxLength, latestEnd))
                guard let e else { return nil }
                return score(
                    mono, start: s, end: e, window: window, sampleRate: sr, sustain: sustain, bands: bands, fft: fft)
            }
            return (scored, startSpread)
        }
        for s in starts {
            let (scored, startSpread) = candidates(startingAt: s)
            spread = max(spread, startSpread)
            found += scored
        }
        // A render with an intro: nothing repeats the sustain start exactly (the intro's material at best repeats
        // itself: a hum), or what repeats it exactly is the intro's own repeat (two identical halves), which the file
        // does not go on repeating. The material may repeat itself later: search from seven later starts too and keep
        // what repeats (correlation 0.9 or more) from there; the score ranks them with the rest.
        let exact = found.filter { $0.correlation >= exactRepeatCorrelation }
        if options.startMode == .keep,
            !exact.contains(where: { c in
                repeatsThroughout(
                    mono, length: Int(c.end - c.start), from: sustain, latestEnd: latestEnd, window: window)
            })
        {
            let last = latestEnd - minLength
            for i in 1..<8 where last > sustain {
                let s = sustain + (last - sustain) * i / 7
                for var c in candidates(startingAt: s).candidates where c.correlation >= repeatCorrelation {
                    c.reasons.append(
                        String(
                            format: "the material repeats from %.3f s (what precedes it, an intro, does not recur)",
                            Double(s) / Double(sr)))
                    found.append(c)
                }
            }
        }
        var ranked = rankedByScore(found)
        // No point of the file repeats the loop's start (rain, wind: nothing correlates): the joint will rest on the
        // crossfade, and the score's differences are mostly chance. The longest loop whose ends match in level
        // (within 1 dB) and in spectrum (within 1 dB of the best match) ranks first: the longer the loop, the less
        // its repetition shows.
        var lengthFirst: ((Candidate) -> Bool)?
        // Material with a steady pulse (a drone, a hum, a drip pattern: the rhythm metric measured its period)
        // repeats itself, so its correlation peaks are not chance, however many ends correlate well.
        let steadyPulse = report.repeatsAtPeriod
        let chance = steadyPulse ? 0 : chanceCorrelation(spread: spread)
        if let best = ranked.first, best.correlation < max(noRepeatCorrelation, chance) {
            var longest: [Candidate] = []
            for s in starts {
                let e = min(s + maxLength, latestEnd)
                guard e - s >= minLength else { continue }
                longest.append(
                    score(
                        mono, start: s, end: e, window: window, sampleRate: sr, sustain: sustain, bands: bands, fft: fft
                    ))
                // The correlation peaks are chance here, and so may be their levels: ends on a grid (50 ms, at most
                // 400 of them), longest first, until three match in level (a slow swell ends where it began).
                let step = max(sr / 20, (e - s - minLength) / 400)
                var matched = 0
                var end = e - step
                while end - s >= minLength && matched < 3 {
                    let c = score(
                        mono, start: s, end: end, window: window, sampleRate: sr, sustain: sustain, bands: bands,
                        fft: fft)
                    if abs(c.levelDifference) <= 1 && c.correlation >= antiPhaseCorrelation {
                        longest.append(c)
                        matched += 1
                    }
                    end -= step
                }
            }
            let all = ranked + longest
            let closest = all.map(\.spectralDistance).min() ?? 0
            // Ends out of phase do not match: a crossfade between them cancels (see ``antiPhaseCorrelation``).
            let matches = { (c: Candidate) -> Bool in
                abs(c.levelDifference) <= 1 && c.spectralDistance <= closest + 1
                    && c.correlation >= antiPhaseCorrelation
            }
            lengthFirst = matches
            let close = all.filter(matches).sorted { ($0.end - $0.start) > ($1.end - $1.start) }
            let rest = all.filter { !matches($0) }.sorted { $0.score > $1.score }
            ranked =
                close.map { c in
                    var c = c
                    c.reasons.append(
                        best.correlation < noRepeatCorrelation
                            ? String(
                                format:
                                    "nothing in the file repeats the loop start (best correlation %.2f): the joint rests on the crossfade, so the longest loop whose ends match in level and spectrum ranks first",
                                best.correlation)
                            : String(
                                format:
                                    "nothing in the file repeats the loop start (best correlation %.2f, no more than chance gives in this material: %.2f): the joint rests on the crossfade, so the longest loop whose ends match in level and spectrum ranks first",
                                best.correlation, chance))
                    return c
                } + rest
        }
        // A pulse that events keep (a recorded timer's ticks, a beat loop's kick and snare): a loop that is not a
        // whole number of its beats skips at every wrap (the rhythm metric), and a crossfade between ends out of step
        // doubles the ticks. Whole numbers of beats rank first, in the order above (a groove cut short was baked to
        // a loop of a beat and a half).
        var wholeBeats: ((Candidate) -> Bool)?
        if report.pulseOfEvents, let beat = report.pulsePeriod, beat > 0 {
            let whole = { (c: Candidate) -> Bool in
                let length = Double(c.end - c.start)
                let beats = (length / Double(beat)).rounded()
                return beats >= 1 && abs(length - beats * Double(beat)) <= SeamMetrics.eventSkipFraction * Double(beat)
            }
            wholeBeats = whole
            ranked = ranked.filter(whole) + ranked.filter { !whole($0) }
        }
        var unique: [Candidate] = []
        for c in ranked
        where !unique.contains(where: {
            abs($0.start - c.start) <= Int64(factor) && abs($0.end - c.end) <= Int64(factor)
        }) {
            unique.append(c)
        }
        if let kept = kept?.candidate {
            unique.removeAll { abs($0.start - kept.start) <= Int64(factor) && abs($0.end - kept.end) <= Int64(factor) }
        }
        ranked = Array(unique.prefix(max(1, options.count - (kept == nil ? 0 : 1))))
        if let best = ranked.first {
            let sr = Double(buffer.sampleRate.hertz)
            // After a designer's loop that ranks first, the search's candidates rank from second.
            let shift = kept == nil ? 0 : 1
            let first = kept == nil ? "ranks first" : "ranks second, the search's best"
            for i in ranked.indices {
                let c = ranked[i]
                let why: String
                if let matches = lengthFirst {
                    let matching = unique.filter(matches).count
                    why =
                        i == 0 && matching == 0
                        ? "\(first): no candidate's ends match within 1 dB in level; the best score of \(unique.count)"
                        : i == 0
                            ? "\(first): the longest of the \(matching) of \(unique.count) candidates whose ends match"
                            : matches(c)
                                ? String(
                                    format: "ranks %d: shorter (%.3f s) than %@ (%.3f s)", i + 1 + shift,
                                    kept == nil ? "the first" : "the search's best",
                                    Double(c.end - c.start) / sr, Double(best.end - best.start) / sr)
                                : String(
                                    format: "ranks %d: its ends differ by %+.2f dB in level, %.2f dB in spectrum",
                                    i + 1 + shift, c.levelDifference, c.spectralDistance)
                } else if i == 0 {
                    why = "\(first): the best match of \(unique.count) candidates"
                } else if c.score <= best.score {
                    why = String(
                        format: "ranks %d: score %.3f below the best (%.3f)", i + 1 + shift, best.score - c.score,
                        best.score)
                } else if let whole = wholeBeats, whole(best), !whole(c) {
                    why = String(
                        format:
                            "ranks %d: score %.3f, over the first's %.3f, but not a whole number of the pulse's beats",
                        i + 1 + shift, c.score, best.score)
                } else {
                    // Near-equal scores: the first is the longer loop (``rankedByScore(_:)``).
                    why = String(
                        format:
                            "ranks %d: score %.3f, within %.3f of the first's %.3f, where the longer loop ranks first (%.3f s against %.3f s)",
                        i + 1 + shift, c.score, nearEqualScore, best.score, Double(c.end - c.start) / sr,
                        Double(best.end - best.start) / sr)
                }
                ranked[i].reasons.append(why)
            }
        }
        if let kept {
            return Result(
                wholeFileLoops: false, candidates: [kept.candidate] + ranked, sustainStart: sustain,
                existingReport: kept.report)
        }
        return Result(wholeFileLoops: false, candidates: ranked, sustainStart: sustain, existingReport: report)
    }
}
