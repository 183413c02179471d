import AssetPipeline
import AssetReports
import AudioDSP
import AudioFile
import CLISupport
import FileBatch
import Foundation
import SystemIO

/// `enso loops verify|find|bake`: judge loop seams, find loop points, bake seamless loops (docs/loops.md).
enum LoopsCommand {
    static let command = Command(
        name: "loops",
        abstract: "Verify loop seams, find loop points, bake seamless loops.",
        discussion: "Metric definitions, thresholds and the sidecar schema: docs/loops.md.",
        subcommands: [verify, report, find, bake, SimilarCommand.loops])

    static let verify = Command(
        name: "verify",
        abstract: "Judge the loop seam of audio files (directories are searched recursively).",
        discussion: """
            The loop is the file's embedded loop (WAV smpl, AIFF), its FILE.loop.json sidecar, or the whole file;
            --loop START:END judges another one without writing it (loopSource "option" in JSON).
            Seven metrics are measured against their thresholds; the verdict is the worst of them.
            With --jsonl, rows are written as files finish and listed later by 'enso loops report'.
            Batches, shards and resuming: docs/scale.md.
            --listen plays the seams after the report, through --output (alsa by default; see 'enso play').
            """,
        arguments: [ArgumentSpec("path", help: "Audio files or directories.", variadic: true)],
        options: [
            LoopsOptions.json.spec, LoopsOptions.csv.spec, LoopsOptions.unique.spec, LoopsOptions.strict.spec,
            LoopsOptions.loop.spec, LoopsOptions.html.spec, LoopsOptions.listen.spec, LoopsOptions.listenSeconds.spec,
            LoopsOptions.repeats.spec,
        ] + BatchOptions.specs + DeviceOptions.specs,
        exitCodes: LoopsOptions.exitCodes(
            unreadable:
                "Some file could not be read (the rest are still verified; takes precedence over 1), or a folder given holds no audio file.",
            jsonl: true),
        run: { args, _ in try runVerify(args) })

    static func runVerify(_ args: ParsedArguments) throws -> ExitCode {
        AllocatorTuning.forBatchWork()
        guard !args.positionals.isEmpty else { throw UsageError("give at least one file or directory") }
        if args[LoopsOptions.json] && args[LoopsOptions.csv] { throw UsageError("--json and --csv cannot be combined") }
        if let report = try args.value(of: LoopsOptions.html) {
            try OutputFolder.check(report, option: "html", inputs: args.positionals)
        }
        var loopOption: LoopVerifier.LoopOption?
        let loopText = try args.value(of: LoopsOptions.loop)
        if let raw = loopText {
            guard let c = LoopVerifier.LoopOption(parsing: raw) else {
                throw UsageError(
                    "--loop: '\(raw)' is not START:END in frames or seconds (e.g. 19166:76403, 0.5s:2.25s)")
            }
            if let misorder = c.misorder { throw UsageError("--loop: '\(raw)': \(misorder)") }
            loopOption = c
        }
        try refuseStandardInputWithListen(args.positionals, listen: args[LoopsOptions.listen])
        let plan = try BatchOptions.parse(
            args, command: "loops verify",
            settings: loopText.map { ["loop": $0] } ?? [:],
            positionals: args.positionals, reader: "enso loops report")
        let stdin = try StdioInput(args.positionals)
        let files = plan.selecting(BatchFile.expand(stdin.paths(args.positionals)))
        if plan.jsonl { return try verifyRows(files, loopOption: loopOption, plan: plan) }
        let bar = ProgressBar(total: files.count, label: "verifying", mode: plan.progress)
        var results = LoopVerifier.grouped(
            verifyInOrder(
                files, keepExcerpts: args.has(LoopsOptions.html), loopOption: loopOption, plan: plan, bar: bar))
        bar.finish()
        for i in results.indices {
            results[i].file = stdin.named(results[i].file)
            results[i].reasons = results[i].reasons.map(stdin.named)
        }
        try show(results.map(LoopRow.init), args: args)
        if let report = try args.value(of: LoopsOptions.html) { try writeHTML(results, to: report) }
        if args[LoopsOptions.listen] { try listen(results, args: args) }
        if results.contains(where: { $0.verdict == .error }) { return .inputError }
        return results.contains(where: { $0.fails(strict: args[LoopsOptions.strict]) }) ? .failure : .success
    }

