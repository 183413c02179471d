import AudioDSP
import Foundation

/// The self-contained HTML report of `enso loops verify --html`: per file, the verdict, a waveform (SVG) and a
/// spectrogram (PNG, inline as base64) of the last second into the first, and the metrics worst first.
///
/// The page has no external references (no scripts, fonts or images from elsewhere), so it can be mailed or
/// attached to a CI run as one file.
public enum LoopReport {
    /// The whole page for `results` (files in the order given; error rows show their message).
    public static func html(results: [LoopVerifier.Result], title: String = "Loop seams") -> String {
        let counts = ["pass", "warn", "fail", "error"].map { v in "\(results.filter { $0.verdict == v }.count) \(v)" }
        var body = "<h1>\(escape(title))</h1>\n<p class=\"summary\">\(results.count) files: \(counts.joined(separator: ", "))</p>\n"
        for r in results { body += section(r) }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:2em;background:#fafafa;color:#222}
            section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:1em;margin:1em 0}
            h2{font-size:15px;margin:0 0 .4em;word-break:break-all}
            .v{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-weight:600;margin-right:.5em}
            .pass{background:#2e8540}.warn{background:#c77c02}.fail{background:#c0392b}.error{background:#555}.na{background:#999}
            table{border-collapse:collapse;margin-top:.6em}td,th{padding:2px 10px;border-bottom:1px solid #eee;text-align:left}
            td.num{text-align:right;font-variant-numeric:tabular-nums}
            img.spec{width:800px;height:128px;image-rendering:pixelated;display:block;margin-top:4px}
            </style></head><body>
            \(body)</body></html>

            """
    }

    static func section(_ r: LoopVerifier.Result) -> String {
        var s = "<section>\n<h2><span class=\"v \(r.verdict)\">\(r.verdict)</span>\(escape(r.file))</h2>\n"
        if let loop = r.loop, r.sampleRate > 0 {
            s += String(
                format: "<p>loop %lld..<%lld (%.3f s, %@)</p>\n", loop.start, loop.end,
                Double(loop.end - loop.start) / Double(r.sampleRate), r.source?.rawValue ?? "")
        }
        if !r.reasons.isEmpty {
            s += "<ul>" + r.reasons.map { "<li>\(escape($0))</li>" }.joined() + "</ul>\n"
        }
        if let excerpt = r.excerpt {
            s += excerpt.waveformSVG() + "\n"
            let png = excerpt.spectrogramPNG()
            if !png.isEmpty {
                s += "<img class=\"spec\" alt=\"spectrogram across the seam\" src=\"data:image/png;base64,\(png)\">\n"
            }
        }
        if !r.metrics.isEmpty {
            s += "<table><tr><th>metric</th><th>status</th><th>value</th><th>threshold</th><th>fails at</th><th>what it means</th></tr>\n"
            for m in r.metrics {
                let cls = m.status == .notApplicable ? "na" : m.status.rawValue
                s += "<tr><td>\(m.name.rawValue)</td><td><span class=\"v \(cls)\">\(m.status.rawValue)</span></td>"
                s += "<td class=\"num\">\(m.value.map { format($0) } ?? "—")</td>"
                s += "<td class=\"num\">\(format(m.threshold)) \(m.unit)</td><td class=\"num\">\(format(m.failThreshold)) \(m.unit)</td>"
                s += "<td>\(escape(m.note))</td></tr>\n"
            }
            s += "</table>\n"
        }
        return s + "</section>\n"
    }

    static func format(_ v: Double) -> String { String(format: abs(v) >= 100 ? "%.0f" : "%.2f", v) }

    /// Escapes text for HTML.
    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }
}
