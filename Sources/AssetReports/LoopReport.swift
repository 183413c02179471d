import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import Dispatch
import Foundation
import Synchronization

/// The self-contained HTML report of `enso loops verify --html` (docs/loops.md, "The HTML report").
///
/// Failures first: a summary table of verdict pills, each linking to its file's card, then the cards in the same
/// order (fail, error, warn, pass; input order within each). Near-duplicate textures (the rows' `group` and
/// `groupRank`) are collapsed under the best of their group (``ReportGroups``), and the loops that do not fail are
/// drawn as a likeness matrix (``ReportSpread``). A card shows, per seam, a ±5 ms close-up with the
/// loop's end and start on one axis, a ±1 s auto-scaled waveform, the seam's spectrogram, an inline player of the
/// seam (the last 2 s into the first 2 s, three times, loudness-matched) and the metrics worst first with units.
///
/// Everything is inside the one file (``ReportPage``): figures are inline SVG and PNG, sounds are `data:` URIs.
public enum LoopReport {
    /// How many times one press of a seam player plays the seam.
    static let seamRepeats = 3
    /// What one loop may add to the page, in bytes, at worst (4 s of stereo white noise): measured 105 kB, of
    /// which 56 kB of sound, 30 kB of spectrogram and 19 kB of vector figures and table (base64 and markup
    /// included). 40 loops: ≤ 6 MB.
    static let budgetPerLoop = 150_000

    /// The whole page for `results`.
    public static func html(results: [LoopVerifier.Result], title: String = "Loop seams") -> String {
        let ordered = order(results)
        let excerpts = ordered.map(\.excerpt)
        let levels = excerpts.map { $0.map { ReportAudio.level($0.audio) } }
        let target = ReportAudio.matchedLevel(levels.compactMap { $0 })
        let clips = Mutex([Result<ReportAudio.Clip, EnsoError>?](repeating: nil, count: ordered.count))
        DispatchQueue.concurrentPerform(iterations: ordered.count) { i in
            guard let e = excerpts[i], let level = levels[i] else { return }
            let clip = Result(catching: { () throws(EnsoError) -> ReportAudio.Clip in
                try ReportAudio.clip(e.listening, level: level, target: target)
            })
            clips.withLock { $0[i] = clip }
        }
        let players = clips.withLock { $0 }

        let counts = reportOrder.map { v in (v.rawValue, ordered.filter { $0.verdict == v }.count) }
        var body = "<h1>\(ReportPage.escape(title))</h1>\n<p class=\"summary\">\(ordered.count) file"
        body += ordered.count == 1 ? ": " : "s: "
        body += counts.map { "\(ReportPage.pill($0.0, text: "\($0.1) \($0.0)"))" }.joined(separator: " ")
        let groups = Self.groups(ordered)
        body += groups.summary("loops") + "</p>\n"
        if players.contains(where: { $0 != nil }) { body += ReportPage.listeningBar(matchedTo: target) }
        body += summaryTable(ordered, groups: groups)
        body += spread(ordered, groups: groups)
        var soundBytes = 0
        for case .success(let c)? in players { soundBytes += c.bytes }
        for i in ordered.indices where groups.isLead(i) {
            body += card(i, ordered, player: players[i], target: target, groups: groups)
            let others = groups.others(i)
            guard !others.isEmpty else { continue }
            body += "<details class=\"group\"><summary>\(groups.disclosureText(i))</summary>\n"
            for j in others { body += card(j, ordered, player: players[j], target: target, groups: groups) }
            body += "</details>\n"
        }
        body +=
            "<p class=\"muted\">\(players.compactMap { $0 }.count) seam excerpts, "
            + "\(ReportPage.number(Double(soundBytes) / 1000, digits: 0)) kB of sound inside this page.</p>\n"
        return ReportPage.html(title: title, body: body, style: ReportGroups.style)
    }

    /// The order the report lists verdicts in: failures first.
    static let reportOrder: [LoopVerifier.Verdict] = [.fail, .error, .warn, .pass]

