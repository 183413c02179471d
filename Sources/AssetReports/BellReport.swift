import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import Foundation

/// The self-contained HTML page of a bell audition (`enso bells audition --html REPORT`; docs/bells.md, "The HTML
/// report").
///
/// First the comparison: the decay overview (``overview(_:media:groups:)``: the best candidates' curves one by one,
/// the others as a percentile band) beside the ranked table (``comparison(_:media:groups:)``: verdict filters, every
/// column sortable, near-duplicates collapsed under the best of their group); hovering a row brings its curve
/// forward. Then one card per candidate in rank order, each near-duplicate group's others behind a disclosure
/// after its best's card with the group's spread: verdict, class and (not for a reject) the score; a
/// loudness-matched player (``Players``); the defects once, each with its severity and, when fixable, the command
/// that mends it; the decay, the waveform with clipped runs shaded and a cut end marked, and a log-frequency
/// spectrogram, all with axes and ticks; the score's terms.
///
/// Everything is inside the one file (``ReportPage``), so the page can be moved or mailed, except the files of the
/// candidates past the embedded players: their cards play them from disk when pressed (``ReportLinks``). Nothing is
/// decoded or measured again for it: each candidate's figures, excerpt and likeness signature are made from its one
/// analysis (``BellAnalysis``) as its audition finishes (``sketch(_:)``, handed to
/// `BellAudition.audition(paths:profile:progress:keeping:)`).
public enum BellReport {
    /// What one bell may add to the page at worst, in bytes: a card with its player (a 6 s mono excerpt of a bell
    /// over a noise bed, the costliest to encode: about 75 kB in base64), its spectrogram and its vector figures
    /// (measured: 112 kB). A bell without a player costs about 13 kB (docs/bells.md, "Size").
    static let budgetPerBell = 120_000
    /// Renders the page for `entries` (as `BellAudition.audition(paths:profile:progress:keeping:)` returns them
    /// with ``sketch(_:)``, ranked), judged with `profile`.
    ///
    /// - Parameters:
    ///   - links: where the page is written, so that a candidate without an embedded excerpt plays its file
    ///     (``ReportLinks``); nil: such a card says how to hear its file instead.
    ///   - progress: called once per excerpt encoded (``excerptCount(_:)`` in all), from any thread.
    public static func html(
        _ entries: [(result: BellAuditionResult, kept: Sketch?)], profile: BellProfile, links: ReportLinks? = nil,
        progress: (@Sendable () -> Void)? = nil
    ) -> String {
        let candidates = entries.map { Card($0.result) }
        let groups = Self.groups(candidates, signatures: entries.map { $0.kept?.signature })
        let chosen = Players.chosen(entries.map { $0.kept?.sound?.excerpt != nil }, groups: groups)
        // The players every excerpt kept would have given (``HeldExcerpts``: the same unless the best candidates
        // held are too few distinct sounds).
        let passedOver = Set(Players.chosen(entries.map { $0.kept?.sound != nil }, groups: groups))
            .subtracting(chosen).count
        let held = entries.filter { $0.kept?.sound?.excerpt != nil }.count
        let media = Players.encode(entries.map(\.kept), chosen: chosen, progress: progress)
        let counts = BellAuditionVerdict.allCases.map { v in
            (verdict: v.rawValue, count: candidates.filter { $0.verdict == v }.count)
        }
        var body = "<h1>Bell audition</h1>\n<p>\(candidates.count) candidate\(candidates.count == 1 ? "" : "s"): "
        body += counts.filter { $0.count > 0 }.map { ReportPage.pill($0.verdict, text: "\($0.count) \($0.verdict)") }
            .joined(separator: " ")
        body += " · profile <b>\(ReportPage.escape(profile.name))</b>"
        body += groups.summary() + "</p>\n"
        let embedded = media.items.filter { $0?.clip != nil }.count
        let playable = entries.filter { $0.kept?.sound != nil }.count
        body += Players.note(
            players: embedded, candidates: playable, fromFiles: links != nil, passedOver: passedOver, held: held)
        let target = media.target ?? ReportAudio.ceiling
        if media.target != nil || (links != nil && embedded < playable) {
            body += ReportPage.listeningBar(matchedTo: target)
        }
        body += ReportTable.filterBar(counts, table: "rank")
        body += comparison(candidates, media: media.items, groups: groups)
        body += spread(candidates, signatures: entries.map { $0.kept?.signature }, groups: groups)
        for i in candidates.indices where groups.isLead(i) {
            body += card(i, candidates, media: media.items[i], target: target, groups: groups, links: links)
            let others = groups.others(i)
            guard !others.isEmpty else { continue }
            body += "<details class=\"group\"><summary>\(groups.disclosureText(i))</summary>\n"
            for j in others {
                body += card(j, candidates, media: media.items[j], target: target, groups: groups, links: links)
            }
            body += "</details>\n"
        }
        let bytes = media.items.compactMap { $0?.clip?.bytes }.reduce(0, +)
        body +=
            "<p class=\"muted\">\(media.items.compactMap { $0?.clip }.count) excerpts, "
            + "\(ReportPage.number(Double(bytes) / 1000, digits: 0)) kB of sound inside this page.</p>\n"
        return ReportPage.html(
            title: "Bell audition", body: body, style: style + ReportGroups.style, script: script)
    }

