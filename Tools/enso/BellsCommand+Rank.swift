import AssetPipeline
import AudioCore
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
            it) and a line that is not an audition row are named (FILE:LINE) and skipped with a warning. When two rows
            are of the same file (the same root and relative path: a file measured again after it changed, or shards
            that overlapped), the later one counts (later in the files' order, then in the file). The table, --csv,
            --json and --top are those of 'bells audition'.
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
            ExitCodeMeaning(.failure, "None is (or there are no rows)."),
            ExitCodeMeaning(.inputError, "Some row is an error or a results file cannot be read."),
            .usage,
        ],
        run: { args, _ in try runRank(args) })

    static func runRank(_ args: ParsedArguments) throws -> ExitCode {
        if args[BellsOptions.json] && args[BellsOptions.csv] { throw UsageError("--json and --csv cannot be combined") }
        let top = try args.value(of: BellsOptions.top)
        let read = try ResultsReading.latest(args.positionals, command: "bells audition", as: BellAuditionResult.self)
        let results = BellAuditionResult.ranked(read.map(\.row))
        try show(results, top: top, args: args)
        return exitCode(results)
    }
}

/// Reading the rows of results files for a command that views them (`bells rank`, `loops report`).
enum ResultsReading {
    /// The rows of `command` in `paths` with their envelopes, the later row of a file (same root and relative path)
    /// replacing an earlier one in place; warnings for skipped lines on stderr.
    ///
    /// - Throws: `UsageError` when no results file is given or `-` is given twice; `CommandFailure` (exit 2) naming
    ///   a results file that cannot be read.
    static func latest<Row: Decodable & Sendable>(
        _ paths: [String], command: String, as: Row.Type
    ) throws -> [(envelope: ResultEnvelope, row: Row)] {
        guard !paths.isEmpty else { throw UsageError("give at least one results file, or -") }
        if paths.filter({ StandardStream.isStandard($0) }).count > 1 {
            throw UsageError("'-' (standard input) is given more than once; it can be read once")
        }
        var rows: [(envelope: ResultEnvelope, row: Row)] = []
        var index: [ResultPlace: Int] = [:]
        for path in paths {
            do {
                _ = try ResultsFile.read(
                    path, command: command, as: Row.self, decoder: { JSONOutput.decoder() },
                    warn: { Terminal.err("Warning: \($0)") }
                ) { line, _ in
                    let place = ResultPlace(root: line.envelope.root, relativePath: line.envelope.relativePath)
                    if let i = index[place] {
                        rows[i] = (line.envelope, line.row)
                    } else {
                        index[place] = rows.count
                        rows.append((line.envelope, line.row))
                    }
                }
            } catch let error as EnsoError {
                throw CommandFailure(error.message, exitCode: .inputError, code: error.kind.rawValue, file: path)
            }
        }
        return rows
    }
}

/// Where a row's file was found: two rows with the same place are of the same file.
private struct ResultPlace: Hashable {
    var root: String
    var relativePath: String
}
