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
    /// the seam. Material whose R is below 0.5 has no steady pulse and is not measured.
    static func rhythm(_ view: LoopView) -> (metric: Metric, period: Int?) {
        let n = view.count
        let m = view.mono
        let period: Int
        switch pulsePeriod(m, sampleRate: view.sampleRate) {
        case .tooShort:
            return (skipped(
                .rhythm, String(format: "the loop is too short (%.2f s) to hold two pulses of at least 50 ms", view.seconds(n))), nil)
        case .noPulse(let best):
            return (skipped(.rhythm, String(format: "no steady pulse (best self-similarity %.2f)", best)), nil)
        case .period(let p):
            period = p
        }
        let w = min(period, n / 4)
        var across = [Float](repeating: 0, count: w)
        for j in 0..<w { across[j] = m[(n - period + j) % n] }
        let seam = CrossCorrelation.normalized(m, from: 0, across, from: 0, count: w)
        let lastStart = n - w
        var inside: [Double] = []
        for i in 0..<24 {
            let t = period + (lastStart - period) * i / 23
            inside.append(CrossCorrelation.normalized(m, from: t, m, from: t - period, count: w))
        }
        let r = inside.sorted()[inside.count / 2]
        guard r >= 0.5 else {
            return (skipped(
                .rhythm,
                String(format: "no steady pulse (self-similarity %.2f at the best period, %.3f s)", r, view.seconds(period))), period)
        }
        let value = seam / r
        let note: String
        if value < thresholds(.rhythm).pass {
            note = String(
                format: "the %.3f s pulse breaks at the seam (%.0f %% of its usual self-similarity survives)",
                view.seconds(period), max(value, 0) * 100)
        } else {
            note = String(
                format: "the %.3f s pulse carries on across the seam (%.0f %% of its usual self-similarity)",
                view.seconds(period), value * 100)
        }
        return (measured(.rhythm, value, note: note), period)
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
    /// autocorrelation, searched on a 4 kHz boxcar decimation (the first peak within 90 % of the best, screened at
    /// 0.3, then the strongest lag within ±5 % of that peak) and refined at full rate to the exact frame
    /// (``fullRatePeriod(_:around:sampleRate:)``).
    package static func pulsePeriod(_ m: [Float], sampleRate: Int) -> PulseSearch {
        let factor = max(1, sampleRate / 4000)
        let decimated = CrossCorrelation.decimate(m, by: factor)
        let minLag = Int((shortestPulseSeconds * Double(sampleRate) / Double(factor)).rounded(.up))
        let maxLag = decimated.count / 2
        guard maxLag >= minLag + 2 else { return .tooShort }
        let ac = CrossCorrelation.normalizedAutocorrelation(decimated, maxLag: maxLag)
        var best: Float = 0
        for k in minLag...maxLag { best = max(best, ac[k]) }
        // A boxcar-decimated period that falls between two decimated samples keeps only ~0.5 of its correlation,
        // so candidates are screened at 0.3 and judged on the full-rate correlation.
        guard best >= 0.3 else { return .noPulse(best) }
        var first = minLag
        for k in minLag...maxLag where ac[k] >= 0.9 * best && (k == maxLag || ac[k] >= ac[k + 1]) {
            first = k
            break
        }
        // Tonal material (a drip's ring) gives a comb of lobes a carrier period apart around the true lag, and the
        // first lobe above 90 % may be an early one: take the strongest lag within ±5 % of it.
        var coarse = first
        let spread = max(2, first / 20)
        for k in max(minLag, first - spread)...min(maxLag, first + spread) where ac[k] > ac[coarse] { coarse = k }
        return .period(fullRatePeriod(m, around: coarse * factor, sampleRate: sampleRate))
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
        guard lo < hi, length >= 64 else { return refinePeriod(m, around: center, radius: radius, sampleRate: sampleRate) }
        let r = CrossCorrelation.normalizedSliding(template: Array(m[0..<length]), in: Array(m[lo..<(hi + length)]))
        var best = 0
        for o in r.indices where r[o] > r[best] { best = o }
        return refinePeriod(m, around: lo + best, radius: 3, sampleRate: sampleRate)
    }

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
