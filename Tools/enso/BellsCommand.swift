import AssetPipeline
import AssetReports
import AudioCore
import AudioFile
import CLISupport
import FileBatch
import Foundation
import JSONText

/// `enso bells audition|trim|normalize`: measure, explain and rank bell candidates; prepare the chosen one
/// (docs/bells.md).
enum BellsCommand {
    static let command = Command(
        name: "bells",
        abstract: "Audition and rank bell candidates; fix, trim and normalise the chosen ones.",
        discussion: "Measurements, defects, verdicts and the score: docs/bells.md.",
        subcommands: [audition, rank, fix, trim, normalize, SimilarCommand.bells])

    static let audition = Command(
        name: "audition",
        abstract: "Measure, classify and rank bell candidates (directories are searched recursively).",
        discussion: """
            Each file is classed bell-like, notification-like or ambiguous (by its decay, then its figure), its
            defects listed as reject or fixable (with the command that mends them), and given a verdict: keep, fix,
            listen, reject or error. Files are ranked in that order, by a score for meditation use within each
            verdict (profile weights; --profile-file overrides them; none for reject).
            With a pack (--pack DIR, or run inside a pack's folder) every candidate it would offer is also
            prepared and checked exactly as 'enso assets add' would (trim, DC, the pack's loudness target, then
            every 'assets check' rule) and rejected when the pack would refuse it, the pack's reason first; the
            pack's audition profile (bowl) is used. A keep or fix is then always added by 'assets add'.
            With --jsonl, rows are written as files finish and ranked later by 'enso bells rank'. Batches, shards and resuming: docs/scale.md.
            --listen plays the keep, fix and listen candidates after the report through --output (alsa by default;
            see 'enso play'); without a terminal it reads one key per line from stdin.
            """,
        arguments: [ArgumentSpec("path", help: "Audio files or directories.", variadic: true)],
        options: [
            BellsOptions.json.spec, BellsOptions.csv.spec, BellsOptions.top.spec, BellsOptions.unique.spec,
            BellsOptions.profile.spec, BellsOptions.profileFile.spec, BellsOptions.html.spec, BellsOptions.pack.spec,
            BellsOptions.noPack.spec, BellsOptions.listen.spec, BellsOptions.spacing.spec, BellsOptions.selection.spec,
        ] + BatchOptions.specs + DeviceOptions.specs,
        exitCodes: [
            ExitCodeMeaning(.success, "Some candidate is keep or fix; with --jsonl, every row written."),
            ExitCodeMeaning(
                .failure, "No candidate is keep or fix; with --jsonl, the rows could not be written (a full disk)."),
            ExitCodeMeaning(
                .inputError,
                "Some file could not be decoded (the rest still are; takes precedence over 1; with --jsonl, its row is written too), or a folder given holds no audio file."
            ),
            .usage,
        ],
        run: { args, _ in try runAudition(args) })

    static let trim = Command(
        name: "trim",
        abstract: "Cut pre-roll silence to 10 ms and remove DC offset.",
        discussion: "Written atomically.",
        arguments: [
            ArgumentSpec("input", help: "The bell file."),
            ArgumentSpec("output", help: "Where to write it (format from the extension)."),
        ],
        options: [BellsOptions.json.help("Print what was done as JSON.").spec],
        exitCodes: prepareExitCodes(cannot: "The input cannot be trimmed (silent, NaN)."),
        run: { args, _ in try runPrepare(args, normalizing: false) })

    static let normalize = Command(
        name: "normalize",
        abstract: "Trim, then bring the loudness to a target (iterated gain).",
        discussion: """
            Written atomically. Fails (exit 1, nothing written) when the target would push the true peak above
            --max-true-peak.
            """,
        arguments: [
            ArgumentSpec("input", help: "The bell file."),
            ArgumentSpec("output", help: "Where to write it (format from the extension)."),
        ],
        options: [
            BellsOptions.target.spec,
            BellsOptions.pack.help("Normalise to the target of the pack in DIR.").spec,
            BellsOptions.noPack.help(
                "Ignore the pack whose folder holds the current one (default target \(NumberText.plain(BellTrim.defaultTarget)))."
            ).spec,
            BellsOptions.measure.spec, BellsOptions.maxTruePeak.spec,
            BellsOptions.json.help("Print what was done as JSON.").spec,
        ],
        exitCodes: prepareExitCodes(cannot: "Cannot be normalised."),
        run: { args, _ in try runPrepare(args, normalizing: true) })

