import AudioFile
import Foundation

/// The self-contained HTML page of a bell audition (`enso bells audition --html REPORT`).
///
/// No network: styles and the sorting script are inline, images are inline (`data:` PNG spectrograms,
/// inline SVG decay curves). Audio is *not* embedded (40 bells would make a page of hundreds of MB):
/// each `<audio>` refers to the candidate by a file URL relative to the report's folder, so the page
/// plays as long as it stays next to the files it was made for.
public enum BellReport {
    /// Renders the page. `reportPath` is where it will be written (for relative audio links).
    public static func html(
        _ entries: [(result: BellAuditionResult, figures: BellReportFigures?)], profile: BellProfile,
        reportPath: String
    ) -> String {
        let folder = URL(fileURLWithPath: reportPath).deletingLastPathComponent().standardizedFileURL.path
        var rows = ""
        var cards = ""
        for (r, fig) in entries {
            let m = r.metrics
            func n(_ v: Double?, _ fmt: String) -> (String, String) {
                guard let v else { return ("–", "") }
                return (String(format: fmt, v), String(v))
            }
            let cells: [(String, String)] = [
                (String(r.rank), String(r.rank)), (esc(r.file), esc(r.file)),
                (r.verdict.rawValue, String(r.verdict.rank)), (r.bellClass?.rawValue ?? "–", r.bellClass?.rawValue ?? ""),
                n(r.score, "%.0f"), n(m?.loudness.integrated, "%.1f"), n(m?.decay40, "%.2f"),
                n(m?.t20, "%.2f"), n(m.map { $0.attack * 1000 }, "%.1f"), n(m?.earlyCentroid, "%.0f"),
                n(m.map { Double($0.onsets) }, "%.0f"), (esc(r.defects.joined(separator: ", ")), esc(r.defects.joined(separator: ","))),
            ]
            rows += "<tr class=\"\(r.verdict.rawValue)\">"
            for (i, c) in cells.enumerated() {
                let text = i == 1 ? "<a href=\"#c\(r.rank)\">\(c.0)</a>" : c.0
                rows += "<td data-v=\"\(c.1)\">\(text)</td>"
            }
            rows += "</tr>\n"
            let audioURL = relativeURL(of: r.file, from: folder)
            var card = "<section class=\"card \(r.verdict.rawValue)\" id=\"c\(r.rank)\">"
            card += "<h2>\(r.rank). \(esc(r.file)) <span class=\"verdict\">\(r.verdict.rawValue)</span>"
            if let c = r.bellClass { card += " <span class=\"class\">\(c.rawValue)</span>" }
            if let score = r.score { card += String(format: " <span class=\"score\">%.0f</span>", score) }
            card += "</h2><audio controls preload=\"none\" src=\"\(esc(audioURL))\"></audio>"
            card += "<ul class=\"reasons\">" + r.reasons.map { "<li>\(esc($0))</li>" }.joined() + "</ul>"
            if !r.notes.isEmpty { card += "<ul class=\"notes\">" + r.notes.map { "<li>note: \(esc($0))</li>" }.joined() + "</ul>" }
            if !r.defectDetails.isEmpty {
                card += "<ul class=\"defects\">"
                card += r.defectDetails.map {
                    "<li>\($0.severity.rawValue) \($0.kind.rawValue): \(esc($0.evidence))"
                        + ($0.fix.map { " (<code>\(esc($0))</code>)" } ?? "") + "</li>"
                }.joined()
                card += "</ul>"
            }
            if let fig {
                let png = Data(fig.spectrogramPNG).base64EncodedString()
                card += "<div class=\"figs\"><figure><img alt=\"spectrogram\" width=\"\(BellReportFigures.width)\" "
                card += "height=\"\(BellReportFigures.height)\" src=\"data:image/png;base64,\(png)\">"
                card += "<figcaption>spectrogram 0–8 kHz</figcaption></figure><figure>\(fig.decaySVG)"
                card += "<figcaption>envelope (blue) and Schroeder curve (red), 0 to −80 dB</figcaption></figure></div>"
            }
            if !r.scoreTerms.isEmpty {
                card += "<table class=\"terms\"><tr><th>term</th><th>value</th><th>weight</th><th>points</th></tr>"
                for t in r.scoreTerms {
                    card += String(format: "<tr><td>%@</td><td>%.2f</td><td>%.1f</td><td>%.1f</td></tr>", t.name, t.value, t.weight, t.points)
                }
                card += "</table>"
            }
            card += "</section>\n"
            cards += card
        }
        let passed = entries.filter { $0.result.passes }.count
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Bell audition</title>
            <style>
            body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}
            table.rank{border-collapse:collapse}table.rank th{cursor:pointer;background:#eee;text-align:left}
            td,th{padding:3px 8px;border-bottom:1px solid #ddd}
            tr.keep td:nth-child(3){color:#080}tr.fix td:nth-child(3){color:#a60}tr.reject td:nth-child(3),tr.error td:nth-child(3){color:#b00}
            .card{border:1px solid #ccc;border-radius:6px;padding:8px 12px;margin:12px 0}
            .verdict,.class{font-size:70%;padding:2px 6px;border-radius:4px;background:#eee}.score{color:#555}
            .figs{display:flex;gap:12px}figure{margin:0}figcaption{font-size:11px;color:#666}
            svg{background:#fafafa;border:1px solid #ddd}svg .env{fill:none;stroke:#36c;stroke-width:1}
            svg .edc{fill:none;stroke:#c33;stroke-width:1.5}svg .grid{stroke:#ddd}svg text{font-size:9px;fill:#999}
            </style></head><body>
            <h1>Bell audition</h1>
            <p>\(entries.count) candidates, \(passed) to keep or fix; profile <b>\(esc(profile.name))</b>. Click a column to sort.</p>
            <table class="rank" id="rank"><thead><tr><th>rank</th><th>file</th><th>verdict</th><th>class</th><th>score</th>
            <th>LUFS</th><th>d40 s</th><th>T20 s</th><th>attack ms</th><th>early centroid Hz</th><th>onsets</th>
            <th>defects</th></tr></thead><tbody>
            \(rows)</tbody></table>
            \(cards)
            <script>
            (function(){
              var t=document.getElementById('rank');
              t.querySelectorAll('th').forEach(function(th,i){
                var asc=true;
                th.addEventListener('click',function(){
                  var rows=Array.prototype.slice.call(t.tBodies[0].rows);
                  rows.sort(function(a,b){
                    var x=a.cells[i].getAttribute('data-v'),y=b.cells[i].getAttribute('data-v');
                    var nx=parseFloat(x),ny=parseFloat(y);
                    var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);
                    return asc?c:-c;
                  });
                  asc=!asc;
                  rows.forEach(function(r){t.tBodies[0].appendChild(r);});
                });
              });
            })();
            </script>
            </body></html>

            """
    }

    /// Writes the page atomically (temporary file in the same folder, then rename).
    ///
    /// - Throws: `AssetPipelineError` `.failure` naming the path when it cannot be written.
    public static func write(_ html: String, to path: String) throws(AssetPipelineError) {
        do {
            try AtomicFile.write(Array(html.utf8), to: path)
        } catch {
            throw AssetPipelineError(.failure, "cannot write the report: \(error.message)")
        }
    }

    /// `file` as a URL path relative to `folder` (percent-encoded), or an absolute `file://` URL when they
    /// share no root.
    static func relativeURL(of file: String, from folder: String) -> String {
        let target = URL(fileURLWithPath: file).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: folder).pathComponents
        var common = 0
        while common < min(target.count - 1, base.count) && target[common] == base[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...]
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#"))
        return parts.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }.joined(separator: "/")
    }

    static func esc(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
