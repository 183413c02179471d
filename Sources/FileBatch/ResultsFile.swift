import AudioCore
import Foundation
import Glibc
import SystemIO

/// Reads a results file of `--jsonl` rows (or standard input, `-`) line by line (docs/scale.md).
///
/// - Only complete lines are rows: a last line without its `\n` is what a run killed while writing leaves (or a
///   run still writing), and is skipped with a warning naming it (`FILE:LINE`).
/// - A line that is not a row (not JSON, a row that does not decode) is skipped with a warning naming it (the first
///   ``namedLines`` of a file; then one warning says how many more); the rest are read.
/// - Rows of another command are skipped and counted (``Summary/otherCommands``), not named one by one: a file of
///   another command's rows is the wrong file, which the caller says once
///   (``Summary/otherCommandsNote(lines:reader:)``).
/// - Empty lines are skipped silently (a resumed run starts with one after a torn line).
///
/// The file is read in 1 MiB pieces; only the current line is held, so reading does not grow with the file.
///
/// - Thread safety: stateless; any thread.
public enum ResultsFile {
    /// What reading a file found besides its rows.
    public struct Summary: Sendable {
        /// Rows read.
        public var rows = 0
        /// Lines skipped (torn, not rows, or rows of another command).
        public var skipped = 0
        /// Complete lines that are not rows (not JSON, a row that does not decode).
        public var notRows = 0
        /// Rows of another command, by command (`bells audition`), with the first and last line of them.
        public var otherCommands: [String: OtherCommand] = [:]
        /// The file ends inside a line (a torn last line): a run appending to it must write `\n` first.
        public var endsInsideLine = false

        /// The rows of one other command in a file.
        public struct OtherCommand: Sendable, Equatable {
            public var count: Int
            public var firstLine: Int
            public var lastLine: Int
        }

        /// The other commands' rows in words, the most first: `305 lines are bells audition rows`, with `lines` where
        /// they are (`, lines 4-309`), or `nil` when there are none. `reader` names the command that reads a
        /// command's rows (`enso bells rank`), said after its count (`: use enso bells rank`).
        public func otherCommandsNote(lines: Bool, reader: (String) -> String? = { _ in nil }) -> String? {
            guard !otherCommands.isEmpty else { return nil }
            return otherCommands.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.map { command, rows in
                let what =
                    rows.count == 1 ? "1 line is a \(command) row" : "\(rows.count) lines are \(command) rows"
                let place =
                    !lines
                    ? ""
                    : rows.count == 1 ? ", line \(rows.firstLine)" : ", lines \(rows.firstLine)-\(rows.lastLine)"
                return what + place + (reader(command).map { ": use \($0)" } ?? "")
            }.joined(separator: "; ")
        }
    }

    /// Where a row's line lies in its results file, so the line can be read again (``OpenResultsFile/line(at:)``)
    /// without holding it: 16 bytes a row.
    public struct Place: Sendable, Hashable {
        /// The line's first byte, from the start of the file.
        public var offset: Int64
        /// The line's bytes, without its `\n`.
        public var length: Int32
        /// The line's 1-based number (what a warning names).
        public var line: Int32
    }