    /// The exit codes of `trim` and `normalize`; `cannot` says what exit 1 means.
    static func prepareExitCodes(cannot: String) -> [ExitCodeMeaning] {
        [
            ExitCodeMeaning(.success, "Written."), ExitCodeMeaning(.failure, cannot),
            ExitCodeMeaning(.inputError, "Unreadable input."),
            ExitCodeMeaning(
                .usage,
                "Bad usage (OUT is IN itself included, or a format that cannot hold IN's rate or channels)."),
        ]
    }

    // MARK: - audition

    static func runAudition(_ args: ParsedArguments) throws -> ExitCode {
        AllocatorTuning.forBatchWork()
        guard !args.positionals.isEmpty else { throw UsageError("give at least one file or directory") }
        if args[BellsOptions.json] && args[BellsOptions.csv] {
            throw UsageError("--json and --csv cannot be combined")
        }
        if args.has(BellsOptions.profile) && args.has(BellsOptions.profileFile) {
            throw UsageError("--profile and --profile-file cannot be combined")
        }
        let top = try args.value(of: BellsOptions.top)
        if args[BellsOptions.listen] {
            try OutputFolder.check(
                try args.value(of: BellsOptions.selection) ?? "bells-selection.json", option: "selection",
                inputs: args.positionals)
        }
        if let report = try args.value(of: BellsOptions.html) {
            try OutputFolder.check(report, option: "html", inputs: args.positionals)
        }
        var profile = BellProfile.temple
        if let name = try args.value(of: BellsOptions.profile) {
            profile = BellProfile.named(name)!
        }
        if let file = try args.value(of: BellsOptions.profileFile) {
            do { profile = try BellProfile.load(path: file) } catch {
                throw UsageError("--profile-file: \(error.message)")
            }
        }
        let pack = try AuditionPack.chosen(args, announcing: "Judging for the pack in")
        if let pack { profile = try AuditionPack.profile(args, given: profile, pack: pack) }
        try refuseStandardInputWithListen(args.positionals, listen: args[BellsOptions.listen])
        let plan = try BatchOptions.parse(
            args, command: "bells audition", settings: try auditionSettings(profile, pack: pack, args: args),
            positionals: args.positionals, reader: "enso bells rank")
        let stdin = try StdioInput(args.positionals)
        let files = plan.selecting(BatchFile.expand(stdin.paths(args.positionals)))
        if plan.jsonl { return try auditionRows(files, profile: profile, forPack: pack != nil, plan: plan) }
        let bar = ProgressBar(total: files.count, label: "auditioning", mode: plan.progress)
        // With a report, each file's figures and excerpt are made from its analysis as it finishes (the analysis is
        // then dropped); without one, nothing is kept but the row.
        let report = try args.value(of: BellsOptions.html)
        // The players' excerpts are held for the best candidates only, so the report's memory does not grow with
        // the number of files (``BellReport/HeldExcerpts``).
        let held = report != nil ? BellReport.HeldExcerpts() : nil
        var entries = auditionRanked(files, profile: profile, forPack: pack != nil, plan: plan, bar: bar) {
            report != nil ? BellReport.sketch($0, holding: held) : nil
        }
        bar.finish()
        for i in entries.indices { entries[i].result.file = stdin.named(entries[i].result.file) }
        if let pack { AuditionPack.noteTakenIDs(&entries, pack: pack) }
        let results = entries.map(\.result)
        try show(results, top: top, args: args)
        if let report {
            // The excerpts are encoded after the audition: a bar of their own, not a full one standing still.
            let encoding = ProgressBar(total: BellReport.excerptCount(entries), label: "encoding excerpts")
            // Candidates without an embedded excerpt play their files, linked from the report's folder.
            let html = BellReport.html(entries, profile: profile, links: ReportLinks(page: report)) {
                encoding.advance()
            }
            encoding.finish()
            do { try BellReport.write(html, to: report) } catch {
                throw CommandFailure(error.message, exitCode: .failure, code: error.name, file: report)
            }
            Terminal.err("Wrote \(report)")
        }
        if args[BellsOptions.listen] { try listen(results, args: args) }
        return exitCode(results.map(\.verdict))
    }

