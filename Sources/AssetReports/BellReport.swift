import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import Dispatch
import Foundation
import Synchronization

/// The self-contained HTML page of a bell audition (`enso bells audition --html REPORT`; docs/bells.md, "The HTML
/// report").
///
/// First the comparison: every candidate's decay curve on one time axis in seconds (dB re its peak, −40/−60 dB
/// lines), coloured by verdict, beside the ranked table (verdict pill, class, score with its terms as a stacked
/// bar, loudness, decay, defects); hovering a row brings its curve forward. Then one card per candidate in rank
/// order: verdict, class and (not for a reject) the score; a loudness-matched player; the defects once, each with
/// its severity and, when fixable, the command that mends it; the decay, the waveform with clipped runs shaded and
/// a cut end marked, and a log-frequency spectrogram, all with axes and ticks; the score's terms.
///
/// Everything is inside the one file (``ReportPage``), so the page can be moved or mailed. Nothing is decoded or
/// measured again for it: each candidate's figures and excerpt are made from its one analysis (``BellAnalysis``) as
/// its audition finishes (``sketch(_:)``, handed to `BellAudition.audition(paths:profile:progress:keeping:)`), and
/// the page encodes the excerpts as Ogg Vorbis `data:` URIs at one level (a bell longer than ``excerptSeconds``
/// plays its first ``excerptSeconds``, faded, with a note).
public enum BellReport {
    /// Seconds of a bell the page keeps for its player; a longer file is trimmed (and its card says so). The
    /// strike and the first 40 dB of a meditation bell's decay fit in it; the figures show the whole file.
    static let excerptSeconds = 8.0
    /// What one bell may add to the page at worst, in bytes: an 8 s stereo excerpt over a noise bed (the costliest
    /// to encode), its spectrogram and its vector figures. A typical recording costs under half (the 46 bells of
    /// the corpus' `bells-like` and `defects` folders: 4.3 MB, 93 kB each at 10 s), so 40 bells stay under 5 MB.
    static let budgetPerBell = 200_000

    /// Renders the page for `entries` (as `BellAudition.audition(paths:profile:progress:keeping:)` returns them
    /// with ``sketch(_:)``, ranked), judged with `profile`.
    ///
    /// - Parameter progress: called once per excerpt encoded (``excerptCount(_:)`` in all), from any thread.
    public static func html(
        _ entries: [(result: BellAuditionResult, kept: Sketch?)], profile: BellProfile,
        progress: (@Sendable () -> Void)? = nil
    ) -> String {
        let candidates = entries.map { Card($0.result) }
        let media = Self.encode(entries.map(\.kept), progress: progress)
        var counts: [String] = []
        for v in BellAuditionVerdict.allCases {
            let n = candidates.filter { $0.verdict == v }.count
            if n > 0 { counts.append(ReportPage.pill(v.rawValue, text: "\(n) \(v.rawValue)")) }
        }
        var body = "<h1>Bell audition</h1>\n<p>\(candidates.count) candidate\(candidates.count == 1 ? "" : "s"): "
        body += counts.joined(separator: " ") + " · profile <b>\(ReportPage.escape(profile.name))</b></p>\n"
        if let target = media.target { body += ReportPage.listeningBar(matchedTo: target) }
        body += comparison(candidates, media: media.items)
        for (i, c) in candidates.enumerated() {
            body += card(c, media: media.items[i], target: media.target ?? ReportAudio.ceiling)
        }
        let bytes = media.items.compactMap { $0?.clip?.bytes }.reduce(0, +)
        body +=
            "<p class=\"muted\">\(media.items.compactMap { $0?.clip }.count) excerpts, "
            + "\(ReportPage.number(Double(bytes) / 1000, digits: 0)) kB of sound inside this page.</p>\n"
        return ReportPage.html(title: "Bell audition", body: body, style: style, script: script)
    }

    /// Writes the page atomically.
    ///
    /// - Throws: `EnsoError` `.failure` naming the path when it cannot be written.
    public static func write(_ html: String, to path: String) throws(EnsoError) {
        try ReportPage.write(html, to: path)
    }

