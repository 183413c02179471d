import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import Dispatch
import Foundation
import Synchronization

extension AssetCheck.Report {
    /// The checks in the order of the grid's columns; others (from a newer checker) follow in the order found.
    static let checkOrder = [
        "file", "loudness", "manifest-loudness", "loop", "seam:continuity", "seam:spectral", "seam:level", "seam:click",
        "seam:dc-offset", "seam:rhythm", "seam:dip", "bell-decay", "bell-tail", "bell-samples", "bell-audition",
        "bell-defects",
    ]

    /// Seconds of a bell kept for its player; a longer file is trimmed (and says so).
    static let bellExcerptSeconds = 12.0

    /// The report as one self-contained HTML page (``ReportPage``: no scripts, fonts, images or sounds from
    /// elsewhere): the verdict, a grid per kind (asset × check, human numbers with units, each cell linking to its
    /// evidence), then one card per asset, failures first, with its figures (a bell's decay on a time axis in
    /// seconds, a loop's seam close-up), a loudness-matched player and every finding with its value and limit.
    /// Every score names the audition profile it comes from (``AssetCheck/auditionProfile``).
    ///
    /// Figures and players come from each asset's one analysis (``sketch(_:)``, kept by
    /// `AssetCheck.run(directory:strict:progress:keeping:)` as each asset is checked): nothing is decoded or measured
    /// again for the page. An asset without a sketch (its file did not decode) just has none.
    ///
    /// - Parameters:
    ///   - links: other reports to link from the page, as (title, relative path), e.g. the audition report of the
    ///     bells and the seam report of the loops.
    ///   - sketches: what ``sketch(_:)`` made of each asset, in the order of ``assets``.
    public func html(links: [(title: String, path: String)] = [], sketches: [Sketch?]) -> String {
        let ordered = assets.enumerated().sorted { a, b in
            a.element.verdict != b.element.verdict ? a.element.verdict > b.element.verdict : a.offset < b.offset
        }.map(\.element)
        let media = Self.encode(assets, sketches)
        var body = "<h1>Asset pack check</h1>\n<p>\(ReportPage.fileName(directory)): \(assets.count) asset"
        body += assets.count == 1 ? "" : "s"
        body += ", verdict \(ReportPage.pill(verdict.rawValue))</p>\n"
        if let manifestError { body += "<p>\(ReportPage.pill("error")) \(ReportPage.escape(manifestError))</p>\n" }
        if !links.isEmpty {
            body +=
                "<p>"
                + links.map { "<a href=\"\(ReportPage.escape($0.path))\">\(ReportPage.escape($0.title))</a>" }
                .joined(separator: " · ") + "</p>\n"
        }
        if assets.contains(where: { $0.kind == .bell }) {
            body +=
                "<p class=\"muted\">Bell scores (0–100) are those of <code>enso bells audition --profile "
                + "\(AssetCheck.auditionProfile.name)</code>; another profile gives other scores.</p>\n"
        }
        if let target = media.target { body += ReportPage.listeningBar(matchedTo: target) }
        for kind in [AssetPack.Kind.bell, .soundscape] {
            let rows = ordered.filter { $0.kind == kind }
            if !rows.isEmpty { body += Self.grid(rows, title: kind == .bell ? "Bells" : "Soundscapes") }
        }
        if !unlisted.isEmpty {
            body +=
                "<p>In the folder but not in the manifest: \(unlisted.map(ReportPage.escape).joined(separator: ", "))</p>\n"
        }
        for a in ordered { body += Self.card(a, media: media.byID[a.id], target: media.target ?? ReportAudio.ceiling) }
        return ReportPage.html(title: "Asset pack check: \(directory)", body: body, style: Self.style)
    }

    static let style = """
        table.grid td.cell{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        table.grid td.cell a{color:inherit;text-decoration:none;display:block}
        table.grid th.check{font-size:12px;font-weight:600;white-space:nowrap}
        td.cell.pass{background:color-mix(in srgb,var(--pass) 14%,transparent)}
        td.cell.warn{background:color-mix(in srgb,var(--warn) 30%,transparent)}
        td.cell.fail,td.cell.error{background:color-mix(in srgb,var(--fail) 30%,transparent);font-weight:600}
        tr:target,tr:target td{outline:2px solid var(--s0)}

        """

