import AssetPipeline
import Foundation

extension ReportPlot {
    /// Decay curves on one time axis in seconds, in dB re each sound's peak from 0 down to −80, with the −40 and
    /// −60 dB lines drawn stronger: several bells on one plot compare at a glance (a 14 s and an 18 s decay
    /// look different).
    ///
    /// - Parameters:
    ///   - curves: each sound's envelope in dB re its peak every `hop` seconds from `start` (the time of its first
    ///     value on the file's clock: ``DecayAnalysis/curveStart``), with a legend label and a CSS style (`s0`…`s3`).
    ///   - seconds: the time axis' length (default: the longest curve).
    static func decay(
        _ curves: [(label: String?, db: [Double], hop: Double, start: Double, style: String)], seconds: Double? = nil
    ) -> ReportPlot {
        let longest = curves.map { $0.start + Double($0.db.count) * $0.hop }.max() ?? 1
        var plot = ReportPlot(
            x: .init(0...max(seconds ?? longest, 0.1), label: "s"), y: .init(-80...0, label: "dB re peak"))
        plot.references = [-40, -60]
        for c in curves {
            // One point per 1/120 of the axis (four pixels on a card's figure) keeps the SVG small at any length;
            // a decay curve bends slowly enough that straight lines between them look the same.
            let step = max(1, Int(plot.x.range.upperBound / c.hop / 120))
            let points = stride(from: 0, to: c.db.count, by: step).map { i in
                (c.start + Double(i) * c.hop, max(-80, min(0, c.db[i])))
            }
            plot.lines.append(.init(points: points, style: c.style, label: c.label))
        }
        return plot
    }
}
