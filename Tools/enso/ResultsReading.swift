import AudioCore
import AudioFile
import CLISupport
import FileBatch
import Foundation

/// The rows of results files as a command that views them reads them (`bells rank`, `loops report`): each row held
/// small (`Row`: what ordering, grouping and the table need) with where its line is, so that an output needing
/// whole rows (`--json`, `--csv`) reads each line again as it prints it (``whole(_:as:)``). Memory holds the small
/// rows, never the results (docs/scale.md, "Memory").
///
/// - Thread safety: a value; ``whole(_:as:)`` from any thread.
struct ResultsReading<Row: Decodable & Sendable> {
    /// One row read: which file it is of, the small row, and where its line is.
    struct Read {
        /// The file's one name, however its path was spelled (``ResultEnvelope/location(from:)``): rows with the
        /// same location are of one file.
        var location: String
        var row: Row
        /// The results file it came from (an index into ``files``).
        var source: Int
        var place: ResultsFile.Place
    }

    /// The results files read, in the order given (open: rows are read again from them).
    var files: [OpenResultsFile]
    /// The rows, the later row of a file (same location) in the place of an earlier one.
    var rows: [Read]

    /// The rows of `command` in `paths`, the later row of a file (the same location, ``Read/location``: a file
    /// measured again after it changed, shards that overlapped, a folder given as `big` and as `./big`) replacing an
    /// earlier one in place; warnings for skipped lines on stderr, one for a file's rows of another command.
    /// `decoder` makes each line's decoder (the CLI's, with what `Row` is told in its `userInfo`).
    /// Standard input (`-`) is copied to an unlinked temporary file as it is read
    /// (``OpenResultsFile``), so its rows can be read again too.
    ///
    /// A results file with lines but no row of `command` (another command's rows, a file that is no results file)
    /// is the wrong file: an error, whatever the other files hold. A file with no line (a shard that held no file)
    /// is only warned about, unless no file holds a row: then there is nothing to rank, and that is an error too.
    ///
    /// - Throws: `UsageError` when no results file is given or `-` is given twice; `CommandFailure` (exit 2) naming
    ///   a results file that cannot be read; `CommandFailure` (exit 2, code `no-rows`) naming a results file that
    ///   holds lines but no row of `command`, or the first of them when none holds a row.
    static func latest(
        _ paths: [String], command: String, as: Row.Type,
        decoder: @escaping @Sendable () -> JSONDecoder = { JSONOutput.decoder() }
    ) throws -> Self {
        guard !paths.isEmpty else { throw UsageError("give at least one results file, or -") }
        if paths.filter({ StandardStream.isStandard($0) }).count > 1 {
            throw UsageError("'-' (standard input) is given more than once; it can be read once")
        }
        var reading = Self(files: [], rows: [])
        var index: [String: Int] = [:]
        let directory = BatchFile.workingDirectory
        var empty: [String] = []
        for path in paths {
            let summary: ResultsFile.Summary
            do {
                let file = try OpenResultsFile(path)
                let source = reading.files.count
                reading.files.append(file)
                summary = try file.read(
                    command: command, as: Row.self, decoder: decoder,
                    warn: { Terminal.err("Warning: \($0)") }
                ) { line, place in
                    let location = line.envelope.location(from: directory)
                    let read = Read(location: location, row: line.row, source: source, place: place)
                    if let i = index[location] {
                        reading.rows[i] = read
                    } else {
                        index[location] = reading.rows.count
                        reading.rows.append(read)
                    }
                }
            } catch let error as EnsoError {
                throw CommandFailure(error.message, exitCode: .inputError, code: error.kind.rawValue, file: path)
            }
            if summary.rows > 0 {
                if let note = summary.otherCommandsNote(lines: true) {
                    Terminal.err("Warning: \(path): \(note), not \(command) rows: skipped")
                }
                continue
            }
            let note = summary.otherCommandsNote(lines: false, reader: readerCommand)
            let notRows =
                summary.notRows == 0
                ? nil : summary.notRows == 1 ? "1 line is not a row" : "\(summary.notRows) lines are not rows"
            guard note != nil || notRows != nil else {
                empty.append(path)
                continue
            }
            throw CommandFailure(
                "\(path): holds no \(command) rows (\([note, notRows].compactMap { $0 }.joined(separator: "; ")))",
                exitCode: .inputError, code: noRowsCode, file: path)
        }
        if reading.rows.isEmpty, let first = empty.first {
            let others = empty.count > 1 ? " (nor do \(count(empty.count - 1, "other results file")))" : ""
            throw CommandFailure(
                "\(first): holds no rows\(others)", exitCode: .inputError, code: noRowsCode, file: first)
        }
        for path in empty { Terminal.err("Warning: \(path): holds no rows") }
        return reading
    }

    /// The error code of a results file that holds no row of the command read (docs/cli.md, "The error object").
    static var noRowsCode: String { "no-rows" }

    /// The command that reads `command`'s rows (`enso bells rank` for `bells audition`), when there is one.
    static func readerCommand(_ command: String) -> String? {
        ["bells audition": "enso bells rank", "loops verify": "enso loops report"][command]
    }

    /// `n` and `noun`, plural when `n` is not 1: `1 line`, `3 lines`.
    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// `read`'s row whole, as `Whole`, its line read again from its results file.
    ///
    /// - Throws: `CommandFailure` (exit 2) naming the file and line when it cannot be read again or no longer
    ///   decodes (the file changed while read).
    func whole<Whole: Decodable>(_ read: Read, as: Whole.Type) throws -> Whole {
        let file = files[read.source]
        do {
            return try JSONOutput.decoder().decode(Whole.self, from: Data(try file.line(at: read.place)))
        } catch let error as EnsoError {
            throw CommandFailure(error.message, exitCode: .inputError, code: error.kind.rawValue, file: file.path)
        } catch {
            throw CommandFailure(
                "\(file.path):\(read.place.line): the row no longer reads whole (the file changed while read)",
                exitCode: .inputError, code: ErrorKind.invalidInput.rawValue, file: file.path)
        }
    }
}
