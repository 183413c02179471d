import AssetPipeline
import AssetReports
import AudioCore
import AudioFile
import CLISupport
import FileBatch
import Foundation
import SystemIO

/// `enso assets check|list|add`: validate an asset pack, show what a pack holds, add to it.
enum AssetsCommand {
    static let command = Command(
        name: "assets",
        abstract: "Check an asset pack, list the bells and soundscapes it holds, or add to it.",
        discussion: """
            A pack is a folder with a manifest.json (schema: docs/assets.md). Without a folder, Enso uses
            --assets DIR, else $ENSO_ASSETS, else the pack bundled with Enso.
            """,
        subcommands: [check, list, add])

    static let check = Command(
        name: "check",
        abstract: "Validate a pack: manifest, files, loudness, loop seams and bells.",
        discussion: """
            Checks the manifest schema; that every file is present and decodes; that its integrated loudness
            is within ±1 LU of its target and matches the manifest; that every soundscape loop passes the seam
            metrics of 'enso loops verify'; that every bell rings through the strike spacing, rings out before
            its file ends, is undamaged, and is classed bell-like with no defect by 'enso bells audition'.
            """,
        arguments: [
            ArgumentSpec(
                "dir", help: "The pack folder (default: --assets, $ENSO_ASSETS, the bundled pack).", optional: true)
        ],
        options: [assets.spec, checkJSON.spec, checkStrict.spec, html.spec, link.spec, BatchOptions.jobs.spec],
        exitCodes: [
            ExitCodeMeaning(.success, "Every check passed (warnings allowed unless --strict)."),
            ExitCodeMeaning(.failure, "A check failed."),
            ExitCodeMeaning(.inputError, "The manifest or a file could not be read."), .usage,
        ],
        run: { args, _ in try runCheck(args) })

    static let list = Command(
        name: "list",
        abstract: "List the bells and soundscapes of a pack (ids to use with --bell and --ambient).",
        arguments: [
            ArgumentSpec(
                "dir", help: "The pack folder (default: --assets, $ENSO_ASSETS, the bundled pack).", optional: true)
        ],
        options: [assets.spec, listKind.spec, listJSON.spec, ids.spec, verbose.spec],
        exitCodes: [
            ExitCodeMeaning(.success, "Listed."),
            ExitCodeMeaning(
                .inputError,
                "The manifest could not be read, or a listed asset's file could not, or a soundscape's loop does not "
                    + "fit its file (each named on stderr, or its `problem` in --json; the others are listed)."),
            .usage,
        ],
        run: { args, _ in try runList(args) })

    // MARK: - Options

    /// `--assets DIR`: the pack folder, as the argument gives it.
    static let assets = ServeCommand.assets.help("The pack folder (same as the argument).")
    static let checkJSON = Flag("json", help: "Print the report as JSON.")
    static let checkStrict = Flag("strict", help: "Count a loop seam warning as a failure.")
    static let html = BellsOptions.html.help("Also write a self-contained HTML page of every finding to REPORT.")
    static let link = Option<String>(
        "link", valueName: "TITLE=PATH", repeatable: true,
        help: "Link another report from the HTML page (repeatable).")
    /// `--kind KIND`: bell or soundscape, checked while the line is parsed.
    static let kind = Option<AssetPack.Kind>(
        .value("kind", valueName: "KIND", help: "bell or soundscape.", choices: kindNames),
        convert: { raw in
            guard let kind = AssetPack.Kind(rawValue: raw) else {
                throw UsageError("--kind: '\(raw)' is not one of \(kindNames.joined(separator: ", "))")
            }
            return kind
        })
    static let listKind = kind.help("Only bell or soundscape.")
    static let kindNames = AssetPack.Kind.allCases.map(\.rawValue)
    static let listJSON = Flag("json", help: "Print the manifest entries as JSON.")
    static let ids = Flag(
        "ids",
        help: "Print only the ids, one a line (what shell completions offer for --bell, --ambient and --interval-bell)."
    )
    static let verbose = Flag(
        "verbose", short: "v",
        help: "Also say (on stderr) which pack is used, how it was found, and each pack the search skipped and why.")

    /// The arguments of `enso` that print the ids of the pack it finds, of `kind`, one a line: what a completion
    /// script runs for an option whose value is an asset id.
    static func idsArguments(_ kind: AssetPack.Kind) -> [String] {
        ["assets", "list", "--ids", "--kind", kind.rawValue]
    }

    /// The pack folder from the argument, `--assets`, `$ENSO_ASSETS` or the bundled pack.
    static func directory(_ args: ParsedArguments) throws -> String {
        if args.positionals.first != nil && args.has(assets) {
            throw UsageError("give the pack folder either as an argument or with --assets, not both")
        }
        let override = try args.positionals.first ?? args.value(of: assets)
        do {
            return try AssetPack.defaultDirectory(override: override)
        } catch {
            throw CommandFailure(error, file: override, exitCode: .inputError)
        }
    }

    /// `assets list -v`: the pack search's choice and every pack it skipped, with the reason, on stderr.
    static func explainSearch(_ args: ParsedArguments) throws {
        let search = AssetPack.search(override: try args.positionals.first ?? args.value(of: assets))
        for skipped in search.skipped {
            Terminal.err("skipped \(skipped.folder): \(skipped.reason); not trusted (pass --assets to use it anyway)")
        }
        if let dir = search.directory {
            Terminal.err("pack: \(dir) (from \(search.origin.rawValue))")
        } else {
            Terminal.err("pack: none found in \(search.looked.joined(separator: ", "))")
        }
    }