    /// Reads every row of `command` in `path` (`-`: standard input) and hands each to `each`, with its line number,
    /// in the file's order.
    ///
    /// Lines are decoded on `jobs` threads, ``chunkLines`` or ``chunkBytes`` at a time (JSON decoding is most of reading: 10 000 rows
    /// of an audition are 20 MB), so memory holds one chunk of lines, not the file.
    ///
    /// - Parameters:
    ///   - decoder: makes the decoder of one line's JSON (the CLI's, whose non-finite numbers match its encoder);
    ///     called on any thread.
    ///   - warn: a torn or not-a-row line's warning, `FILE:LINE: why` (rows of another command are counted in the
    ///     summary, not warned about).
    /// - Throws: `EnsoError` naming the file when it cannot be opened or read; what `each` throws.
    public static func read<Row: Decodable & Sendable>(
        _ path: String, command: String, as: Row.Type = Row.self,
        jobs: Int = BatchRunner.defaultJobs, decoder: @escaping @Sendable () -> JSONDecoder,
        warn: (String) -> Void, each: (ResultLine<Row>, Int) throws -> Void
    ) throws -> Summary {
        let fd: Int32 = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw EnsoError(errno: errno, "\(path): cannot read the results", path: path) }
        defer { if fd != STDIN_FILENO { close(fd) } }
        return try read(
            fd: fd, copyingTo: nil, path: path, command: command, as: Row.self, jobs: jobs, decoder: decoder,
            warn: warn
        ) { row, place in try each(row, Int(place.line)) }
    }

    /// ``read(_:command:as:jobs:decoder:warn:each:)`` of the open `fd`, each row with its ``Place``; every byte read
    /// is also written to `copy` when given (standard input kept to be read again).
    static func read<Row: Decodable & Sendable>(
        fd: Int32, copyingTo copy: Int32?, path: String, command: String, as: Row.Type, jobs: Int,
        decoder: @escaping @Sendable () -> JSONDecoder, warn: (String) -> Void,
        each: (ResultLine<Row>, Place) throws -> Void
    ) throws -> Summary {
        var summary = Summary()
        var unnamed = 0
        var pending: [(line: [UInt8], place: Place)] = []
        var pendingBytes = 0
        func decodePending() throws {
            let chunk = pending
            pending.removeAll(keepingCapacity: true)
            pendingBytes = 0
            try BatchRunner.run(
                count: chunk.count, jobs: jobs, ordered: true,
                work: { i in Self.decode(chunk[i].line, command: command, as: Row.self, decoder: decoder()) }
            ) { i, decoded in
                let place = chunk[i].place
                switch decoded {
                case .row(let row):
                    summary.rows += 1
                    try each(row, place)
                case .otherCommand(let other):
                    summary.skipped += 1
                    let line = Int(place.line)
                    summary.otherCommands[other, default: .init(count: 0, firstLine: line, lastLine: line)].count += 1
                    summary.otherCommands[other]!.lastLine = line
                case .notARow(let why):
                    summary.skipped += 1
                    summary.notRows += 1
                    if summary.notRows <= namedLines {
                        warn("\(path):\(place.line): not a result row of `enso \(command) --jsonl` (\(why)): skipped")
                    } else {
                        unnamed += 1
                    }
                }
            }
        }
        _ = try forEachLine(fd, copyingTo: copy, path: path) { line, number, offset, complete in
            guard complete else {
                try decodePending()
                summary.endsInsideLine = true
                summary.skipped += 1
                warn("\(path):\(number): an incomplete last line (a run stopped while writing it): skipped")
                return
            }
            guard !line.isEmpty else { return }
            // A copy of the line's own size: `line`'s buffer is kept for the next one.
            pending.append((Array(line), Place(offset: offset, length: Int32(line.count), line: Int32(number))))
            pendingBytes += line.count
            if pending.count >= chunkLines || pendingBytes >= chunkBytes { try decodePending() }
        }
        try decodePending()
        if unnamed > 0 {
            let lines =
                unnamed == 1 ? "1 more line that is not a result row" : "\(unnamed) more lines that are not result rows"
            warn("\(path): \(lines) of `enso \(command) --jsonl`: skipped")
        }
        return summary
    }

    /// How many lines that are not rows a file's warnings name one by one: a file that is no results file (a
    /// recording, a CSV) is told in a few lines, not one a line.
    public static let namedLines = 5

    /// How many lines are decoded together: enough to keep every thread busy, few enough to hold.
    static let chunkLines = 1024
    /// At most this many bytes of lines are held to be decoded together (256 audition rows of 4 KB): what a reader
    /// holds besides its rows stays under a few MB however long its rows are.
    static let chunkBytes = 1 << 20

    /// What one line is.
    enum Decoded<Row: Sendable>: Sendable {
        case row(ResultLine<Row>)
        case otherCommand(String)
        case notARow(String)
    }

    /// Decodes one complete line as a row of `command`.
    static func decode<Row: Decodable & Sendable>(
        _ line: [UInt8], command: String, as: Row.Type, decoder: JSONDecoder
    ) -> Decoded<Row> {
        let data = Data(line)
        do {
            let decoded = try decoder.decode(ResultLine<Row>.self, from: data)
            guard decoded.envelope.command == command else { return .otherCommand(decoded.envelope.command) }
            return .row(decoded)
        } catch {
            if let other = try? decoder.decode(CommandProbe.self, from: data), other.command != command {
                return .otherCommand(other.command)
            }
            return .notARow(reason(error))
        }
    }

    /// Calls `body` with each line of `fd` (without its `\n`), its 1-based number, the offset of its first byte,
    /// and whether it was complete; every byte read is also written to `copy` when given.
    ///
    /// - Returns: the number of lines.
    /// - Throws: `EnsoError` naming `path` when `fd` cannot be read or `copy` written; what `body` throws.
    static func forEachLine(
        _ fd: Int32, copyingTo copy: Int32? = nil, path: String, _ body: ([UInt8], Int, Int64, Bool) throws -> Void
    ) throws -> Int {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var line: [UInt8] = []
        var number = 0
        // The offset of `buffer[0]` and of the line being gathered.
        var base: Int64 = 0
        var lineStart: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw EnsoError(errno: errno, "\(path): cannot read the results", path: path)
            }
            if n == 0 { break }
            if let copy { try write(buffer[0..<n], to: copy, path: path) }
            var start = 0
            for i in 0..<n where buffer[i] == UInt8(ascii: "\n") {
                line.append(contentsOf: buffer[start..<i])
                number += 1
                try body(line, number, lineStart, true)
                line.removeAll(keepingCapacity: true)
                start = i + 1
                lineStart = base + Int64(start)
            }
            line.append(contentsOf: buffer[start..<n])
            base += Int64(n)
        }
        if !line.isEmpty {
            number += 1
            try body(line, number, lineStart, false)
        }
        return number
    }

    /// Writes all of `bytes` to `fd` (the copy of standard input), retrying short writes and EINTR.
    private static func write(_ bytes: ArraySlice<UInt8>, to fd: Int32, path: String) throws {
        try bytes.withUnsafeBytes { buf in
            var done = 0
            while done < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + done, buf.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw EnsoError(
                        errno: errno, "\(path): cannot keep a copy of the results in the temporary folder", path: path)
                }
                done += n
            }
        }
    }

    /// The `command` of a line that is not a whole row: another command's row is named as such.
    struct CommandProbe: Decodable {
        var command: String
    }

    /// A decoding error in a few words: the key or value that did not fit.
    static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "no key \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not a JSON object" : "\"\(path)\" is not what a row holds"
        case DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not JSON" : "\"\(path)\" is not what a row holds"
        default: return "not a row"
        }
    }
}
