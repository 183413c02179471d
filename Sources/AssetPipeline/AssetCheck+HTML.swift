import Foundation

extension AssetCheck.Report {
    /// The report as one self-contained HTML page (no scripts, no network): the verdict, a table of the assets,
    /// and every finding with its evidence, value and threshold.
    ///
    /// - Parameter links: other reports to link from the page, as (title, relative path), e.g. the audition
    ///   report of the bells and the seam report of the loops.
    public func html(links: [(title: String, path: String)] = []) -> String {
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        func num(_ v: Double?) -> String { v.map { String(format: "%.3g", $0) } ?? "" }
        var rows = ""
        for a in assets {
            rows += "<tr class=\"\(a.verdict.rawValue)\"><td><a href=\"#\(esc(a.id))\">\(esc(a.id))</a></td>"
                + "<td>\(a.kind.rawValue)</td><td>\(a.verdict.rawValue)</td>"
                + "<td>\(a.loudness.map { String(format: "%.1f LUFS", $0) } ?? "–")</td><td>\(esc(a.file))</td></tr>\n"
        }
        var sections = ""
        for a in assets {
            sections += "<h2 id=\"\(esc(a.id))\">\(esc(a.id)) <span class=\"\(a.verdict.rawValue)\">\(a.verdict.rawValue)</span></h2>\n"
            sections += "<table><tr><th>check</th><th>status</th><th>value</th><th>threshold</th><th>evidence</th></tr>\n"
            for f in a.findings {
                sections += "<tr class=\"\(f.status.rawValue)\"><td>\(esc(f.check))</td><td>\(f.status.rawValue)</td>"
                    + "<td>\(num(f.value))</td><td>\(num(f.threshold))</td><td>\(esc(f.message))</td></tr>\n"
            }
            sections += "</table>\n"
        }
        let linkList = links.isEmpty
            ? "" : "<p>" + links.map { "<a href=\"\(esc($0.path))\">\(esc($0.title))</a>" }.joined(separator: " · ") + "</p>\n"
        let unlistedNote = unlisted.isEmpty
            ? "" : "<p>In the folder but not in the manifest: \(unlisted.map(esc).joined(separator: ", "))</p>\n"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Asset pack check: \(esc(directory))</title>
            <style>
            body{font:14px system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;margin:.5em 0 1.5em}
            td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
            .pass{color:#1a6b1a}.warn{color:#8a6d00}.fail,.error{color:#b00020}
            </style></head><body>
            <h1>Asset pack check</h1>
            <p>\(esc(directory)): \(assets.count) assets, verdict <b class="\(verdict.rawValue)">\(verdict.rawValue)</b></p>
            \(manifestError.map { "<p class=\"error\">\(esc($0))</p>\n" } ?? "")\(linkList)<table>
            <tr><th>id</th><th>kind</th><th>verdict</th><th>loudness</th><th>file</th></tr>
            \(rows)</table>
            \(unlistedNote)\(sections)</body></html>

            """
    }
}