    /// Prints ranked `results` as `--json`, `--csv` or the table (the first `top`), each error row's message on
    /// stderr: what `bells audition` prints.
    static func show(_ results: [BellAuditionResult], top: Int?, args: ParsedArguments) throws {
        try show(results.map(BellTableRow.init), top: top, args: args) { results[$0] }
    }

    /// Prints ranked `rows` as `--json`, `--csv` or the table (the first `top`), each error row's message on
    /// stderr: what `bells audition` and `bells rank` print alike. The table is made from the small rows; `--json`
    /// and `--csv` print whole rows, `whole(i)` giving row `i` (at hand for `bells audition`, read again from its
    /// results file for `bells rank`), one at a time.
    static func show(
        _ rows: [BellTableRow], top: Int?, args: ParsedArguments, whole: (Int) throws -> BellAuditionResult
    ) throws {
        for r in rows where r.verdict == .error { Terminal.err(r.errorLine) }
        // `--unique`: the best of each near-duplicate group (``BellAuditionResult/unique(_:)``).
        let listed = args[BellsOptions.unique] ? rows.indices.filter { rows[$0].groupRank == 1 } : Array(rows.indices)
        let shown = Array(listed.prefix(top ?? listed.count))
        if args[BellsOptions.json] {
            try JSONOutput.printArray(count: shown.count) { try whole(shown[$0]) }
        } else if args[BellsOptions.csv] {
            Terminal.out(try csv(count: shown.count) { try whole(shown[$0]) })
        } else {
            Terminal.out(table(shown.map { rows[$0] }, total: rows.map(\.verdict)))
        }
    }

    /// The exit code of ranked rows' verdicts: 2 some file could not be auditioned, else 0 some candidate passes
    /// (``BellAuditionVerdict/passes``), else 1.
    static func exitCode(_ verdicts: [BellAuditionVerdict]) -> ExitCode {
        if verdicts.contains(.error) { return .inputError }
        return verdicts.contains(where: \.passes) ? .success : .failure
    }

    /// What changes an audition's rows besides the files: the profile's name and, for `--profile-file`, the
    /// XXH3-64 of its bytes (`--jsonl` rows carry it; `--resume` refuses rows made with another).
    ///
    /// - Throws: `UsageError` naming `--profile-file` when it cannot be read.
    static func auditionSettings(
        _ profile: BellProfile, pack: AssetPack?, args: ParsedArguments
    ) throws -> [String: String] {
        // Judged for a pack, a row also depends on the pack's rules: its folder says which.
        var settings = ["profile": profile.name]
        if let pack { settings["pack"] = pack.directory }
        guard let file = try args.value(of: BellsOptions.profileFile) else { return settings }
        do {
            settings["profileFile"] = ContentHash.hex(try ContentHash.ofFile(file))
            return settings
        } catch {
            throw UsageError("--profile-file: \(error.message)")
        }
    }

    static func f(_ v: Double?, _ fmt: String) -> String { v.map { String(format: fmt, $0) } ?? "-" }

    /// A CSV cell: `v` formatted, or empty when there is no value (docs/cli.md).
    static func cell(_ v: Double?, _ fmt: String) -> String { v.map { String(format: fmt, $0) } ?? "" }

    /// The aligned table: rank, file, verdict, score, key measurements and the first reason (what decided the
    /// verdict); a GROUP column when the batch holds near-duplicates (``LikenessText``). LUFS is the file's own
    /// integrated loudness (`metrics.loudness.integrated`, BS.1770-4 of the whole file), and the line under the table
    /// says so (and what a `-` there means, when one is shown): a player's "own level" is that of its excerpt
    /// (docs/bells.md, "Output").
    static func table(_ shown: [BellTableRow], total: [BellAuditionVerdict]) -> String {
        let groups = LikenessText.showsGroups(shown.map(\.groupRank))
        var headers = ["#", "FILE", "VERDICT", "CLASS", "SCORE", "LUFS", "D40 S", "ATTACK MS", "DEFECTS", "WHY"]
        var alignments: [TextTable.Alignment] = [
            .right, .left, .left, .left, .right, .right, .right, .right, .left, .left,
        ]
        if groups { (headers, alignments) = (LikenessText.inserted(headers, alignments)) }
        var t = TextTable(headers: headers, alignments: alignments)
        for r in shown {
            var row = [
                String(r.rank), r.file, r.verdict.rawValue, r.bellClass?.rawValue ?? "-", f(r.score, "%.0f"),
                f(r.integrated, "%.1f"), f(r.decay40, "%.2f"), f(r.attack.map { $0 * 1000 }, "%.1f"),
                r.defects.isEmpty ? "-" : r.defects.map(\.rawValue).joined(separator: ","), r.why ?? "",
            ]
            if groups { row.insert(LikenessText.groupCell(r.group, r.groupRank), at: 1) }
            t.append(row)
        }
        let counts = BellAuditionVerdict.allCases.map { v in "\(total.filter { $0 == v }.count) \(v.rawValue)" }
        return t.render() + "\n\(total.count) file\(total.count == 1 ? "" : "s"): " + counts.joined(separator: ", ")
            + "\n"
            + TextTable.note(
                "LUFS: each file's integrated loudness (BS.1770-4, the whole file)"
                    + (shown.contains { $0.integrated == nil } ? Self.noIntegrated : ""))
    }