    /// Writes the page atomically.
    ///
    /// - Throws: `EnsoError` `.failure` naming the path when it cannot be written.
    public static func write(_ html: String, to path: String) throws(EnsoError) {
        try ReportPage.write(html, to: path)
    }

    /// The CSS class of a verdict's colour on a curve.
    static func curveStyle(_ verdict: String) -> String { "v-\(verdict)" }

    /// A score as the page shows it: one decimal, so candidates the rounding to whole points tied are told apart.
    static func score(_ v: Double) -> String { ReportPage.number(v, digits: 1) }

    /// One candidate's card.
    static func card(
        _ i: Int, _ all: [Card], media: Sketch?, target: Double, groups: ReportGroups, links: ReportLinks? = nil
    ) -> String {
        let c = all[i]
        let v = c.verdict.rawValue
        var s = "<section class=\"card \(v)\" id=\"bell-\(c.rank)\" data-verdict=\"\(v)\">\n<h2>\(c.rank). "
        s += ReportPage.pill(v) + ReportPage.fileName(c.file)
        if let cls = c.bellClass { s += " <span class=\"muted\">· \(ReportPage.escape(cls))</span>" }
        if c.scored { s += " <span class=\"score\">score \(score(c.score!))</span>" }
        s += "</h2>\n"
        if let error = c.error { s += "<p>\(ReportPage.pill("error")) \(ReportPage.escape(error))</p>\n" }
        if let media {
            if let clip = media.clip {
                s += ReportAudio.player(clip, target: target, label: media.playerLabel)
            } else if let url = links?.url(c.file) {
                if let failure = media.failure {
                    s += "<p class=\"muted\">No excerpt: \(ReportPage.escape(failure))</p>"
                }
                let length = c.duration.map { ", \(ReportPage.number($0)) s" } ?? ""
                s += ReportAudio.filePlayer(
                    url: url, loudness: c.playedLoudness, target: target, label: "the whole file\(length)",
                    otherwise: "Hear it with " + Players.hearIt(c.file))
            } else if let failure = media.failure {
                s += "<p class=\"muted\">No player: \(ReportPage.escape(failure))</p>"
            } else {
                s += Players.absent(c.file)
            }
        }
        s += groups.cardLine(i)
        if !c.defects.isEmpty {
            s += "<ul class=\"defects\">"
            for d in c.defects {
                s +=
                    "<li><span class=\"defect \(d.severity.rawValue)\">\(d.severity.rawValue)</span> <b>\(d.kind.rawValue)</b>: "
                s += ReportPage.escape(d.evidence)
                if let fix = d.fix, !fix.isEmpty { s += " — fix: <code>\(ReportPage.escape(fix))</code>" }
                s += "</li>"
            }
            s += "</ul>\n"
        }
        if !c.reasons.isEmpty {
            s += "<ul class=\"reasons\">" + c.reasons.map { "<li>\(ReportPage.escape($0))</li>" }.joined() + "</ul>\n"
        }
        if !c.notes.isEmpty {
            s += "<ul class=\"notes\">" + c.notes.map { "<li>note: \(ReportPage.escape($0))</li>" }.joined() + "</ul>\n"
        }
        if let media, !media.figures.isEmpty { s += "<div class=\"figs\">\(media.figures.joined())</div>\n" }
        if c.scored && !c.terms.isEmpty {
            s += "<div class=\"scroll\"><table class=\"terms\"><thead><tr><th>term</th><th class=\"num\">value</th>"
            s += "<th class=\"num\">weight</th><th class=\"num\">points</th><th></th></tr></thead><tbody>"
            for (i, t) in c.terms.enumerated() {
                s +=
                    "<tr><td>\(ReportPage.escape(t.name))</td><td class=\"num\">\(ReportPage.number(t.value, digits: 2))</td>"
                s +=
                    "<td class=\"num\">\(ReportPage.number(t.weight))</td><td class=\"num\">\(ReportPage.number(t.points))</td>"
                s +=
                    "<td><span class=\"bar t\(i % 6)\" style=\"width:\(String(format: "%.1f", max(0, t.points) * 3))px\"></span></td></tr>"
            }
            s += "</tbody></table></div>\n"
        }
        return s + "</section>\n"
    }

