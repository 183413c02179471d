import Foundation

extension SeamMetrics {
    /// The window lengths of the level step, an octave apart: 100, 200, 400 and 800 ms and 1.6 s (those up to a quarter
    /// of the loop). A level change is read at a window within √2 of its own length: with only 100 ms, 400 ms and
    /// 1.6 s, a change over 200–800 ms was read at a window up to twice too short (the material's own movement
    /// around it) or twice too long (diluted): a fire loop of Minetest rises 2.1 dB across its seam at 800 ms against
    /// its own 1.30 dB, 1.7 dB at 400 ms against 1.44 (forty-ninth session).
    static let levelScales = [0.1, 0.2, 0.4, 0.8, 1.6]

    /// The shortest loop whose level and dips are judged: 0.1 s. Each side of its seam then lasts 50 ms or more,
    /// long enough to be heard as a level of its own; a shorter loop repeats ten or more times a second, a cycle of
    /// a waveform (a designer's sustain loop of a few periods) whose seam is heard as the loop's own timbre and is
    /// judged by the continuity, click and phase metrics.
    public static let shortestLevelLoop = 0.1

    /// The window lengths of the level step for a loop of `n` frames: the ``levelScales`` up to a quarter of the
    /// loop, and for a loop too short for 100 ms to be an eighth of it (under 0.8 s, from ``shortestLevelLoop``),
    /// also an eighth of the loop, so that its seam is judged at a scale whose ordinary junctions exist: the two
    /// windows cover a quarter of the loop, and the junctions whose windows do not reach the seam span the other
    /// three quarters.
    static func levelWindows(_ view: LoopView) -> [Int] {
        let n = view.count
        var scales = levelScales.map { view.frames($0) }.filter { 4 * $0 <= n }
        if n < 8 * view.frames(levelScales[0]) && n >= view.frames(shortestLevelLoop) { scales.insert(n / 8, at: 0) }
        return scales
    }

    /// Metric 3: the level step across the seam, at time scales an octave apart.
    ///
    /// The energy of all channels (each channel's DC removed) in a window of T before a junction against the
    /// window of T after it, in dB, for T = 100, 200, 400 and 800 ms and 1.6 s (each T up to a quarter of the loop),
    /// and an eighth of a loop shorter than 0.8 s (``levelWindows(_:)``). The seam's step is judged against the steps
    /// at ``interiorJunctions`` junctions spread evenly over the part of the loop whose windows do not reach the seam
    /// (a junction within T of the seam would measure part of the seam's own step): one measure per scale, with the
    /// interior's 99th percentile as its evidence, from which the judgment side's limits rise. A slow drift that
    /// snaps back at the wrap shows best at the longest scale (the file's own steps shrink as the windows grow, the
    /// seam's does not); a step in a short loop at the shortest. Scales too quiet near the seam (below −70 dBFS) are
    /// left out.
    ///
    /// A loop with a `pattern` whose waveform repeats (``Pattern/repeats``) and that holds four or more of its periods
    /// is also read at the pattern's period: every such window holds the same events wherever it lies, so a beat
    /// loop's own rise and fall with its beats (10-20 dB at 100 and 400 ms) averages out and a drift of the whole mix
    /// that snaps back at the wrap stands out (a 2-bar loop has no 1.6 s scale; 3 dB drifts over 48 drum loops passed
    /// 19 times and warned 8).
    static func level(_ view: LoopView, energy: CyclicEnergy, pattern: Pattern?) -> [Measure] {
        let n = view.count
        var scales = levelWindows(view)
        // The pattern's period, where the loop holds four or more: every window of it holds the same events.
        var period: Int?
        if let pattern, pattern.repeats {
            let w = n / max(1, Int((view.seconds(n) / pattern.seconds).rounded()))
            if 4 * w <= n {
                period = w
                if !scales.contains(w) { scales.append(w) }
            }
        }
        guard !scales.isEmpty else {
            return [skipped(.level, .tooShortForLevel(seconds: view.seconds(n)))]
        }
        // −70 dBFS of mean energy per frame and channel: too quiet to hear a level step.
        let quiet = 1e-7 * Double(view.channelCount)
        var steps: [Measure] = []
        for w in scales {
            func step(_ j: Int) -> Double? {
                let before = energy.mean(j - w, j)
                let after = energy.mean(j, j + w)
                guard before > quiet || after > quiet else { return nil }
                return 10 * log10(max(after, 1e-20) / max(before, 1e-20))
            }
            guard let seam = step(0) else { continue }
            let inside = evenly(interiorJunctions, over: w...(n - w)).compactMap { step($0).map(abs) }
            // The pattern's places whose windows do not reach the seam, as the ordinary junctions'.
            let atPattern = (pattern?.junctions ?? []).filter { $0 >= w && $0 <= n - w }.compactMap {
                step($0).map(abs)
            }
            let (reference, place) = ownReference(percentile(inside, 0.99), atPattern: atPattern, pattern)
            steps.append(
                measured(
                    .level, abs(seam),
                    .level(step: seam, reference: reference, window: view.seconds(w), period: w == period),
                    pattern: place))
        }
        return steps.isEmpty ? [skipped(.level, .quietAtSeam)] : steps
    }
}