    /// Writes the HTML report of `results` to `report` (`loops verify --html`, `loops report --html`).
    ///
    /// - Throws: `CommandFailure` naming the file when it cannot be written.
    static func writeHTML(_ results: [LoopVerifier.Result], to report: String) throws {
        do {
            try AtomicFile.write(Array(LoopReport.html(results: results).utf8), to: report)
        } catch {
            throw CommandFailure(
                "cannot write the HTML report: \(error.message)", code: error.name, file: report)
        }
        Terminal.err("Wrote \(report)")
    }

    /// The aligned table: one row per file, worst reason in words, then a summary line.
    static func table(_ shown: [LoopRow], total rows: [LoopRow]) -> String {
        let groups = LikenessText.showsGroups(shown.map(\.json.groupRank))
        var (headers, alignments): ([String], [TextTable.Alignment]) = (
            ["FILE", "VERDICT", "LOOP", "REASON"], [.left, .left, .right, .left]
        )
        if groups { (headers, alignments) = LikenessText.inserted(headers, alignments) }
        var t = TextTable(headers: headers, alignments: alignments)
        for r in shown {
            let loop =
                r.json.loop.map { String(format: "%.3f s", Double($0.length) / Double(max(r.sampleRate, 1))) } ?? "-"
            var row = [r.json.file, r.json.verdict.rawValue, loop, r.json.reasons.first ?? "seamless"]
            if groups { row.insert(LikenessText.groupCell(r.json.group, r.json.groupRank), at: 1) }
            t.append(row)
        }
        let counts = LoopVerifier.Verdict.allCases.map { v in
            "\(rows.filter { $0.json.verdict == v }.count) \(v.rawValue)"
        }
        return t.render() + "\n\(rows.count) file\(rows.count == 1 ? "" : "s"): " + counts.joined(separator: ", ")
    }

    /// CSV (``CSVTable``): file, verdict, near-duplicate group and rank in it, loop start/end, the seven metric values
    /// as `--json` has them (empty when not measured; each column named as the metric's case, `dcOffset`), reasons.
    static func csv(_ rows: [LoopRow]) -> String {
        let names = SeamMetrics.Name.allCases
        var table = CSVTable(
            headers: ["file", "verdict", "group", "groupRank", "start", "end"] + names.map { "\($0)" } + ["reasons"])
        for r in rows {
            let row = r.json
            var cells = [
                row.file, row.verdict.rawValue, String(row.group), String(row.groupRank),
                row.loop.map { "\($0.start)" } ?? "", row.loop.map { "\($0.end)" } ?? "",
            ]
            for name in names {
                let v = row.metrics.first { $0.name == name.rawValue }?.value
                cells.append(v.map { String(format: "%.4f", $0) } ?? "")
            }
            cells.append(row.reasons.joined(separator: "; "))
            table.append(cells)
        }
        return table.render()
    }

    /// A duration option (`1.5`, `250ms`, `2s`) in frames at `rate`, or `nil` when it is not given.
    static func frames(_ args: ParsedArguments, _ option: Option<Double>, rate: Int) throws -> Int? {
        try args.value(of: option).map { Int(($0 * Double(rate)).rounded()) }
    }

    /// Checks the grammar of `find`'s and `bake`'s loop options before any file is opened, so a mistyped option is
    /// a usage error (64) rather than the file's error: each duration parses and `--min-length` is not above
    /// `--max-length` (what needs the file's rate, a crossfade of at least one frame, is checked after).
    static func checkLoopOptions(_ args: ParsedArguments) throws {
        let (minimum, maximum) = (
            try args.value(of: LoopsOptions.minLength), try args.value(of: LoopsOptions.maxLength)
        )
        if let minimum, let maximum, minimum > maximum {
            let given = { (option: Option<Double>) in args.text(of: option) ?? "" }
            throw UsageError(
                "--min-length \(given(LoopsOptions.minLength)) is longer than --max-length \(given(LoopsOptions.maxLength))"
            )
        }
    }
}
