import AudioCore
import Foundation

extension SeamMetrics {
    /// The smallest level threshold: 0.5 dB. A file whose own momentary loudness wanders more gets a higher one.
    static let levelMinimumThreshold = 0.5

    /// Metric 3: the level step across the seam.
    ///
    /// Momentary loudness (EBU R 128, 400 ms windows, K-weighted by libebur128 through ``LoudnessMeter``) of the
    /// last 400 ms of the loop vs the first 400 ms, measured on the looped signal (with 200 ms of the loop's tail
    /// before as filter lead-in). The value is the absolute difference in dB (LU). The threshold is 0.5 dB or the
    /// largest difference between adjacent 400 ms windows in the 10 s either side of the seam (every 10 ms; in loops
    /// of 3.6 s or more, windows reaching into the loop's first or last 400 ms, the seam's own, left out) plus 5 %
    /// (the seam is read at its exact position, the file's own steps on a 10 ms grid), whichever is larger: pulsed
    /// material (drips) swings by many dB between windows, and the seam may swing as much as the file does. The
    /// failure limit is 1.5× the threshold.
    static func level(_ view: LoopView) -> Metric {
        let n = view.count
        let window = view.frames(0.4)
        let hop = view.frames(0.01)
        let warm = view.frames(0.2)
        guard n >= 3 * window else {
            return skipped(
                .level, String(format: "the loop is too short (%.2f s) for 400 ms loudness windows (needs 1.2 s)", view.seconds(n)))
        }
        let rate = SampleRate(checked: view.sampleRate)
        guard let channels = ChannelCount(view.channelCount),
            let across = try? LoudnessMeter(channels: channels, sampleRate: rate, truePeak: false, momentaryOnly: true)
        else {
            return skipped(.level, "libebur128 cannot meter \(view.channelCount) channels at \(view.sampleRate) Hz")
        }
        // Across the seam: tail (with lead-in), read, then head, read.
        let lead = min(window + warm, n - window)
        let seamData = (0..<view.channelCount).map { c in
            view.withChannel(c) { x in Array(x[(n - lead)..<n]) + Array(x[0..<window]) }
        }
        let seamBuffer = AudioBuffer(channelData: seamData, sampleRate: rate)
        across.add(seamBuffer, from: 0, frames: lead)
        let before = across.momentary
        across.add(seamBuffer, from: lead, frames: window)
        let after = across.momentary
        // Inside: momentary every hop once a full window has been fed, over the loop's first and last 10 s (the
        // whole loop when it is shorter than 20 s): K-weighting the whole of a long loop is the costliest step.
        let reach = view.frames(10)
        let ranges = n <= 2 * reach ? [0..<n] : [0..<reach, (n - reach)..<n]
        var steps: [Double] = []
        for range in ranges {
            let inFile = (view.loop.lowerBound + range.lowerBound)..<(view.loop.lowerBound + range.upperBound)
            guard
                let series = try? LoudnessAnalysis.momentarySeries(
                    view.buffer, frames: inFile, hopSeconds: rate.seconds(frames: Int64(hop)))
            else { continue }
            // Read k covers the window ending `(k + 1) · hop` frames into the part. Reads before a full window and
            // the filter's lead-in have been fed are dropped, and so is a last read after a partial hop. In a loop
            // long enough to keep 2 s of steps without them, so are windows reaching into the loop's first or last
            // 400 ms: those are the seam's own (a short fade-out before the end would otherwise excuse itself as
            // one of the file's steps). Shorter loops keep them: pulsed material needs every step it has.
            let lb = range.lowerBound
            let edge = n >= 9 * window ? window : 0
            let first = max((window + warm + hop - 1) / hop - 1, (edge + window - lb + hop - 1) / hop - 1)
            let last = min(range.count / hop, series.values.count, (n - edge - lb) / hop) - 1
            let settled = first <= last ? Array(series.values[first...last]) : []
            steps += adjacentSteps(settled, stride: max(1, window / hop))
        }
        guard before > -70 || after > -70 else {
            return skipped(.level, "too quiet near the seam (below −70 LUFS) to measure a level step")
        }
        let own = steps.max() ?? 0
        // The seam is read at its exact position, the file's own steps every 10 ms: for a sharp pulse the largest
        // of those can miss its true peak by a few percent (0.2 dB of a 21.7 dB drip step), hence 5 % of slack.
        let threshold = max(levelMinimumThreshold, own * 1.05)
        let step = after - before
        let value = abs(step)
        let note: String
        if value > threshold {
            note = String(format: "level %@ %.1f dB across the seam", step < 0 ? "drops" : "rises", value)
        } else {
            note = String(format: "level changes %.2f dB across the seam (the file's own steps reach %.2f dB)", step, own)
        }
        return Metric(
            name: .level, value: value, threshold: threshold, failThreshold: threshold * 1.5, direction: .higherIsWorse,
            unit: "dB", note: note)
    }

    /// |L(t + 400 ms) − L(t)| between momentary loudness readings `stride` hops apart (both windows louder than
    /// −70 LUFS).
    static func adjacentSteps(_ series: [Double], stride: Int) -> [Double] {
        var steps: [Double] = []
        if series.count > stride {
            for k in 0..<(series.count - stride) where series[k] > -70 && series[k + stride] > -70 {
                steps.append(abs(series[k + stride] - series[k]))
            }
        }
        return steps
    }
}
