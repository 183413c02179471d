import AudioDSP
import Foundation

/// The two pictures the HTML report shows per candidate, made while the candidate is measured (so the
/// spectrogram need not be kept): a spectrogram PNG (0–8 kHz, 70 dB range) and a decay-curve SVG (the
/// envelope and the Schroeder curve, 0 to −80 dB).
public struct BellReportFigures: Sendable {
    /// PNG bytes of the spectrogram.
    public var spectrogramPNG: [UInt8]
    /// A self-contained `<svg>` element.
    public var decaySVG: String

    public static let width = 320
    public static let height = 120

    public init(spectrogram s: Spectrogram, decay: DecayAnalysis) {
        let w = Self.width
        let h = Self.height
        var pixels = [UInt8](repeating: 0, count: w * h)
        let maxBin = min(s.binCount - 1, Int(8000 / s.binHertz))
        var top = -200.0
        for k in 0..<s.frameCount { for b in 0...maxBin { top = max(top, s.decibels(frame: k, bin: b)) } }
        if s.frameCount > 0 && maxBin > 0 {
            for x in 0..<w {
                let k = min(s.frameCount - 1, x * s.frameCount / w)
                for y in 0..<h {
                    let b0 = (h - 1 - y) * maxBin / h
                    let b1 = max(b0 + 1, (h - y) * maxBin / h)
                    var v = -200.0
                    for b in b0..<min(b1, maxBin + 1) { v = max(v, s.decibels(frame: k, bin: b)) }
                    let t = min(1, max(0, (v - (top - 70)) / 70))
                    pixels[y * w + x] = UInt8((t * 255).rounded())
                }
            }
        }
        // A dark-blue → orange → pale-yellow ramp.
        let palette: [(UInt8, UInt8, UInt8)] = (0..<256).map { i in
            let t = Double(i) / 255
            return (
                UInt8(min(255, 20 + 235 * min(1, t * 1.4))), UInt8(min(255, 10 + 230 * t * t)),
                UInt8(60 * (1 - t) + 120 * t * t * t)
            )
        }
        spectrogramPNG = LoopReport.PNG.encode(width: w, height: h, pixels: pixels, palette: palette)

        func path(_ ys: [Double], step: Double) -> String {
            guard !ys.isEmpty else { return "" }
            let total = max(step * Double(ys.count), 0.001)
            let stride = max(1, ys.count / 400)
            var parts: [String] = []
            var i = 0
            while i < ys.count {
                let x = Double(i) * step / total * Double(w)
                let y = min(Double(h), max(0, -ys[i] / 80 * Double(h)))
                parts.append(String(format: "%@%.1f,%.1f", parts.isEmpty ? "M" : "L", x, y))
                i += stride
            }
            return parts.joined(separator: " ")
        }
        let env = path(decay.curve, step: decay.curveHop)
        let offset = Int((decay.peakTime / decay.curveHop).rounded())
        let edc = path([Double](repeating: 0, count: offset) + decay.schroeder, step: decay.curveHop)
        var grid = ""
        for db in stride(from: 20, through: 60, by: 20) {
            let y = Double(db) / 80 * Double(h)
            grid += String(format: "<line x1=\"0\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>", w, y, y)
            grid += String(format: "<text x=\"2\" y=\"%.1f\">−%d dB</text>", y - 2, db)
        }
        decaySVG = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)" \
            role="img" aria-label="decay curve">\(grid)<path d="\(env)" class="env"/><path d="\(edc)" class="edc"/></svg>
            """
    }
}
