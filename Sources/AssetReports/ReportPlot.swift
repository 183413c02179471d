import AssetPipeline
import Foundation

/// An inline SVG plot with axes, ticks and labels, drawn in the page's colours (``ReportPage`` CSS classes), so
/// every figure of a report reads in light and dark schemes and scales to the card's width.
///
/// Data are given in axis units (seconds, milliseconds, dB, Hz); the plot maps them. A plot holds lines, min/max
/// bands (a waveform at any zoom), an image (a spectrogram PNG) under the axes, vertical markers (the seam, a
/// clipped run) and horizontal reference lines (a −40/−60 dB grid).
///
///     var p = ReportPlot(x: .init(-5...5, label: "ms"), y: .init(-1...1, label: "amplitude"))
///     p.lines.append(.init(points: [(-5, 0), (5, 0.5)], style: "s0"))
///     let svg = p.svg(title: "±5 ms around the seam")
struct ReportPlot {
    /// One axis: its range, label, ticks, and whether it is logarithmic.
    struct Axis {
        var range: ClosedRange<Double>
        var label: String
        var ticks: [Double]
        var log: Bool
        /// Formats a tick label.
        var format: (Double) -> String

        init(
            _ range: ClosedRange<Double>, label: String, ticks: [Double]? = nil, log: Bool = false,
            format: ((Double) -> String)? = nil
        ) {
            let r = range.lowerBound < range.upperBound ? range : range.lowerBound...(range.lowerBound + 1)
            self.range = r
            self.label = label
            self.log = log
            self.ticks = ticks ?? (log ? ReportPlot.logTicks(r) : ReportPlot.ticks(r))
            let step = self.ticks.count > 1 ? abs(self.ticks[1] - self.ticks[0]) : 1
            self.format = format ?? { v in ReportPlot.tickLabel(v, step: step) }
        }
    }

    /// A polyline in axis units; `style` is a CSS class (`s0`…`s3`), `dashed` for a ghost trace; `id` becomes
    /// its `data-c` attribute (for a script to find it), `tooltip` its hover text.
    struct Line {
        var points: [(Double, Double)]
        var style: String
        var dashed = false
        var label: String? = nil
        var id: String? = nil
        var tooltip: String? = nil
    }

    /// A filled band between `low` and `high` at each `x` (a min/max waveform envelope).
    struct Band {
        var x: [Double]
        var low: [Double]
        var high: [Double]
        var style: String
    }

    /// A vertical marker at `x` (a line), or over `x...to` (a shaded span), with an optional label.
    struct Marker {
        var x: Double
        var to: Double? = nil
        var label: String? = nil
    }

    var x: Axis
    var y: Axis
    var width = 560
    var height = 220
    var lines: [Line] = []
    var bands: [Band] = []
    var markers: [Marker] = []
    /// Horizontal reference lines drawn stronger than the grid (e.g. −40 and −60 dB).
    var references: [Double] = []
    /// A PNG (base64) stretched over the plot area, under the grid: a spectrogram.
    var imagePNG: String? = nil
    /// `alt`-like text read out for the figure.
    var description: String? = nil

    private let left = 52.0
    private let right = 12.0
    private let top = 20.0
    private let bottom = 34.0