    /// What a `-` in the LUFS column means, said under the table when a row shows one: BS.1770-4 integrates 400 ms
    /// blocks over an absolute gate of −70 LUFS, and a file shorter than one block, or under the gate throughout, has
    /// none. The padded reading the `too-quiet` rule uses is in `--json`.
    static let noIntegrated =
        "; none (-) for a file shorter than one 400 ms block, or under the -70 LUFS gate throughout: "
        + "--json's integratedPadded reads it with 0.4 s of silence at each end"

    /// CSV (``CSVTable``): one row per file; each column is named as the JSON key holding the same value (the
    /// loudness figures are `metrics.loudness`'s, the others `metrics`'s; units as docs/bells.md gives them), lists
    /// joined as docs/cli.md says (`defects` with `;`, `reasons` with `; `, as `loops verify` joins them).
    /// `row(i)` is the `i`th of the `count` rows shown, in order.
    static func csv(count: Int, _ row: (Int) throws -> BellAuditionResult) rethrows -> String {
        var table = CSVTable(headers: [
            "rank", "file", "verdict", "class", "score", "group", "groupRank", "defects", "integrated",
            "integratedPadded", "maxMomentary",
            "maxShortTerm", "range", "truePeak", "samplePeak", "leadingSilence", "attack", "onsets", "d20", "d40",
            "d60", "edt", "t20", "t30", "noiseFloor", "strongPartials", "inharmonicity", "strikePitch", "centroid",
            "earlyCentroid", "beatRate", "beatDepth", "reasons",
        ])
        for i in 0..<count {
            let r = try row(i)
            let m = r.metrics
            let l = m?.loudness
            let fields: [String] = [
                String(r.rank), r.file, r.verdict.rawValue, r.bellClass?.rawValue ?? "",
                r.score.map { String(format: "%.2f", $0) } ?? "", String(r.group), String(r.groupRank),
                r.defects.map(\.rawValue).joined(separator: ";"), cell(l?.integrated, "%.2f"),
                cell(l?.integratedPadded, "%.2f"),
                cell(l?.maxMomentary, "%.2f"),
                cell(l?.maxShortTerm, "%.2f"), cell(l?.range, "%.2f"), cell(l?.truePeak, "%.2f"),
                cell(l?.samplePeak, "%.2f"),
                cell(m?.leadingSilence, "%.4f"), cell(m?.attack, "%.4f"), m.map { String($0.onsets) } ?? "",
                cell(m?.d20, "%.3f"), cell(m?.d40, "%.3f"), cell(m?.d60, "%.3f"), cell(m?.edt, "%.3f"),
                cell(m?.t20, "%.3f"),
                cell(m?.t30, "%.3f"), cell(m?.noiseFloor, "%.1f"), m.map { String($0.strongPartials) } ?? "",
                cell(m?.inharmonicity, "%.3f"), cell(m?.strikePitch, "%.2f"), cell(m?.centroid, "%.0f"),
                cell(m?.earlyCentroid, "%.0f"), cell(m?.beatRate, "%.2f"), cell(m?.beatDepth, "%.2f"),
                r.reasons.joined(separator: "; "),
            ]
            table.append(fields)
        }
        return table.render()
    }

    // MARK: - trim / normalize

