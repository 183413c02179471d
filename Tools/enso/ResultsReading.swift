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
    /// One row read: where its file was found, the small row, and where its line is.
    struct Read {
        var root: String
        var relativePath: String
        var row: Row
        /// The results file it came from (an index into ``files``).
        var source: Int
        var place: ResultsFile.Place
    }

    /// The results files read, in the order given (open: rows are read again from them).
    var files: [OpenResultsFile]
    /// The rows, the later row of a file (same root and relative path) in the place of an earlier one.
    var rows: [Read]

    /// The rows of `command` in `paths`, the later row of a file (same root and relative path: a file measured
    /// again after it changed, or shards that overlapped) replacing an earlier one in place; warnings for skipped
    /// lines on stderr. `decoder` makes each line's decoder (the CLI's, with what `Row` is told in its `userInfo`).
    /// Standard input (`-`) is copied to an unlinked temporary file as it is read
    /// (``OpenResultsFile``), so its rows can be read again too.
    ///
    /// - Throws: `UsageError` when no results file is given or `-` is given twice; `CommandFailure` (exit 2) naming
    ///   a results file that cannot be read.
    static func latest(
        _ paths: [String], command: String, as: Row.Type,
        decoder: @escaping @Sendable () -> JSONDecoder = { JSONOutput.decoder() }
    ) throws -> Self {
        guard !paths.isEmpty else { throw UsageError("give at least one results file, or -") }
        if paths.filter({ StandardStream.isStandard($0) }).count > 1 {
            throw UsageError("'-' (standard input) is given more than once; it can be read once")
        }
        var reading = Self(files: [], rows: [])
        var index: [ResultPlace: Int] = [:]
        for path in paths {
            do {
                let file = try OpenResultsFile(path)
                let source = reading.files.count
                reading.files.append(file)
                _ = try file.read(
                    command: command, as: Row.self, decoder: decoder,
                    warn: { Terminal.err("Warning: \($0)") }
                ) { line, place in
                    let e = line.envelope
                    let read = Read(
                        root: e.root, relativePath: e.relativePath, row: line.row, source: source, place: place)
                    let key = ResultPlace(root: e.root, relativePath: e.relativePath)
                    if let i = index[key] {
                        reading.rows[i] = read
                    } else {
                        index[key] = reading.rows.count
                        reading.rows.append(read)
                    }
                }
            } catch let error as EnsoError {
                throw CommandFailure(error.message, exitCode: .inputError, code: error.kind.rawValue, file: path)
            }
        }
        return reading
    }

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

/// Where a row's file was found: two rows with the same place are of the same file.
private struct ResultPlace: Hashable {
    var root: String
    var relativePath: String
}
