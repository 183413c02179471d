import Foundation

extension SeamMetrics {
    /// Metric 7: a dip in level at the seam: a fade-out into the loop's end, a fade-in from its start, or a gap.
    ///
    /// The energy of all channels in 20 ms windows every 5 ms, each against the mean energy of the 400 ms centred
    /// on it: the window's dip is how many dB it sits below that mean (at most 60 dB). The seam's dip is the deepest
    /// of the windows reaching within 10 ms of the seam on the looped signal; the file's own is the deepest of the
    /// windows (and their 400 ms) inside the loop. Value: the seam's dip minus the file's own, in dB. A steady bed
    /// dips by a dB or two at random; a 50 ms fade-in from silence dips by 10 dB or more; sparse material (drips with
    /// silence between them) dips everywhere and no seam stands out. The 400 ms level step (metric 3) does not see
    /// such a dip: 25 ms of silence moves a 400 ms window's loudness by 0.3 dB.
    static func dip(_ view: LoopView) -> Metric {
        let n = view.count
        let hop = view.frames(0.005)
        let reach = 40
        let side = reach + 4
        let blocks = n / hop
        guard n >= view.frames(1.2), blocks >= 2 * side + 8 else {
            return skipped(.dip, String(format: "the loop is too short (%.2f s) for 20 ms dips against 400 ms (needs 1.2 s)", view.seconds(n)))
        }
        // Inside: blocks tiling the loop from its start. Across the seam: `side` blocks ending at the loop's end,
        // then `side` blocks from its start.
        var inside = [Double](repeating: 0, count: blocks)
        var across = [Double](repeating: 0, count: 2 * side)
        for c in 0..<view.channelCount {
            view.withChannel(c) { x in
                let e = SampleKernels.blockEnergy(x, start: 0, block: hop, count: blocks)
                for b in 0..<blocks { inside[b] += e[b] }
                // The head's blocks are the inside blocks' first ones; the tail's are aligned to the loop's end.
                let tail = SampleKernels.blockEnergy(x, start: n - side * hop, block: hop, count: side)
                for b in 0..<side {
                    across[b] += tail[b]
                    across[side + b] += e[b]
                }
            }
        }
        // Window j covers blocks j ..< j + 4; its reference, blocks j + 2 − reach ..< j + 2 + reach.
        func deepest(_ e: [Double], windows: ClosedRange<Int>) -> Double {
            var prefix = [Double](repeating: 0, count: e.count + 1)
            for b in e.indices { prefix[b + 1] = prefix[b] + e[b] }
            var worst = 0.0
            for j in windows {
                let window = prefix[j + 4] - prefix[j]
                let around = (prefix[j + 2 + reach] - prefix[j + 2 - reach]) * 4 / Double(2 * reach)
                guard around > 0 else { continue }
                worst = max(worst, window > 0 ? min(60, 10 * log10(around / window)) : 60)
            }
            return worst
        }
        let own = deepest(inside, windows: (reach - 2)...(blocks - reach - 2))
        let seam = deepest(across, windows: (side - 5)...(side + 1))
        let value = seam - own
        let note: String
        if value > thresholds(.dip).pass {
            note = String(
                format: "level dips %.1f dB at the seam (a fade or a gap at the loop's ends); the file's own dips reach %.1f dB",
                seam, own)
        } else {
            note = String(format: "no dip at the seam (%.1f dB; the file's own dips reach %.1f dB)", seam, own)
        }
        return measured(.dip, value, note: note)
    }
}