    init(x: Axis, y: Axis, width: Int = 560, height: Int = 220) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The SVG element.
    func svg(title: String) -> String {
        let w = Double(width)
        let h = Double(height)
        let pw = w - left - right
        let ph = h - top - bottom
        // Coordinates to a tenth of a pixel, without a trailing ".0": figures are a large part of a page's bytes.
        func f(_ v: Double) -> String {
            let tenths = Int((v * 10).rounded())
            return tenths % 10 == 0 ? String(tenths / 10) : String(format: "%.1f", v)
        }
        // Path points to the nearest pixel: the plot is drawn at most at its own size, so this loses nothing seen
        // and halves the page's vector bytes.
        func p(_ v: Double) -> String { String(Int(v.rounded())) }
        func line(_ style: String, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> String {
            "<line class=\"\(style)\" x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\"/>"
        }
        func text(_ content: String, x: Double, y: Double, anchor: String, style: String? = nil) -> String {
            let c = style.map { "class=\"\($0)\" " } ?? ""
            return
                "<text \(c)x=\"\(f(x))\" y=\"\(f(y))\" text-anchor=\"\(anchor)\">\(ReportPage.escape(content))</text>"
        }
        var s =
            "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\">"
        s += "<title>\(ReportPage.escape(description ?? title))</title>"
        s += "<text class=\"title\" x=\"\(f(left))\" y=\"13\">\(ReportPage.escape(title))</text>"
        if let imagePNG {
            s += "<image x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(pw))\" height=\"\(f(ph))\" "
            s +=
                "preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" href=\"data:image/png;base64,\(imagePNG)\"/>"
        }
        // Grid and tick labels: the grid lines in one path, the tick marks in another.
        var grid = ""
        var marks = ""
        var labels = ""
        for t in x.ticks where x.range.contains(t) {
            let px = mapX(t)
            grid += "M\(f(px)) \(f(top))V\(f(top + ph))"
            marks += "M\(f(px)) \(f(top + ph))v4"
            labels += text(x.format(t), x: px, y: top + ph + 15, anchor: "middle")
        }
        for t in y.ticks where y.range.contains(t) {
            let py = mapY(t)
            grid += "M\(f(left)) \(f(py))H\(f(left + pw))"
            marks += "M\(f(left - 4)) \(f(py))h4"
            labels += text(y.format(t), x: left - 6, y: py + 4, anchor: "end")
        }
        if imagePNG == nil, !grid.isEmpty { s += "<path class=\"grid\" d=\"\(grid)\"/>" }
        if !marks.isEmpty { s += "<path class=\"axis\" d=\"\(marks)\"/>" }
        s += labels
        for r in references where y.range.contains(r) { s += line("grid strong", left, mapY(r), left + pw, mapY(r)) }
        s +=
            "<svg x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(pw))\" height=\"\(f(ph))\" viewBox=\"\(f(left)) \(f(top)) \(f(pw)) \(f(ph))\" overflow=\"hidden\">"
        for m in markers {
            if let to = m.to {
                let x0 = mapX(min(m.x, to))
                let x1 = mapX(max(m.x, to))
                s +=
                    "<rect class=\"mark\" x=\"\(f(x0))\" y=\"\(f(top))\" width=\"\(f(max(2, x1 - x0)))\" height=\"\(f(ph))\"/>"
            }
        }
        for b in bands where !b.x.isEmpty {
            var d = "M"
            // The band is at least a pixel thick, so a quiet stretch stays visible.
            for i in b.x.indices { d += "\(p(mapX(b.x[i]))) \(Int(floor(mapY(b.high[i]) - 0.5))) " }
            for i in b.x.indices.reversed() { d += "\(p(mapX(b.x[i]))) \(Int(ceil(mapY(b.low[i]) + 0.5))) " }
            s += "<path class=\"band \(b.style)\" d=\"\(d)Z\"/>"
        }
        for l in lines where !l.points.isEmpty {
            let d = l.points.map { "\(p(mapX($0.0))) \(p(mapY($0.1)))" }.joined(separator: " ")
            s += "<path class=\"line \(l.style)\(l.dashed ? " dash" : "")\" fill=\"none\""
            if let id = l.id { s += " data-c=\"\(ReportPage.escape(id))\"" }
            s += " d=\"M\(d)\""
            s += l.tooltip.map { "><title>\(ReportPage.escape($0))</title></path>" } ?? "/>"
        }
        for m in markers where m.to == nil { s += line("seam", mapX(m.x), top, mapX(m.x), top + ph) }
        s += "</svg>"
        for m in markers {
            guard let label = m.label else { continue }
            // Centred on its marker, or beside it near either edge so it is never cut.
            let px = mapX(m.to.map { (m.x + $0) / 2 } ?? m.x)
            let (x, anchor) =
                px > left + pw * 0.75 ? (px - 4, "end") : px < left + pw * 0.25 ? (px + 4, "start") : (px, "middle")
            s += text(label, x: x, y: top + 11, anchor: anchor, style: "seam")
        }
        // Axes and their labels.
        s +=
            "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(pw))\" height=\"\(f(ph))\" fill=\"none\" class=\"axis\"/>"
        s += text(x.label, x: left + pw, y: h - 4, anchor: "end")
        s +=
            "<text transform=\"translate(11 \(f(top + ph / 2))) rotate(-90)\" text-anchor=\"middle\">\(ReportPage.escape(y.label))</text>"
        // Legend, right-aligned in the title row.
        var lx = w - right
        for l in lines.reversed() {
            guard let label = l.label else { continue }
            let width = Double(label.count) * 6.2 + 22
            lx -= width
            s +=
                "<line class=\"line \(l.style)\(l.dashed ? " dash" : "")\" x1=\"\(f(lx))\" y1=\"9\" x2=\"\(f(lx + 14))\" y2=\"9\"/>"
            s += "<text x=\"\(f(lx + 17))\" y=\"13\">\(ReportPage.escape(label))</text>"
        }
        return s + "</svg>"
    }

    func mapX(_ v: Double) -> Double {
        let pw = Double(width) - left - right
        return left + fraction(v, x) * pw
    }

    func mapY(_ v: Double) -> Double {
        let ph = Double(height) - top - bottom
        return top + (1 - fraction(v, y)) * ph
    }

    private func fraction(_ v: Double, _ a: Axis) -> Double {
        if a.log {
            let lo = log10(a.range.lowerBound)
            let hi = log10(a.range.upperBound)
            return (log10(max(v, a.range.lowerBound * 1e-3)) - lo) / (hi - lo)
        }
        return (v - a.range.lowerBound) / (a.range.upperBound - a.range.lowerBound)
    }

    /// About `count` round ticks (steps of 1, 2 or 5 × 10^n) covering `range`.
    static func ticks(_ range: ClosedRange<Double>, count: Int = 5) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else { return [range.lowerBound] }
        let raw = span / Double(max(count, 1))
        let mag = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * mag }.first { $0 >= raw } ?? 10 * mag
        var t = ceil(range.lowerBound / step - 1e-9) * step
        var out: [Double] = []
        while t <= range.upperBound + step * 1e-9 {
            out.append(abs(t) < step * 1e-9 ? 0 : t)
            t += step
        }
        return out
    }

    /// Ticks at 1, 2 and 5 × 10^n inside a positive `range` (a frequency axis).
    static func logTicks(_ range: ClosedRange<Double>) -> [Double] {
        guard range.lowerBound > 0 else { return ticks(range) }
        var out: [Double] = []
        var decade = pow(10, floor(log10(range.lowerBound)))
        while decade <= range.upperBound {
            for m in [1.0, 2, 5] where range.contains(m * decade) { out.append(m * decade) }
            decade *= 10
        }
        return out
    }

    /// A tick label with as many decimals as the step needs; thousands of a frequency axis as "2k".
    static func tickLabel(_ v: Double, step: Double) -> String {
        if abs(v) >= 1000 && v.truncatingRemainder(dividingBy: 1000) == 0 { return "\(Int(v / 1000))k" }
        if abs(v) >= 1000 && v.truncatingRemainder(dividingBy: 100) == 0 { return ReportPage.number(v / 1000) + "k" }
        let digits = step >= 1 ? 0 : min(4, Int(ceil(-log10(step) - 1e-9)))
        return ReportPage.number(v, digits: digits)
    }
}