    static func runCheck(_ args: ParsedArguments) throws -> ExitCode {
        AllocatorTuning.forBatchWork()
        let dir = try directory(args)
        let htmlPath = try args.value(of: html)
        if let htmlPath {
            try OutputFolder.check(
                htmlPath, option: html.spec.name,
                inputs: [(dir as NSString).appendingPathComponent(AssetPack.manifestName)])
        }
        let json = args[checkJSON]
        let strict = args[checkStrict]
        let manifest = Result { () throws(EnsoError) in try AssetPack.load(directory: dir) }
        let count = (try? manifest.get())?.entries.count ?? 0
        let bar = ProgressBar(total: count, label: "checking", enabled: Terminal.stderrIsTerminal && count > 0)
        // The assets on `--jobs` threads, through the one batch runner; the report keeps the manifest's order.
        let jobs = try BatchOptions.jobs(args)
        let runner: AssetCheck.Runner = { count, work in
            BatchRunner.run(count: count, jobs: jobs, ordered: true, work: work, deliver: { _, _ in })
        }
        // With a page, each asset's figures and excerpt are made from its analysis as it is checked.
        let (report, sketches) =
            htmlPath != nil
            ? AssetCheck.runForReport(directory: dir, strict: strict, runner: runner) { id in bar.advance(item: id) }
            : (AssetCheck.run(directory: dir, strict: strict, runner: runner) { id in bar.advance(item: id) }, [])
        bar.finish()
        if let html = htmlPath {
            let links = try args.allValues(of: link).map { link -> (title: String, path: String) in
                let parts = link.split(separator: "=", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : (link, link)
            }
            do {
                try AtomicFile.write(Array(report.html(links: links, sketches: sketches).utf8), to: html)
            } catch {
                throw CommandFailure("cannot write the report: \(error.message)", code: error.kind.rawValue, file: html)
            }
        }
        // An unreadable manifest is the command's error (exit 2), in --json mode the error object.
        if let error = report.manifestError {
            var code = ErrorKind.invalidInput.rawValue
            if case .failure(let e) = manifest { code = e.kind.rawValue }
            throw CommandFailure(error, exitCode: .inputError, code: code, file: dir)
        }
        if json {
            try JSONOutput.print(report)
        } else {
            printReport(report)
        }
        return ExitCode(report.exitCode(strict: strict))
    }

    static func printReport(_ report: AssetCheck.Report) {
        var table = TextTable(
            headers: ["ID", "KIND", "VERDICT", "LOUDNESS", "FILE"], alignments: [.left, .left, .left, .right, .left])
        for a in report.assets {
            table.append([
                a.id, a.kind.rawValue, a.verdict.rawValue, a.loudness.map { String(format: "%.1f LUFS", $0) } ?? "-",
                a.file,
            ])
        }
        Terminal.out(table.render())
        for a in report.assets where a.verdict != .pass {
            for f in AssetCheck.readAlone(a.findings) where f.status != .pass {
                let line = "\(a.id): \(f.status.rawValue) \(f.check): \(f.message)"
                if f.status == .error { Terminal.err("Error: \(line)") } else { Terminal.out(line) }
            }
        }
        for file in report.unlisted { Terminal.out("note: \(file) is in the folder but not in the manifest") }
        let failed = report.assets.filter { $0.verdict >= .fail }.count
        Terminal.out(
            "\(report.directory): \(report.assets.count) assets, \(failed) failing: \(report.verdict == .pass ? "pack OK" : report.verdict.rawValue)"
        )
    }

    static func runList(_ args: ParsedArguments) throws -> ExitCode {
        if args[listJSON] && args[ids] { throw UsageError("give --json or --ids, not both") }
        if args[verbose] { try explainSearch(args) }
        let dir = try directory(args)
        let kind = try args.value(of: listKind)
        let pack: AssetPack
        do {
            pack = try AssetPack.load(directory: dir)
        } catch {
            throw CommandFailure(error, file: dir, exitCode: .inputError)
        }
        let entries = kind.map { pack.entries(kind: $0) } ?? pack.entries
        if args[ids] {
            for e in entries { Terminal.out(e.id) }
            return .success
        }
        // Each file's header read once (``AssetListRow``): a file that is missing or not audio is named, not listed
        // as if it played.
        let rows = entries.map { AssetListRow($0, in: pack) }
        let broken = rows.filter { $0.entry.problem != nil }
        if args[listJSON] {
            try JSONOutput.print(rows)
            return broken.isEmpty ? .success : .inputError
        }
        var table = TextTable(
            headers: ["ID", "NAME", "KIND", "LOOP", "LOUDNESS", "FILE"],
            alignments: [.left, .left, .left, .right, .right, .left])
        for (e, row) in zip(entries, rows) {
            // A soundscape without a loop in the manifest loops as a whole file (EngineAssetLoader.ThemeLoop).
            let loop: String =
                if row.entry.problem != nil { "?" } else if let s = row.entry.loopSeconds {
                    String(format: "%.2f s", s)
                } else {
                    "-"
                }
            table.append([
                e.id, e.displayName, e.kind.rawValue, loop, String(format: "%.1f LUFS", e.loudness.integrated), e.file,
            ])
        }
        Terminal.out("\(pack.name) (\(pack.directory))")
        Terminal.out(table.render())
        for row in broken {
            Terminal.err("Error: \(row.entry.id): \(row.entry.problem!) ('enso assets check' says what else is wrong)")
        }
        return broken.isEmpty ? .success : .inputError
    }
}