    /// One grid: a row per asset (worst first), a column per check, the value with its unit in each cell.
    static func grid(_ rows: [AssetCheck.AssetResult], title: String) -> String {
        var checks = checkOrder.filter { c in rows.contains { $0.findings.contains { $0.check == c } } }
        for a in rows { for f in a.findings where !checks.contains(f.check) { checks.append(f.check) } }
        var s =
            "<h2>\(title)</h2>\n<div class=\"scroll\"><table class=\"grid\"><thead><tr><th>asset</th><th>verdict</th>"
        s += checks.map {
            "<th class=\"check\">\(ReportPage.escape($0.replacingOccurrences(of: "seam:", with: "seam ")))</th>"
        }.joined()
        s += "</tr></thead><tbody>\n"
        for a in rows {
            s +=
                "<tr><td><a href=\"#\(anchor(a.id))\">\(ReportPage.escape(a.id))</a></td><td>\(ReportPage.pill(a.verdict.rawValue))</td>"
            for c in checks {
                guard let f = a.findings.first(where: { $0.check == c }) else {
                    s += "<td class=\"cell\"></td>"
                    continue
                }
                s += "<td class=\"cell \(f.status.rawValue)\" title=\"\(ReportPage.escape(f.message))\">"
                s += "<a href=\"#\(anchor(a.id, c))\">\(value(f))</a></td>"
            }
            s += "</tr>\n"
        }
        return s + "</tbody></table></div>\n"
    }

    /// One asset: pill, id, file; figures and player; every finding with value, limit and evidence.
    static func card(_ a: AssetCheck.AssetResult, media: Sketch?, target: Double) -> String {
        var s = "<section class=\"card \(a.verdict.rawValue)\" id=\"\(anchor(a.id))\">\n"
        s += "<h2>\(ReportPage.pill(a.verdict.rawValue))\(ReportPage.escape(a.id)) <span class=\"muted\">"
        s += "\(a.kind.rawValue) · \(ReportPage.fileName(a.file))</span></h2>\n"
        if let media {
            if let clip = media.clip {
                s += ReportAudio.player(clip, target: target, repeatCount: media.repeatCount, label: media.playerLabel)
            }
            if !media.figures.isEmpty { s += "<div class=\"figs\">\(media.figures.joined())</div>\n" }
        }
        s += "<div class=\"scroll\"><table class=\"metrics\"><thead><tr><th>check</th><th>status</th>"
        s += "<th class=\"num\">value</th><th class=\"num\">limit</th><th>evidence</th></tr></thead><tbody>\n"
        for f in a.findings {
            s +=
                "<tr id=\"\(anchor(a.id, f.check))\"><td>\(ReportPage.escape(f.check))</td><td>\(ReportPage.pill(f.status.rawValue))</td>"
            s +=
                "<td class=\"num\">\(value(f))</td><td class=\"num\">\(limit(f))</td><td>\(ReportPage.escape(f.message))</td></tr>\n"
        }
        return s + "</tbody></table></div>\n</section>\n"
    }

