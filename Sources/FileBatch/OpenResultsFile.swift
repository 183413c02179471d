import AudioCore
import Foundation
import Glibc
import SystemIO

/// A results file opened to be read twice: once for its rows, kept small by the reader (``read(command:as:jobs:decoder:warn:each:)``
/// hands each row with its ``ResultsFile/Place``), then the few lines an output needs whole, by their places
/// (``line(at:)``). What `bells rank` and `loops report` read: the sort keys, groups and table of 10 000 rows fit
/// in a few MB, where the rows themselves are hundreds (docs/scale.md, "Memory").
///
/// Standard input (`-`) cannot be read twice: as it is read, its bytes are copied to a temporary file (in
/// `$TMPDIR`, else `/tmp`) that is unlinked as soon as it is made, so it is gone when the reader closes it or
/// exits, however it exits. The disk then holds one copy of the rows; memory holds none.
///
/// - Thread safety: ``line(at:)`` from any thread (`pread`); ``read(command:as:jobs:decoder:warn:each:)`` once,
///   from one thread, before any ``line(at:)``.
public final class OpenResultsFile: Sendable {
    /// The path given (`-` for standard input): what messages name.
    public let path: String
    /// What ``line(at:)`` reads: the file, or standard input's copy.
    private let fd: Int32
    /// Whether ``fd`` is standard input's copy, written while ``read(command:as:jobs:decoder:warn:each:)`` reads.
    private let isCopy: Bool

    /// Opens `path` (`-`: standard input, whose copy is made in the temporary folder).
    ///
    /// - Throws: `EnsoError` naming `path` when it cannot be opened, or the copy cannot be made.
    public init(_ path: String) throws {
        self.path = path
        if path == "-" {
            let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array((folder + "/enso-results-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else {
                throw EnsoError(
                    errno: errno, "-: cannot keep a copy of standard input's results in \(folder)", path: path)
            }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            self.fd = fd
            isCopy = true
        } else {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw EnsoError(errno: errno, "\(path): cannot read the results", path: path) }
            self.fd = fd
            isCopy = false
        }
    }

    deinit { close(fd) }

    /// Reads every row of `command` as ``ResultsFile/read(_:command:as:jobs:decoder:warn:each:)`` does, each with
    /// its ``ResultsFile/Place``. `Row` need hold only what the caller keeps: its keys are all a line must have.
    ///
    /// - Throws: `EnsoError` naming the file when it cannot be read; what `each` throws.
    public func read<Row: Decodable & Sendable>(
        command: String, as: Row.Type, jobs: Int = BatchRunner.defaultJobs,
        decoder: @escaping @Sendable () -> JSONDecoder, warn: (String) -> Void,
        each: (ResultLine<Row>, ResultsFile.Place) throws -> Void
    ) throws -> ResultsFile.Summary {
        try ResultsFile.read(
            fd: isCopy ? STDIN_FILENO : fd, copyingTo: isCopy ? fd : nil, path: path, command: command, as: Row.self,
            jobs: jobs, decoder: decoder, warn: warn, each: each)
    }

    /// The bytes of the line at `place` (without its `\n`), read again from the file.
    ///
    /// - Throws: `EnsoError` naming the file when it cannot be read, or ends before the line (it was cut since).
    public func line(at place: ResultsFile.Place) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(place.length))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, $0.count - done, off_t(place.offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw EnsoError(errno: errno, "\(path): cannot read the results", path: path)
            }
            guard n > 0 else {
                throw EnsoError(
                    .invalidInput, "\(path):\(place.line): the file ends before this line (it changed while read)",
                    path: path)
            }
            done += n
        }
        return bytes
    }
}