    static func name(_ file: String) -> String { (file as NSString).lastPathComponent }

    /// What a candidate's card shows besides its words, made from its analysis by ``sketch(_:)``: the decay curve
    /// (for the comparison), the card's figures, its likeness signature (for the near-duplicate groups), and the
    /// excerpt its player may play (``Players``) until encoded. Small beside the analysis: a few figures and at most
    /// ``Players/excerptSeconds`` of mono sound, while ``HeldExcerpts`` holds it.
    public struct Sketch: Sendable {
        var decay: DecayAnalysis?
        var figures: [String] = []
        var signature: LikenessSignature?
        /// The excerpt its player may play: nil for a candidate without a sound; its samples nil once let go.
        var sound: HeldExcerpt?
        var level: ReportAudio.Level?
        var clip: ReportAudio.Clip?
        var failure: String?
        var playerLabel = ""
    }

    /// How many excerpts ``html(_:profile:progress:)`` encodes for `entries`: its progress callbacks in all.
    public static func excerptCount(_ entries: [(result: BellAuditionResult, kept: Sketch?)]) -> Int {
        min(Players.limit, entries.filter { $0.kept?.sound?.excerpt != nil }.count)
    }

    /// A candidate's card material from its analysis: its decay, waveform and spectrogram (the spectra it was
    /// measured with, not transformed again), its likeness signature (from the same spectra, partials and attack),
    /// and the excerpt its player may play, kept whatever it ranks (a few candidates; a batch holds the best only:
    /// ``sketch(_:holding:)``). Nil for a file that could not be auditioned. Call it as each audition finishes (it
    /// is what a batch keeps of a file).
    public static func sketch(_ analysis: BellAnalysis) -> Sketch? { sketch(analysis, holding: nil) }

    /// ``sketch(_:)`` whose excerpt is held by the run's `store` (``HeldExcerpts``): made only while the candidate
    /// ranks among the best it holds, and let go when it no longer does. Nil `store`: made and kept.
    public static func sketch(_ analysis: BellAnalysis, holding store: HeldExcerpts?) -> Sketch? {
        let c = Card(analysis.result)
        guard c.verdict != .error, let buffer = analysis.sound, let spectra = analysis.spectrogram else { return nil }
        var m = Sketch()
        // The comparison plots the envelope; the Schroeder curve is not drawn.
        var decay = analysis.decay
        decay?.schroeder = []
        m.decay = decay
        if let decay {
            var plot = ReportPlot.decay([
                (
                    label: nil, db: decay.curve, hop: decay.curveHop, start: decay.curveStart,
                    style: curveStyle(c.verdict.rawValue)
                )
            ])
            if let d40 = c.decay40, decay.peakTime + d40 <= plot.x.range.upperBound {
                plot.markers = [.init(x: decay.peakTime + d40, label: "−40 dB at \(ReportPage.number(d40)) s")]
            }
            plot.description = "decay in dB re peak"
            m.figures.append(plot.svg(title: "decay, dB re peak"))
        }
        let cut = c.defects.contains { $0.kind == .truncatedTail }
        // The analysis's sound is finite (its non-finite samples were set to 0), so its plain mix is the finite
        // one, without a scan for non-finite samples.
        let mix = buffer.monoMix()
        m.figures += ReportFigures.bellFigures(
            buffer, spectrogram: spectra, soundStart: analysis.soundStart, cutLevel: cut ? decay?.endLevel ?? 0 : nil,
            clipped: (analysis.result.metrics?.clipRuns ?? 1) > 0, mono: mix)
        // The row's own signature (made by the audition from the same analysis), so the page's groups are the rows'.
        m.signature = analysis.result.likeness
        m.playerLabel = Players.label(buffer)
        let r = analysis.result
        let key = (verdict: r.verdict, score: r.score, file: r.file)
        guard store?.admits(key) ?? true else {
            // Not among the best held: it has a sound, but no samples are made for it.
            m.sound = HeldExcerpt(nil)
            return m
        }
        let held = HeldExcerpt(Players.excerpt(buffer, mix: mix).0)
        m.sound = held
        store?.hold(held, key: key)
        return m
    }

