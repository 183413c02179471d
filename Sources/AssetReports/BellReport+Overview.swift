import AssetPipeline
import AudioDSP
import Foundation

extension BellReport {
    /// Curves the decay overview draws one by one: a dozen lines on a 620-pixel plot stay apart and can be told by
    /// colour and hover; 300 are a solid block.
    static let overviewCurves = 12
    /// The density band's percentiles: the middle 80 % of the other curves, and their middle half darker.
    static let overviewBands: [(low: Double, high: Double)] = [(0.1, 0.9), (0.25, 0.75)]

    /// The decay overview: every candidate's decay (dB re its own peak) on one time axis. Up to
    /// ``overviewCurves`` candidates, each its own curve; past that, the best ``overviewCurves`` (in rank order, one
    /// per near-duplicate group) as curves, and all the others as a density band (``overviewBands``) with their
    /// median dashed, the page saying so.
    static func overview(_ candidates: [Card], media: [Sketch?], groups: ReportGroups) -> String {
        let drawable = candidates.indices.filter { media[$0]?.decay != nil }
        guard !drawable.isEmpty else { return "" }
        let many = drawable.count > overviewCurves
        let best = many ? Array(drawable.filter { groups.isLead($0) }.prefix(overviewCurves)) : drawable
        let rest = drawable.filter { !best.contains($0) }
        let longest = drawable.map { i in
            let d = media[i]!.decay!
            return d.curveStart + Double(d.curve.count) * d.curveHop
        }.max()!
        var plot = ReportPlot.decay(
            best.map { i in
                let d = media[i]!.decay!
                return (
                    label: nil, db: d.curve, hop: d.curveHop, start: d.curveStart,
                    style: curveStyle(candidates[i].verdict.rawValue)
                )
            }, seconds: longest)
        for (k, i) in best.enumerated() {
            plot.lines[k].id = "\(candidates[i].rank)"
            plot.lines[k].tooltip =
                "\(candidates[i].rank). \(name(candidates[i].file)) (\(candidates[i].verdict.rawValue))"
        }
        if !rest.isEmpty {
            let (bands, median) = density(rest.map { media[$0]!.decay! }, seconds: plot.x.range.upperBound)
            plot.bands = bands
            plot.lines.insert(.init(points: median, style: "density-median", dashed: true), at: 0)
        }
        plot.width = 620
        plot.height = 340
        plot.description =
            many
            ? "the decay of the best \(best.count) candidates, and of the other \(rest.count) as a band, dB re peak"
            : "the decay of every candidate, dB re its own peak, on one time axis"
        var s = plot.svg(
            title: many
                ? "decay: the best \(best.count) and a band of the rest" : "decay of every candidate, dB re its peak")
        s +=
            "<p class=\"legend\">"
            + ["keep", "fix", "listen", "reject"].map { "<span class=\"key \(curveStyle($0))\"></span>\($0)" }
            .joined(separator: " ")
        if many {
            s +=
                " · <span class=\"key density\"></span>the other \(rest.count): the middle 80 % and (darker) the "
                + "middle half of their levels at each time, median dashed; a file that has ended counts as −80 dB."
                + " The best \(best.count) in rank order, one per near-duplicate group, are drawn one by one"
        }
        return s + " · hover a row (or Tab to its link) to find its curve</p>"
    }

    /// The percentile bands (``overviewBands``) and median of `curves` (dB re peak, −80 dB floor) at 200 times
    /// over `seconds`.
    static func density(
        _ curves: [DecayAnalysis], seconds: Double
    ) -> (bands: [ReportPlot.Band], median: [(Double, Double)]) {
        let count = 200
        let times = (0..<count).map { Double($0) * seconds / Double(count - 1) }
        var columns: [[Double]] = []
        columns.reserveCapacity(count)
        for t in times {
            let levels = curves.map { d -> Double in
                // Before its sound starts (silence the file begins with) and after the file ends, a curve is silent.
                let k = Int(((t - d.curveStart) / d.curveHop).rounded())
                return d.curve.indices.contains(k) ? max(-80, min(0, d.curve[k])) : -80
            }.sorted()
            columns.append(levels)
        }
        func percentile(_ sorted: [Double], _ p: Double) -> Double {
            let x = p * Double(sorted.count - 1)
            let (a, b) = (Int(x.rounded(.down)), min(sorted.count - 1, Int(x.rounded(.up))))
            return sorted[a] + (sorted[b] - sorted[a]) * (x - Double(a))
        }
        let bands = overviewBands.enumerated().map { k, band in
            ReportPlot.Band(
                x: times, low: columns.map { percentile($0, band.low) },
                high: columns.map { percentile($0, band.high) },
                style: k == 0 ? "density" : "density mid")
        }
        return (bands, zip(times, columns.map { percentile($0, 0.5) }).map { ($0, $1) })
    }
}
