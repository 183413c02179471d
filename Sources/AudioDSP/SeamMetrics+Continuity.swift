import Foundation

extension SeamMetrics {
    /// Guard around the seam excluded from the "elsewhere" statistics: 5 ms each side.
    static let seamGuardSeconds = 0.005

    /// Metric 1: the sample jump and slope change at the wrap, per channel, relative to the largest step
    /// (|x[i+1] − x[i]|) and the largest slope change (|x[i+1] − 2x[i] + x[i−1]|) anywhere else in the loop.
    ///
    /// The value is the worse of the two ratios over all channels. A perfect loop of material that repeats
    /// inside the file scores at most 1, since the seam's step also occurs inside.
    static func continuity(_ view: LoopView) -> Metric {
        let n = view.count
        let guardFrames = max(2, view.frames(seamGuardSeconds))
        guard n >= 2 * guardFrames + 8 else {
            return skipped(.continuity, "the loop is too short (\(n) frames) to compare the seam with the rest")
        }
        var worst = 0.0
        var worstChannel = 0
        var worstIsSlope = false
        var worstJump: Float = 0
        for c in 0..<view.channelCount {
            let (maxStep, maxCurve, jump, curve) = view.withChannel(c) { x in
                let (step, bend) = SampleKernels.largestStepAndCurve(x, guardFrames..<(n - guardFrames))
                return (step, bend, x[0] - x[n - 1], max(abs(x[0] - 2 * x[n - 1] + x[n - 2]), abs(x[1] - 2 * x[0] + x[n - 1])))
            }
            // A floor of 1e-6 (−120 dBFS) keeps a constant channel from dividing by zero; any real step beats it.
            let stepRatio = Double(abs(jump)) / Double(max(maxStep, 1e-6))
            let curveRatio = Double(curve) / Double(max(maxCurve, 1e-6))
            if stepRatio > worst { (worst, worstChannel, worstIsSlope, worstJump) = (stepRatio, c, false, jump) }
            if curveRatio > worst { (worst, worstChannel, worstIsSlope, worstJump) = (curveRatio, c, true, jump) }
        }
        let ch = view.channelCount > 1 ? " on channel \(worstChannel + 1)" : ""
        let note: String
        if worst <= thresholds(.continuity).pass {
            note = String(
                format: "the waveform continues smoothly across the seam (%.2f× the largest step or slope change elsewhere)",
                worst)
        } else if worstIsSlope {
            note = String(format: "the waveform bends sharply at the seam%@ (%.2f× the largest slope change elsewhere)", ch, worst)
        } else {
            note = String(
                format: "the waveform jumps by %.4f at the seam%@ (%.2f× the largest step elsewhere)", Double(worstJump), ch, worst)
        }
        return measured(.continuity, worst, note: note)
    }

    /// Metric 4: high-band transient energy at the seam vs the file's own.
    ///
    /// The high band is the second difference x[i+1] − 2x[i] + x[i−1] (gain rising 12 dB per octave, +12 dB at
    /// Nyquist, −35 dB at 1 kHz for 48 kHz audio). Its energy in a window of about 1.5 ms (four quarter windows:
    /// 72 frames at 48 kHz, 64 at 44.1 kHz) centred on the seam is compared with the largest energy in any such
    /// window elsewhere (windows every quarter window). Value: the ratio in dB.
    static func click(_ view: LoopView) -> Metric {
        let n = view.count
        let hop = max(2, view.frames(0.0015) / 4)
        let w = 4 * hop
        let guardFrames = max(2, view.frames(seamGuardSeconds)) + w
        guard n >= 2 * guardFrames + 4 * w else {
            return skipped(.click, "the loop is too short (\(n) frames) to compare the seam with the rest")
        }
        var seamEnergy = 0.0
        var reference = 0.0
        // Windows start at guardFrames + j·hop and hold d[start + 1 ... start + w] while start + w < n − guardFrames.
        let windows = (n - 2 * guardFrames - w - 1) / hop + 1
        for c in 0..<view.channelCount {
            // Second differences of the wrapped signal around the seam.
            let (e, blocks) = view.withChannel(c) { x in
                var e = 0.0
                for k in -(w / 2)..<(w - w / 2) {
                    let i = (k + n) % n
                    let d = x[(i + 1) % n] - 2 * x[i] + x[(i - 1 + n) % n]
                    e += Double(d * d)
                }
                return (e, SampleKernels.curvatureEnergy(x, start: guardFrames + 1, block: hop, count: windows + 3))
            }
            seamEnergy += e
            var best = 0.0
            for j in 0..<windows { best = max(best, blocks[j] + blocks[j + 1] + blocks[j + 2] + blocks[j + 3]) }
            reference += best
        }
        // Floor at 1e-14 (about −140 dB): digital silence elsewhere still gives a finite, huge ratio for any click.
        let ratio = 10 * log10(max(seamEnergy, 1e-14) / max(reference, 1e-14))
        let note: String
        if ratio > thresholds(.click).pass {
            note = String(format: "a click at the seam: high-band energy %.1f dB above the loudest moment elsewhere", ratio)
        } else {
            note = String(format: "high-band energy at the seam is %.1f dB relative to the loudest moment elsewhere", ratio)
        }
        return measured(.click, ratio, note: note)
    }

    /// Metric 5: the DC offset, the mean of each channel over the loop, in percent of full scale (worst channel).
    static func dcOffset(_ view: LoopView) -> Metric {
        var worst = 0.0
        var worstChannel = 0
        var signedWorst = 0.0
        for c in 0..<view.channelCount {
            let mean = view.withChannel(c) { SampleKernels.sum($0) } / Double(max(view.count, 1))
            if abs(mean) * 100 > worst { (worst, worstChannel, signedWorst) = (abs(mean) * 100, c, mean) }
        }
        let ch = view.channelCount > 1 ? " on channel \(worstChannel + 1)" : ""
        let db = 20 * log10(max(abs(signedWorst), 1e-12))
        let note = String(format: "DC offset of %+.2f %% (%.0f dBFS)%@", signedWorst * 100, db, ch)
        return measured(.dcOffset, worst, note: note)
    }
}