    /// Failures first: fail, error, warn, pass, each in input order.
    static func order(_ results: [LoopVerifier.Result]) -> [LoopVerifier.Result] {
        return results.enumerated().sorted { a, b in
            let ra = reportOrder.firstIndex(of: a.element.verdict) ?? 1
            let rb = reportOrder.firstIndex(of: b.element.verdict) ?? 1
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
    }

    /// One row per file: pill, file (a link to its card), loop length, worst reason; verdict filters above it and
    /// every column sortable (``ReportTable``). A near-duplicate group's others are rows under its best's, shown
    /// while its disclosure is open, each with its distance from the best.
    static func summaryTable(_ ordered: [LoopVerifier.Result], groups: ReportGroups) -> String {
        let counts = reportOrder.map { v in (verdict: v.rawValue, count: ordered.filter { $0.verdict == v }.count) }
        var s = ReportTable.filterBar(counts, table: "loops")
        s += "<div class=\"scroll\"><table class=\"summary sortable\" id=\"loops\"><thead><tr>"
        s += ReportTable.header("verdict", sorted: true) + ReportTable.header("file")
        s += ReportTable.header("loop", numeric: true) + ReportTable.header("worst reason")
        s += "</tr></thead><tbody>\n"
        for i in pageOrder(groups, count: ordered.count) {
            let r = ordered[i]
            let v = ReportPage.cssClass(r.verdict.rawValue)
            let name = Self.name(r.file)
            let rank = reportOrder.firstIndex(of: r.verdict) ?? reportOrder.count
            let others = groups.others(i)
            let kind = !others.isEmpty ? " lead" : groups.isMember(i) ? " dup" : ""
            s += "<tr class=\"\(v)\(kind)\" data-g=\"\(groups.group[i])\" "
            s += "data-verdict=\"\(ReportPage.escape(r.verdict.rawValue))\">"
            s += "<td data-v=\"\(rank)\"><a href=\"#loop-\(i + 1)\">\(ReportPage.pill(r.verdict.rawValue))</a></td>"
            s += "<td data-v=\"\(ReportPage.escape(name))\"><a href=\"#loop-\(i + 1)\">\(ReportPage.fileName(name))</a>"
            s += groups.rowNote(i)
            if !others.isEmpty { s += "<br>" + ReportTable.disclosure(count: others.count) }
            s += "</td>"
            let seconds = r.loop.flatMap { l in r.sampleRate > 0 ? Double(l.end - l.start) / Double(r.sampleRate) : nil
            }
            s += "<td class=\"num\" data-v=\"\(seconds.map { String($0) } ?? "")\">"
            s += "\(r.loop.map { length($0, r.sampleRate) } ?? "–")</td>"
            let reason = r.reasons.first ?? "seamless"
            s += "<td data-v=\"\(ReportPage.escape(reason))\">\(ReportPage.escape(reason))</td></tr>\n"
        }
        return s + "</tbody></table></div>\n"
    }

    static func length(_ loop: LoopRegion, _ rate: Int) -> String {
        rate > 0 ? ReportPage.number(Double(loop.end - loop.start) / Double(rate), digits: 3) + " s" : "–"
    }

    /// The card of `ordered[i]`: its loop, reasons, seam player and figures, metrics, and its line on its
    /// near-duplicate group.
    static func card(
        _ i: Int, _ ordered: [LoopVerifier.Result], player: Result<ReportAudio.Clip, EnsoError>?, target: Double,
        groups: ReportGroups
    ) -> String {
        let r = ordered[i]
        var s = "<section class=\"card \(ReportPage.cssClass(r.verdict.rawValue))\" id=\"loop-\(i + 1)\" "
        s += "data-verdict=\"\(ReportPage.escape(r.verdict.rawValue))\">\n"
        s += "<h2>\(i + 1). \(ReportPage.pill(r.verdict.rawValue))\(ReportPage.fileName(r.file))</h2>\n"
        if let loop = r.loop, r.sampleRate > 0 {
            s += "<p class=\"muted\">loop \(loop.start)..<\(loop.end) frames (\(length(loop, r.sampleRate)), "
            s += "\(ReportPage.escape(r.source?.rawValue ?? "")), \(r.sampleRate) Hz)</p>\n"
        }
        if !r.reasons.isEmpty {
            s += "<ul class=\"reasons\">" + r.reasons.map { "<li>\(ReportPage.escape($0))</li>" }.joined() + "</ul>\n"
        }
        if let e = r.excerpt {
            switch player {
            case .success(let clip)?:
                s += ReportAudio.player(
                    clip, target: target, repeatCount: seamRepeats,
                    label: "the seam: last \(ReportPage.number(Double(e.seam) / Double(e.sampleRate))) s into the "
                        + "first, \(seamRepeats)×")
            case .failure(let error)?:
                s += "<p class=\"muted\">No player: \(ReportPage.escape(error.message))</p>"
            case nil:
                break
            }
            s += "\n<div class=\"figs\">\(e.closeUpSVG())\(e.waveformSVG())\(e.spectrogramSVG())</div>\n"
        } else if r.verdict != .error {
            let quoted = "'" + r.file.replacingOccurrences(of: "'", with: "'\\''") + "'"
            s += "<p class=\"muted noplayer\">No seam excerpt in this page (made from results rows, which carry the "
            s +=
                "measures only): hear the seam with <code>enso loops verify --listen \(ReportPage.escape(quoted))</code>"
            s += ", see it with <code>--html</code>.</p>\n"
        }
        s += groups.cardLine(i)
        if !r.metrics.isEmpty { s += metricsTable(r.metrics) }
        return s + "</section>\n"
    }

    /// The metrics worst first, values and limits with their units.
    static func metricsTable(_ metrics: [SeamRules.Metric]) -> String {
        var s = "<div class=\"scroll\"><table class=\"metrics\"><thead><tr><th>metric</th><th>status</th>"
        s += "<th class=\"num\">value</th><th class=\"num\">warns past</th><th class=\"num\">fails past</th>"
        s += "<th>what it means</th></tr></thead><tbody>\n"
        for m in metrics {
            s += "<tr><td>\(m.name.rawValue)</td><td>\(ReportPage.pill(m.status.rawValue))</td>"
            s += "<td class=\"num\">\(m.value.map { value($0, unit: m.unit) } ?? "–")</td>"
            let side = m.direction == .higherIsWorse ? "> " : "< "
            s += "<td class=\"num\">\(side)\(value(m.threshold, unit: m.unit))</td>"
            s += "<td class=\"num\">\(side)\(value(m.failThreshold, unit: m.unit))</td>"
            s += "<td>\(ReportPage.escape(m.note))</td></tr>\n"
        }
        return s + "</tbody></table></div>\n"
    }

    /// A metric value with its unit as a reader writes it: "1.23×", "2.1 dB", "0.4 %", "0.85", "3.1 z".
    static func value(_ v: Double, unit: String) -> String {
        switch unit {
        case "ratio": return ReportPage.number(v, digits: 2) + "×"
        case "fraction": return ReportPage.number(v, digits: 2)
        case "": return ReportPage.number(v, digits: 2)
        default: return ReportPage.number(v, digits: abs(v) < 10 ? 2 : 1) + " " + ReportPage.escape(unit)
        }
    }

}