    static func runPrepare(_ args: ParsedArguments, normalizing: Bool) throws -> ExitCode {
        guard args.positionals.count == 2 else { throw UsageError("give an input and an output file") }
        let (input, output) = (args.positionals[0], args.positionals[1])
        try refuseStandardOutput(output, command: normalizing ? "bells normalize" : "bells trim")
        try DistinctOutput.check(input: input, output: output)
        let maxTP = try args.valueOrDefault(of: BellsOptions.maxTruePeak)
        let measure =
            try args.value(of: BellsOptions.measure).flatMap(BellTrim.Measure.init(rawValue:)) ?? .integrated
        var target = BellTrim.defaultTarget
        if let given = try args.value(of: BellsOptions.target) {
            target = given
        } else if normalizing {
            target = try packTarget(args, measure: measure)
        }
        // WAV and FLAC are written at 24 bits: a quiet bell tail keeps its resolution.
        var format = try OutputFormat.inferred(output: output)
        if format == .wav16 { format = .wav24 }
        if format == .flac { format = .flac24 }
        let stdin = try StdioInput([input])
        let decoded = try stdin.decodeInput(input)
        try OutputFormat.check(
            format, output: output, sampleRate: decoded.buffer.sampleRate, channels: decoded.buffer.channels,
            keeping: input)
        let out: AudioBuffer
        let report: BellTrim.Report
        do {
            (out, report) =
                normalizing
                ? try BellTrim.normalize(decoded.buffer, target: target, maxTruePeak: maxTP, measure: measure)
                : try BellTrim.trim(decoded.buffer)
        } catch {
            throw CommandFailure(
                "\(input): \(error.message)", exitCode: .failure, code: error.name, file: input)
        }
        do { try AudioFileEncoder.write(out, to: output, options: EncodeOptions(format: format)) } catch {
            throw CommandFailure(error, exitCode: .failure)
        }
        if args[BellsOptions.json] {
            try JSONOutput.print(PrepareJSON(file: input, output: output, report: report))
        } else {
            var line =
                String(format: "%@: removed %.3f s of pre-roll", output, report.removedSeconds)
                + (DCOffsetText.removed(report.dcRemoved).map { " and " + $0 } ?? "; there was no DC offset")
            if normalizing {
                line += String(
                    format: "; gain %+.2f dB in %d step%@ → %.2f LUFS %@, true peak %.1f dBTP", report.gain,
                    report.iterations, report.iterations == 1 ? "" : "s", report.loudness ?? .nan, measure.rawValue,
                    report.truePeak ?? .nan)
            }
            Terminal.out(line)
        }
        return .success
    }

    /// The target of `bells normalize` without `--target`: the pack's (``AssetPack/Kind/loudnessTarget``, integrated
    /// loudness, what `assets add` sets) when there is one (`--pack DIR`, or the pack whose folder holds the current
    /// one) and the measure is `integrated`; else ``BellTrim/defaultTarget``, saying on stderr why not the pack's.
    static func packTarget(_ args: ParsedArguments, measure: BellTrim.Measure) throws -> Double {
        let packs = AssetPack.Kind.bell.loudnessTarget
        guard let pack = try AuditionPack.chosen(args) else {
            if !args[BellsOptions.noPack] {
                Terminal.err(
                    "Target \(String(format: "%g", BellTrim.defaultTarget)) LUFS, the default: no pack here (a pack's bells are \(String(format: "%g", packs)) LUFS: --pack DIR, or --target)"
                )
            }
            return BellTrim.defaultTarget
        }
        guard measure == .integrated else {
            Terminal.err(
                "Target \(String(format: "%g", BellTrim.defaultTarget)) LUFS \(measure.rawValue), the default: the pack's \(String(format: "%g", packs)) LUFS is integrated loudness (give --target)"
            )
            return BellTrim.defaultTarget
        }
        Terminal.err("Target \(String(format: "%g", packs)) LUFS, the pack's (\(pack.directory))")
        return packs
    }

    /// The `--json` object of `trim` and `normalize`: the files (`file` read, `output` written, as `loops bake`
    /// names them), then the report's keys.
    struct PrepareJSON: Encodable {
        var file: String
        var output: String
        var report: BellTrim.Report

        enum CodingKeys: String, CodingKey { case file, output }

        func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(file, forKey: .file)
            try c.encode(output, forKey: .output)
        }
    }
}
