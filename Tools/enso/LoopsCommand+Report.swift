import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import CLISupport
import FileBatch
import Foundation

/// `enso loops report RESULTS.jsonl... | -`: the rows of any number of `loops verify --jsonl` runs printed as one
/// `loops verify` over the same files prints them (the table, `--csv`, `--json`).
extension LoopsCommand {
    static let report = Command(
        name: "report",
        abstract: "Print the rows of 'loops verify --jsonl' runs as one verify over the same files (docs/scale.md).",
        discussion: """
            Reads each RESULTS file (- for standard input) line by line: a torn last line (a run killed while writing
            it) and a line that is not a verify row are named (FILE:LINE) and skipped with a warning; another
            command's rows with one warning (a file of them alone is the wrong file: exit 2, as is no row at all).
            When two rows are of the same file (its real path: 'big', './big' and '$PWD/big' are one folder), the
            later one counts, in the place of the first. Rows are listed by the files' real paths (a one-run verify's
            order for one folder).
            --html writes the rows' page: near-duplicates collapsed, the set's spread, each file's measures (the
            rows carry no sound: 'loops verify --html' over the files draws and plays each seam).
            """,
        arguments: [ArgumentSpec("results", help: "Results files of 'loops verify --jsonl', or -.", variadic: true)],
        options: [
            LoopsOptions.json.spec, LoopsOptions.csv.spec, LoopsOptions.unique.spec, LoopsOptions.strict.spec,
            LoopsOptions.html.spec,
        ],
        exitCodes: LoopsOptions.exitCodes(
            unreadable:
                "Some row is an error, a results file cannot be read or holds lines but no verify row, or there are no rows.",
            jsonl: false),
        run: { args, _ in try runReport(args) })

    static func runReport(_ args: ParsedArguments) throws -> ExitCode {
        if args[LoopsOptions.json] && args[LoopsOptions.csv] { throw UsageError("--json and --csv cannot be combined") }
        let report = try args.value(of: LoopsOptions.html)
        if let report { try OutputFolder.check(report, option: "html", inputs: args.positionals) }
        let read = try ResultsReading.latest(args.positionals, command: "loops verify", as: LoopRow.self).rows
        // A batch is walked in sorted order, folder by folder: shards and resumed runs come back to it, however
        // each run spelled the folder.
        var rows = read.sorted { $0.location < $1.location }.map(\.row)
        // Near-duplicates are found across every run's rows, from the signatures the rows carry.
        let groups = LoopVerifier.groups(rows.map { ($0.json.verdict, $0.likeness) })
        for i in rows.indices { (rows[i].json.group, rows[i].json.groupRank) = groups[i] }
        try show(rows, args: args)
        if let report {
            try writeHTML(
                rows.map { LoopVerifier.Result(row: $0.json, sampleRate: $0.sampleRate, likeness: $0.likeness) },
                to: report)
        }
        if rows.contains(where: { $0.json.verdict == .error }) { return .inputError }
        return rows.contains(where: { $0.json.verdict.fails(strict: args[LoopsOptions.strict]) }) ? .failure : .success
    }

    /// Prints `rows` as `--json`, `--csv` or the table, each error row's reason on stderr: what `loops verify` and
    /// `loops report` print alike.
    static func show(_ rows: [LoopRow], args: ParsedArguments) throws {
        for r in rows where r.json.verdict == .error { Terminal.err("Error: \(r.json.reasons.first ?? r.json.file)") }
        let shown = args[LoopsOptions.unique] ? rows.filter { $0.json.groupRank == 1 } : rows
        if args[LoopsOptions.json] {
            try JSONOutput.print(shown.map(\.json))
        } else if args[LoopsOptions.csv] {
            Terminal.out(csv(shown))
        } else {
            Terminal.out(table(shown, total: rows))
        }
    }
}

/// A `loops verify` row as the views read it: the `--json` object, the file's sample rate (the table shows the
/// loop in seconds) and its likeness signature (`loops report` finds near-duplicates across runs from it). A
/// `--jsonl` line holds all three (`sampleRate` and `likeness` beside the `--json` keys; 0 and `null` for an error
/// row).
struct LoopRow: Codable, Sendable {
    var json: LoopVerifier.JSONRow
    var sampleRate: Int
    var likeness: LikenessSignature?

    init(_ result: LoopVerifier.Result) {
        json = result.json
        sampleRate = result.sampleRate
        likeness = result.likeness
    }

    enum CodingKeys: String, CodingKey { case sampleRate, likeness }

    init(from decoder: any Decoder) throws {
        json = try LoopVerifier.JSONRow(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sampleRate = try c.decodeIfPresent(Int.self, forKey: .sampleRate) ?? 0
        likeness = try c.decodeIfPresent(LikenessSignature.self, forKey: .likeness)
    }

    func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sampleRate, forKey: .sampleRate)
        try c.encode(likeness, forKey: .likeness)
    }
}
