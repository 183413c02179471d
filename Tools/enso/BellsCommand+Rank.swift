import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import CLISupport
import FileBatch
import Foundation

/// `enso bells rank RESULTS.jsonl... | -`: the rows of any number of `bells audition --jsonl` runs (shards, resumed
/// runs) ranked and printed exactly as one `bells audition` over the same files prints them.
extension BellsCommand {
    static let rank = Command(
        name: "rank",
        abstract: "Rank the rows of 'bells audition --jsonl' runs as one audition over the same files (docs/scale.md).",
        discussion: """
            Reads each RESULTS file (- for standard input) line by line: a torn last line (a run killed while writing
            it) and a line that is not an audition row are named (FILE:LINE) and skipped with a warning; another
            command's rows with one warning (a file of them alone is the wrong file: exit 2, as is no row at all).
            When two rows are of the same file (its real path: a file measured again after it changed, shards that
            overlapped, 'big' and './big' given for one folder), the later one counts (later in the files' order, then
            in the file). The table, --csv, --json and --top are those of 'bells audition'.
            """,
        arguments: [ArgumentSpec("results", help: "Results files of 'bells audition --jsonl', or -.", variadic: true)],
        options: [
            BellsOptions.json.spec, BellsOptions.csv.spec, BellsOptions.top.spec,
            BellsOptions.unique.help(
                "Print only the best of each group of near-duplicates, found across every run's rows (docs/similarity.md); with --top, the N best such."
            ).spec,
        ],
        exitCodes: [
            ExitCodeMeaning(.success, "Some candidate is keep or fix."),
            ExitCodeMeaning(.failure, "None is."),
            ExitCodeMeaning(
                .inputError,
                "Some row is an error, a results file cannot be read or holds lines but no audition row, or there are no rows."
            ),
            .usage,
        ],
        run: { args, _ in try runRank(args) })

    static func runRank(_ args: ParsedArguments) throws -> ExitCode {
        if args[BellsOptions.json] && args[BellsOptions.csv] { throw UsageError("--json and --csv cannot be combined") }
        let top = try args.value(of: BellsOptions.top)
        // `--json` and `--csv` print whole rows, read again: the small rows need no table cells then.
        let cells = !args[BellsOptions.json] && !args[BellsOptions.csv]
        let reading = try ResultsReading.latest(args.positionals, command: "bells audition", as: BellRankRow.self) {
            let decoder = JSONOutput.decoder()
            decoder.userInfo[BellRankRow.tableCells] = cells
            return decoder
        }
        let rows = reading.rows
        // As ``BellAuditionResult/ranked(_:)`` ranks whole rows: rank order, then near-duplicate groups.
        let order = rows.indices.sorted {
            let (a, b) = (rows[$0].row.table, rows[$1].row.table)
            return BellAuditionResult.ranksBefore((a.verdict, a.score, a.file), (b.verdict, b.score, b.file))
        }
        let groups = LikenessGroups.group(count: order.count) { rows[order[$0]].row.likeness?.signature }
        let table = order.indices.map { i in
            var t = rows[order[i]].row.table
            (t.rank, t.group, t.groupRank) = (i + 1, groups[i].group, groups[i].groupRank)
            return t
        }
        try show(table, top: top, args: args) { i in
            var whole = try reading.whole(rows[order[i]], as: BellAuditionResult.self)
            (whole.rank, whole.group, whole.groupRank) = (table[i].rank, table[i].group, table[i].groupRank)
            return whole
        }
        return exitCode(table.map(\.verdict))
    }
}

/// A `bells audition --jsonl` row as `bells rank` holds it: the table's keys (``BellTableRow``) and the likeness
/// signature it is grouped by, packed (``LikenessSignature/Packed``: a quarter of its memory, the same figures); the
/// rest of the line is read again only when an output prints it.
struct BellRankRow: Decodable, Sendable {
    var table: BellTableRow
    var likeness: LikenessSignature.Packed?

    /// Whether the table's cells are read (`userInfo` of the decoder, `Bool`; they are when not said).
    static let tableCells = CodingUserInfoKey(rawValue: "tableCells")!

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: BellTableRow.CodingKeys.self)
        table = try BellTableRow(c, cells: decoder.userInfo[Self.tableCells] as? Bool ?? true)
        likeness = try c.decodeIfPresent(LikenessSignature.self, forKey: .likeness).map(LikenessSignature.Packed.init)
    }
}