    /// The CSS class of a verdict's colour on a curve.
    static func curveStyle(_ verdict: String) -> String { "v-\(verdict)" }

    /// The comparison view: every decay curve on one axis, beside the ranked table.
    static func comparison(_ candidates: [Card], media: [Sketch?]) -> String {
        var curves: [(label: String?, db: [Double], hop: Double, style: String)] = []
        var ids: [String] = []
        for (i, c) in candidates.enumerated() {
            guard let d = media[i]?.decay else { continue }
            curves.append((label: nil, db: d.curve, hop: d.curveHop, style: curveStyle(c.verdict.rawValue)))
            ids.append("\(c.rank)")
        }
        var s = "<section class=\"compare\"><div class=\"compare-plot\">"
        if !curves.isEmpty {
            var plot = ReportPlot.decay(curves)
            plot.width = 620
            plot.height = 340
            for i in plot.lines.indices {
                plot.lines[i].id = ids[i]
                let c = candidates.first { "\($0.rank)" == ids[i] }!
                plot.lines[i].tooltip = "\(c.rank). \(name(c.file)) (\(c.verdict.rawValue))"
            }
            plot.description = "the decay of every candidate, dB re its own peak, on one time axis"
            s += plot.svg(title: "decay of every candidate, dB re its peak")
            s +=
                "<p class=\"legend\">"
                + ["keep", "fix", "listen", "reject"].map {
                    "<span class=\"key \(curveStyle($0))\"></span>\($0)"
                }.joined(separator: " ") + " · hover a row to find its curve</p>"
        }
        s += "</div><div class=\"scroll\">"
        if let terms = candidates.first(where: { $0.scored && !$0.terms.isEmpty })?.terms {
            s +=
                "<p class=\"legend\">score terms (points earned, 100 across): "
                + terms.enumerated().map {
                    "<span class=\"bar t\($0.offset % 6)\" style=\"width:10px\"></span> \(ReportPage.escape($0.element.name))"
                }.joined(separator: " ") + "</p>"
        }
        s += "<table class=\"rank\" id=\"rank\"><thead><tr><th class=\"num\">#</th>"
        s += "<th>verdict</th><th>file · defects</th><th class=\"num\">score</th><th>terms</th>"
        s += "<th class=\"num\">LUFS</th><th class=\"num\">−40 dB</th></tr></thead><tbody>\n"
        for c in candidates {
            s +=
                "<tr data-c=\"\(c.rank)\" class=\"\(c.verdict.rawValue)\"><td class=\"num\" data-v=\"\(c.rank)\">\(c.rank)</td>"
            s += "<td data-v=\"\(c.rank)\">\(ReportPage.pill(c.verdict.rawValue))"
            if let cls = c.bellClass { s += "<br><small class=\"muted\">\(ReportPage.escape(cls))</small>" }
            s +=
                "</td><td data-v=\"\(ReportPage.escape(name(c.file)))\"><a href=\"#bell-\(c.rank)\">\(ReportPage.fileName(name(c.file)))</a>"
            if !c.defects.isEmpty {
                s +=
                    "<br>"
                    + c.defects.map { "<span class=\"defect \($0.severity.rawValue)\">\($0.kind.rawValue)</span>" }
                    .joined(separator: " ")
            }
            s += "</td><td class=\"num\" data-v=\"\(c.scored ? String(c.score!) : "-1")\">"
            s += c.scored ? ReportPage.number(c.score!, digits: 0) : "–"
            s += "</td><td>\(c.scored ? bars(c.terms) : "")</td>"
            s +=
                "<td class=\"num\" data-v=\"\(c.loudness.map { String($0) } ?? "")\">\(c.loudness.map { ReportPage.number($0) } ?? "–")</td>"
            s +=
                "<td class=\"num\" data-v=\"\(c.decay40.map { String($0) } ?? "")\">\(c.decay40.map { ReportPage.number($0) + " s" } ?? "–")</td>"
            s += "</tr>\n"
        }
        return s + "</tbody></table></div></section>\n"
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

    /// One candidate's card.
    static func card(_ c: Card, media: Sketch?, target: Double) -> String {
        var s =
            "<section class=\"card \(c.verdict.rawValue)\" id=\"bell-\(c.rank)\">\n<h2>\(c.rank). \(ReportPage.pill(c.verdict.rawValue))"
        s += ReportPage.fileName(c.file)
        if let cls = c.bellClass { s += " <span class=\"muted\">· \(ReportPage.escape(cls))</span>" }
        if c.scored { s += " <span class=\"score\">score \(ReportPage.number(c.score!, digits: 0))</span>" }
        s += "</h2>\n"
        if let error = c.error { s += "<p>\(ReportPage.pill("error")) \(ReportPage.escape(error))</p>\n" }
        if let media {
            if let clip = media.clip { s += ReportAudio.player(clip, target: target, label: media.playerLabel) }
            if let failure = media.failure { s += "<p class=\"muted\">No player: \(ReportPage.escape(failure))</p>" }
        }
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
    /// (for the comparison), the card's figures, and the excerpt its player plays (until encoded) with its level.
    /// Small beside the analysis: a few figures and at most ``excerptSeconds`` of sound.
    public struct Sketch: Sendable {
        var decay: DecayAnalysis?
        var figures: [String] = []
        var sound: AudioBuffer?
        var level: ReportAudio.Level?
        var clip: ReportAudio.Clip?
        var failure: String?
        var playerLabel = ""
    }

    /// How many excerpts ``html(_:profile:progress:)`` encodes for `entries`: its progress callbacks in all.
    public static func excerptCount(_ entries: [(result: BellAuditionResult, kept: Sketch?)]) -> Int {
        entries.filter { $0.kept?.sound != nil }.count
    }

    /// Encodes every excerpt (in parallel) at one common level, each dropped once encoded.
    static func encode(
        _ sketches: [Sketch?], progress: (@Sendable () -> Void)?
    ) -> (items: [Sketch?], target: Double?) {
        var items = sketches
        let levels = items.compactMap { $0?.level }
        guard !levels.isEmpty else { return (items, nil) }
        let target = ReportAudio.matchedLevel(levels)
        let encoded = Mutex([Result<ReportAudio.Clip, EnsoError>?](repeating: nil, count: items.count))
        let sounds = items.map { m in m.flatMap { m in m.sound.map { ($0, m.level!) } } }
        DispatchQueue.concurrentPerform(iterations: items.count) { i in
            guard let (sound, level) = sounds[i] else { return }
            let r = Result(catching: { () throws(EnsoError) -> ReportAudio.Clip in
                try ReportAudio.clip(sound, level: level, target: target)
            })
            encoded.withLock { $0[i] = r }
            progress?()
        }
        let clips = encoded.withLock { $0 }
        for i in items.indices {
            items[i]?.sound = nil
            switch clips[i] {
            case .success(let clip)?: items[i]?.clip = clip
            case .failure(let error)?: items[i]?.failure = error.message
            case nil: break
            }
        }
        return (items, target)
    }

    /// A candidate's card material from its analysis: its decay, waveform and spectrogram (the spectra it was
    /// measured with, not transformed again), and the excerpt its player plays with the excerpt's level. Nil for a
    /// file that could not be auditioned. Call it as each audition finishes (it is what a batch keeps of a file).
    public static func sketch(_ analysis: BellAnalysis) -> Sketch? {
        let c = Card(analysis.result)
        guard c.verdict != .error, let buffer = analysis.sound, let spectra = analysis.spectrogram else { return nil }
        var m = Sketch()
        let rate = buffer.sampleRate.hertz
        // The comparison plots the envelope; the Schroeder curve is not drawn.
        var decay = analysis.decay
        decay?.schroeder = []
        m.decay = decay
        if let decay {
            var plot = ReportPlot.decay([
                (label: nil, db: decay.curve, hop: decay.curveHop, style: curveStyle(c.verdict.rawValue))
            ])
            if let d40 = c.decay40, decay.peakTime + d40 <= plot.x.range.upperBound {
                plot.markers = [.init(x: decay.peakTime + d40, label: "−40 dB at \(ReportPage.number(d40)) s")]
            }
            plot.description = "decay in dB re peak"
            m.figures.append(plot.svg(title: "decay, dB re peak"))
        }
        let cut = c.defects.contains { $0.kind == .truncatedTail }
        m.figures += ReportFigures.bellFigures(
            buffer, spectrogram: spectra, cutLevel: cut ? decay?.endLevel ?? 0 : nil)
        let keep = min(buffer.frameCount, Int(excerptSeconds * Double(rate)))
        if keep < buffer.frameCount {
            m.sound = ReportAudio.faded(buffer.slice(frames: 0..<keep), seconds: 0.5)
            m.playerLabel =
                "its first \(ReportPage.number(excerptSeconds, digits: 0)) s of "
                + "\(ReportPage.number(buffer.duration)) s (trimmed to keep the page small)"
        } else {
            m.sound = buffer
            m.playerLabel = "the whole file"
        }
        m.level = m.sound.map { ReportAudio.level($0) }
        return m
    }

    static let style = """
        body{max-width:1440px}
        .compare{display:grid;grid-template-columns:minmax(320px,5fr) minmax(0,7fr);gap:16px;align-items:start;\
        margin:1em 0}.compare-plot{position:sticky;top:3.2em}
        @media (max-width:900px){.compare{grid-template-columns:1fr}.compare-plot{position:static}}
        .compare svg.plot .line{stroke-width:1.2;opacity:.85}.compare svg.plot .line.v-reject{stroke-dasharray:4 3;\
        opacity:.45}svg.plot path.hl,.compare svg.plot path.line.hl{stroke-width:3.5;opacity:1;stroke-dasharray:none}
        table.rank td:nth-child(3){overflow-wrap:anywhere}table.rank .defect{font-size:11px;margin-top:2px}
        .v-keep{stroke:var(--keep);background:var(--keep)}.v-fix{stroke:var(--fix);background:var(--fix)}\
        .v-listen{stroke:var(--listen);background:var(--listen)}.v-reject{stroke:var(--reject);background:var(--reject)}\
        .v-error{stroke:var(--na);background:var(--na)}
        .legend{font-size:12px;color:var(--muted)}.key{display:inline-block;width:14px;height:3px;margin:0 4px 3px 8px;\
        vertical-align:middle}
        table.rank th{cursor:pointer}table.rank tr:hover td{background:color-mix(in srgb,var(--s0) 10%,transparent)}
        .bars{display:inline-flex;height:10px;width:120px;background:var(--grid);border-radius:2px;overflow:hidden}
        .bar{display:inline-block;height:10px}.bar.t0{background:var(--s0)}.bar.t1{background:var(--s1)}\
        .bar.t2{background:var(--s2)}.bar.t3{background:var(--s3)}.bar.t4{background:var(--muted)}.bar.t5{background:#00897b}
        .defect{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;color:#fff}\
        .defect.reject{background:var(--reject)}.defect.fixable{background:var(--fix)}
        .score{font-weight:600}section.card.reject .figs{opacity:.8}

        """

    /// Hovering a ranked row brings its curve forward; a click on a header sorts the table by that column.
    static let script = """
        (function(){
          document.querySelectorAll('#rank tr[data-c]').forEach(function(r){
            var p=document.querySelector('path[data-c="'+r.getAttribute('data-c')+'"]');if(!p)return;
            r.addEventListener('mouseenter',function(){p.classList.add('hl');p.parentNode.appendChild(p);});
            r.addEventListener('mouseleave',function(){p.classList.remove('hl');});
          });
          var t=document.getElementById('rank');if(!t)return;
          t.querySelectorAll('th').forEach(function(th,i){
            var asc=true;
            th.addEventListener('click',function(){
              var rows=[].slice.call(t.tBodies[0].rows);
              rows.sort(function(a,b){
                var x=a.cells[i].getAttribute('data-v')||'',y=b.cells[i].getAttribute('data-v')||'';
                var nx=parseFloat(x),ny=parseFloat(y);var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);
                return asc?c:-c;});
              asc=!asc;rows.forEach(function(r){t.tBodies[0].appendChild(r);});
            });
          });
        })();
        """
}
