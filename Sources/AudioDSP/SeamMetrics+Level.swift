import Foundation

extension SeamMetrics {
    /// The smallest level threshold: 0.5 dB, the just-noticeable difference in level for broadband sound.
    static let levelMinimumThreshold = 0.5

    /// The smallest level failure limit: 0.75 dB, half as much again.
    static let levelMinimumFailThreshold = 0.75

    /// The window lengths of the level step: 100 ms, 400 ms and 1.6 s (those up to a quarter of the loop).
    static let levelScales = [0.1, 0.4, 1.6]

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

    /// Metric 3: the level step across the seam, at three time scales.
    ///
    /// The energy of all channels (each channel's DC removed) in a window of T before a junction against the
    /// window of T after it, in dB, for T = 100 ms, 400 ms and 1.6 s (each T up to a quarter of the loop), and an
    /// eighth of a loop shorter than 0.8 s (``levelWindows(_:)``). The seam's step is judged against the steps at
    /// ``interiorJunctions`` junctions spread evenly over the part of the loop whose windows do not reach the seam (a
    /// junction within T of the seam would measure part of the seam's own step). Level differences in dB are near
    /// Gaussian, so the step fails past 1.28 × the interior's 99th percentile (the p99.9 of a
    /// Gaussian: one ordinary junction in a thousand) and warns past 1.14 ×; never below 0.75 and 0.5 dB (the
    /// just-noticeable difference). A slow drift that snaps back at the wrap shows best at the longest scale (the
    /// file's own steps shrink as the windows grow, the seam's does not); a step in a short loop at the shortest. The
    /// value is the seam's step at the scale where it stands out most.
    static func level(_ view: LoopView, energy: CyclicEnergy) -> Metric {
        let n = view.count
        let scales = levelWindows(view)
        guard !scales.isEmpty else {
            return skipped(
                .level,
                String(
                    format:
                        "the loop is too short (%.3f s) for a level step: it repeats ten or more times a second (needs %.1f s)",
                    view.seconds(n), shortestLevelLoop))
        }
        // −70 dBFS of mean energy per frame and channel: too quiet to hear a level step.
        let quiet = 1e-7 * Double(view.channelCount)
        var worst: Metric?
        for w in scales {
            func step(_ j: Int) -> Double? {
                let before = energy.mean(j - w, j)
                let after = energy.mean(j, j + w)
                guard before > quiet || after > quiet else { return nil }
                return 10 * log10(max(after, 1e-20) / max(before, 1e-20))
            }
            guard let seam = step(0) else { continue }
            let inside = evenly(interiorJunctions, over: w...(n - w)).compactMap { step($0).map(abs) }
            let reference = percentile(inside, 0.99)
            let threshold = max(levelMinimumThreshold, gaussianTail.warn * reference)
            let fail = max(levelMinimumFailThreshold, gaussianTail.fail * reference)
            let value = abs(seam)
            let scale = String(format: "%.0f ms", view.seconds(w) * 1000)
            let note: String
            if value > threshold {
                note = String(
                    format:
                        "level %@ %.1f dB across the seam (%@ each side; 99 %% of the loop's own steps stay under %.2f dB)",
                    seam < 0 ? "drops" : "rises", value, scale, reference)
            } else {
                note = String(
                    format:
                        "level changes %.2f dB across the seam (%@ each side; 99 %% of the loop's own steps stay under %.2f dB)",
                    seam, scale, reference)
            }
            let m = Metric(
                name: .level, value: value, threshold: threshold, failThreshold: fail, direction: .higherIsWorse,
                unit: "dB",
                note: note)
            if worst == nil || m.severity > worst!.severity { worst = m }
        }
        return worst ?? skipped(.level, "too quiet near the seam (below −70 dBFS) to measure a level step")
    }
}