    /// The id of an asset's card (the asset's id), or of one of its findings (`ID--CHECK`); characters other than
    /// letters, digits, `-` and `_` become `_`.
    static func anchor(_ id: String, _ check: String? = nil) -> String {
        let safe = { (s: String) in String(s.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }) }
        return safe(id) + (check.map { "--" + safe($0) } ?? "")
    }

    /// A finding's value as a reader writes it, with its unit: "−23.1 LUFS", "+0.02 LU", "4.2 s", "1.23×",
    /// "80 points (bowl)"; the status in words when the check has no number.
    static func value(_ f: AssetCheck.Finding) -> String {
        guard let v = f.value else {
            switch f.status {
            case .pass: return "ok"
            case .warn: return "warn"
            case .fail: return "fails"
            case .error: return "error"
            }
        }
        switch f.unit {
        case "LUFS": return ReportPage.number(v) + " LUFS"
        case "LU": return ReportPage.signed(v, digits: 2) + " LU"
        case "s": return ReportPage.number(v) + " s"
        case "points": return ReportPage.number(v, digits: 0) + " (\(AssetCheck.auditionProfile.name))"
        case let unit?: return LoopReport.value(v, unit: unit)
        case nil: return ReportPage.number(v, digits: 2)
        }
    }

    /// A finding's limit with its unit ("±1.0 LU of target", "≥ 3.0 s", "1.10×").
    static func limit(_ f: AssetCheck.Finding) -> String {
        guard let t = f.threshold else { return "" }
        switch f.unit {
        case "LUFS": return "±\(ReportPage.number(t)) LU of target"
        case "LU": return "±\(ReportPage.number(t, digits: 2)) LU"
        case "s": return "≥ \(ReportPage.number(t)) s"
        case let unit?: return LoopReport.value(t, unit: unit)
        case nil: return ReportPage.number(t, digits: 2)
        }
    }

    /// What a card shows besides its findings, made from the asset's analysis by ``sketch(_:)``: its figures and
    /// the sound its player plays (until encoded).
    public struct Sketch: Sendable {
        var figures: [String] = []
        var sound: AudioBuffer?
        var clip: ReportAudio.Clip?
        var playerLabel = ""
        var repeatCount = 1
    }

    /// The encoded players of every sketch with a sound, all at one common level, by asset id.
    static func encode(
        _ assets: [AssetCheck.AssetResult], _ sketches: [Sketch?]
    ) -> (byID: [String: Sketch], target: Double?) {
        let items = assets.indices.map { $0 < sketches.count ? sketches[$0] : nil }
        let levels = items.map { $0?.sound.map { ReportAudio.level($0) } }
        let target = ReportAudio.matchedLevel(levels.compactMap { $0 })
        let clips = Mutex([ReportAudio.Clip?](repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: items.count) { i in
            guard let sound = items[i]?.sound, let level = levels[i] else { return }
            let clip = try? ReportAudio.clip(sound, level: level, target: target)
            clips.withLock { $0[i] = clip }
        }
        let encoded = clips.withLock { $0 }
        var byID: [String: Sketch] = [:]
        for i in items.indices {
            guard var m = items[i] else { continue }
            m.sound = nil
            m.clip = encoded[i]
            byID[assets[i].id] = m
        }
        return (byID, levels.contains { $0 != nil } ? target : nil)
    }

    /// A bell's decay on a time axis in seconds with the strike spacing marked, its waveform (clipped runs shaded,
    /// the end marked when `bell-tail` fails) and spectrogram, played whole (or its first ``bellExcerptSeconds``);
    /// a soundscape's seam close-up and ±1 s view, its seam played three times.
    public static func sketch(_ analysis: AssetCheck.AssetAnalysis) -> Sketch? {
        guard let buffer = analysis.sound else { return nil }
        let entry = analysis.entry
        var m = Sketch()
        switch entry.kind {
        case .bell:
            let decay = analysis.bell?.decay
            if let decay {
                var plot = ReportPlot.decay([
                    (label: nil, db: decay.curve, hop: decay.curveHop, start: decay.curveStart, style: "s0")
                ])
                plot.markers = [.init(x: decay.peakTime + AssetCheck.strikeSpacing, label: "next strike (3 s)")]
                plot.references.append(-20)
                plot.description = "decay of \(entry.id) in dB re its peak"
                m.figures.append(plot.svg(title: "decay, dB re peak"))
            }
            let cut = analysis.result.findings.first { $0.check == "bell-tail" }?.status == .fail
            m.figures += ReportFigures.bellFigures(
                buffer, spectrogram: analysis.bell?.spectrogram, soundStart: analysis.bell?.soundStart ?? 0,
                cutLevel: cut ? decay?.endLevel ?? 0 : nil)
            let keep = min(buffer.frameCount, Int(bellExcerptSeconds * Double(buffer.sampleRate.hertz)))
            let trimmed = keep < buffer.frameCount
            m.playerLabel =
                trimmed
                ? "the first \(ReportPage.number(bellExcerptSeconds, digits: 0)) s of \(ReportPage.number(buffer.duration)) s (trimmed to keep the page small)"
                : "the whole bell"
            m.sound = trimmed ? ReportAudio.faded(buffer.slice(frames: 0..<keep), seconds: 0.5) : buffer
        case .soundscape:
            let region = analysis.soundLoop ?? entry.loop ?? LoopRegion(start: 0, end: FramePosition(buffer.frameCount))
            guard region.start >= 0, region.end <= buffer.frameCount, region.length >= 2 else { return m }
            let e = SeamExcerpt(buffer: buffer, loop: Int(region.start)..<Int(region.end))
            m.figures = [e.closeUpSVG(), e.waveformSVG()]
            m.playerLabel =
                "the seam: last \(ReportPage.number(Double(e.seam) / Double(e.sampleRate))) s into the first, "
                + "\(LoopReport.seamRepeats)×"
            m.repeatCount = LoopReport.seamRepeats
            m.sound = e.listening
        }
        return m
    }
}

extension AssetCheck {
    /// ``run(directory:strict:progress:)`` keeping what the HTML page (``Report/html(links:sketches:)``) shows of
    /// each asset, made from its analysis as it is checked.
    public static func runForReport(
        directory: String, strict: Bool = false, runner: Runner = concurrentRunner,
        progress: (@Sendable (String) -> Void)? = nil
    ) -> (report: Report, sketches: [Report.Sketch?]) {
        let (report, kept) = run(
            directory: directory, strict: strict, runner: runner, progress: progress, keeping: Report.sketch)
        return (report, kept)
    }
}
