import AssetPipeline
import Foundation

extension BellReport {
    /// The comparison view: the decay overview beside the ranked table.
    static func comparison(_ candidates: [Card], media: [Sketch?], groups: ReportGroups) -> String {
        var s = "<section class=\"compare\"><div class=\"compare-plot\">"
        s += overview(candidates, media: media, groups: groups)
        s += "</div><div class=\"scroll\">"
        if let terms = candidates.first(where: { $0.scored && !$0.terms.isEmpty })?.terms {
            s +=
                "<p class=\"legend\">score terms (points earned, 100 across): "
                + terms.enumerated().map {
                    "<span class=\"bar t\($0.offset % 6)\" style=\"width:10px\"></span> \(ReportPage.escape($0.element.name))"
                }.joined(separator: " ") + "</p>"
        }
        s +=
            "<p class=\"legend\">Rank order: verdict, then score (shown to one decimal), then file name: "
            + "<abbr class=\"tie\">=</abbr> marks a score equal to the one above it, ranked by name. "
            + "Press a header to sort by its column.</p>"
        s += "<table class=\"rank sortable\" id=\"rank\"><thead><tr>"
        s += ReportTable.header("#", numeric: true, sorted: true) + ReportTable.header("verdict")
        s += ReportTable.header("file · defects") + ReportTable.header("score · terms", numeric: true)
        s += ReportTable.header("LUFS", numeric: true) + ReportTable.header("−40 dB", numeric: true)
        s += "</tr></thead><tbody>\n"
        for i in candidates.indices where groups.isLead(i) {
            s += row(i, candidates, groups: groups)
            for j in groups.others(i) { s += row(j, candidates, groups: groups) }
        }
        return s + "</tbody></table></div></section>\n"
    }

    /// One row of the ranked table; a group's best carries the disclosure of its others.
    static func row(_ i: Int, _ candidates: [Card], groups: ReportGroups) -> String {
        let c = candidates[i]
        let v = c.verdict.rawValue
        let others = groups.others(i)
        var kind = ""
        if !others.isEmpty { kind = " lead" } else if groups.isMember(i) { kind = " dup" }
        var s = "<tr data-c=\"\(c.rank)\" data-verdict=\"\(v)\" data-g=\"\(groups.group[i])\" class=\"\(v)\(kind)\">"
        s += "<td class=\"num\" data-v=\"\(c.rank)\">\(c.rank)"
        if i > 0, tied(candidates[i - 1], c) {
            s += "<abbr class=\"tie\" title=\"the same score as #\(candidates[i - 1].rank) to one decimal: "
            s += "ranked by its exact score, then file name\">=</abbr>"
        }
        s += "</td><td data-v=\"\(c.verdict.rank)\">\(ReportPage.pill(v))"
        if let cls = c.bellClass { s += "<br><small class=\"muted\">\(ReportPage.escape(cls))</small>" }
        s += "</td><td data-v=\"\(ReportPage.escape(name(c.file)))\">"
        s += "<a href=\"#bell-\(c.rank)\">\(ReportPage.fileName(name(c.file)))</a>"
        s += groups.rowNote(i)
        if !c.defects.isEmpty {
            s +=
                "<br>"
                + c.defects.map { "<span class=\"defect \($0.severity.rawValue)\">\($0.kind.rawValue)</span>" }
                .joined(separator: " ")
        }
        if !others.isEmpty { s += "<br>" + ReportTable.disclosure(count: others.count) }
        s += "</td><td class=\"num\" data-v=\"\(c.scored ? String(c.score!) : "")\">"
        s += c.scored ? score(c.score!) + bars(c.terms) : "–"
        s += "</td><td class=\"num\" data-v=\"\(c.loudness.map { String($0) } ?? "")\">"
        s += (c.loudness.map { ReportPage.number($0) } ?? "–") + "</td>"
        s += "<td class=\"num\" data-v=\"\(c.decay40.map { String($0) } ?? "")\">"
        s += (c.decay40.map { ReportPage.number($0) + " s" } ?? "–") + "</td></tr>\n"
        return s
    }

    /// Whether `b`, ranked right after `a`, shows the same score: the same verdict and score to one decimal.
    static func tied(_ a: Card, _ b: Card) -> Bool {
        a.verdict == b.verdict && a.scored && b.scored && score(a.score!) == score(b.score!)
    }

    /// The score's terms as one stacked bar of the points each earned (0–100 across), each with its sum in words.
    static func bars(_ terms: [BellScore.Term]) -> String {
        var s = "<span class=\"bars\">"
        for (i, t) in terms.enumerated() {
            let title =
                "\(t.name): \(ReportPage.number(t.value, digits: 2)) × weight \(ReportPage.number(t.weight)) = "
                + "\(ReportPage.number(t.points)) points"
            s += "<span class=\"bar t\(i % 6)\" style=\"width:\(String(format: "%.1f", max(0, t.points) * 1.2))px\" "
            s += "title=\"\(ReportPage.escape(title))\"></span>"
        }
        return s + "</span>"
    }
}