    static let style = """
        body{max-width:1440px}
        .compare{display:grid;grid-template-columns:minmax(320px,5fr) minmax(0,7fr);gap:16px;align-items:start;\
        margin:1em 0}.compare-plot{position:sticky;top:3.2em}
        @media (max-width:900px){.compare{grid-template-columns:1fr}.compare-plot{position:static}}
        .compare svg.plot .line{stroke-width:1.2;opacity:.85}.compare svg.plot .line.v-reject{stroke-dasharray:4 3;\
        opacity:.45}svg.plot path.hl,.compare svg.plot path.line.hl{stroke-width:3.5;opacity:1;stroke-dasharray:none}
        svg.plot .band.density{fill:var(--muted);opacity:.22}svg.plot .band.density.mid{opacity:.38}\
        svg.plot .line.density-median{stroke:var(--muted)}
        table.rank td:nth-child(3){overflow-wrap:anywhere}table.rank .defect{font-size:11px;margin-top:2px}
        .v-keep{stroke:var(--keep);background:var(--keep)}.v-fix{stroke:var(--fix);background:var(--fix)}\
        .v-listen{stroke:var(--listen);background:var(--listen)}.v-reject{stroke:var(--reject);background:var(--reject)}\
        .v-error{stroke:var(--na);background:var(--na)}.key.density{background:var(--muted);opacity:.4;height:8px}
        .legend{font-size:12px;color:var(--muted)}.key{display:inline-block;width:14px;height:3px;margin:0 4px 3px 8px;\
        vertical-align:middle}
        table.rank tr:hover td{background:color-mix(in srgb,var(--s0) 10%,transparent)}
        .bars{display:inline-flex;height:10px;width:120px;background:var(--grid);border-radius:2px;overflow:hidden;\
        vertical-align:middle;margin-left:6px}
        .bar{display:inline-block;height:10px}.bar.t0{background:var(--s0)}.bar.t1{background:var(--s1)}\
        .bar.t2{background:var(--s2)}.bar.t3{background:var(--s3)}.bar.t4{background:var(--muted)}.bar.t5{background:#00897b}
        .defect{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;color:#fff}\
        .defect.reject{background:var(--reject)}.defect.fixable{background:var(--fix)}
        .score{font-weight:600}section.card.reject .figs{opacity:.8}abbr.tie{text-decoration:none;color:var(--muted)}

        """

    /// Hovering a ranked row, or moving the keyboard's focus into it, brings its curve forward (sorting and
    /// filters: ``ReportTable/script``).
    static let script = """
        (function(){
          document.querySelectorAll('#rank tr[data-c]').forEach(function(r){
            var p=document.querySelector('path[data-c="'+r.getAttribute('data-c')+'"]');if(!p)return;
            function on(){p.classList.add('hl');p.parentNode.appendChild(p);}
            function off(){p.classList.remove('hl');}
            r.addEventListener('mouseenter',on);r.addEventListener('mouseleave',off);
            r.addEventListener('focusin',on);r.addEventListener('focusout',off);
          });
        })();
        """
}
