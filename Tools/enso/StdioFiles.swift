import AudioCore
import AudioFile
import CLISupport
import Foundation

/// `-` as IN (standard input) for every command that reads audio files (`info`, `convert`, `bells
/// audition|trim|normalize`, `loops verify|find|bake`): spooled once into a temporary file
/// (``StandardStream/spoolInput()``, within the decode limit's bound: a longer WAV or AIFF by its header alone), read
/// from there, named `-` in every message and row, removed at the end.
final class StdioInput {
    private var spooled: String?

    /// Spools standard input when `arguments` name `-`; refuses `-` twice (stdin can be read once) and a terminal.
    ///
    /// - Throws: `UsageError` (exit 64) for those two; `CommandFailure` (exit 2) when stdin is empty, unreadable, no
    ///   sound (its first 64 KiB match no format) or over ``StandardStream/maxSpoolBytes``.
    init(_ arguments: [String]) throws {
        let count = arguments.filter(StandardStream.isStandard).count
        guard count > 0 else { return }
        guard count == 1 else { throw UsageError("'-' (standard input) is given \(count) times; it can be read once") }
        guard !Terminal.stdinIsTerminal else {
            throw UsageError("'-' reads standard input, which is a terminal: pipe a file in (… | enso info -)")
        }
        do {
            spooled = try StandardStream.spoolInput()
        } catch {
            throw CommandFailure(error.message, exitCode: .inputError)
        }
    }

    deinit { remove() }

    /// The file to read for `path`: the spooled copy for `-`, else `path` itself.
    func path(for path: String) -> String {
        StandardStream.isStandard(path) ? (spooled ?? path) : path
    }

    /// `AudioFileDecoder.decode` of `path`, with the spooled copy's name replaced by `-` in an error; with
    /// `salvaging`, `decodeTolerant`: a stream that breaks or ends early keeps what decodes.
    func decode(_ path: String, salvaging: Bool = false) throws(EnsoError) -> DecodedAudio {
        do {
            let file = self.path(for: path)
            return try salvaging ? AudioFileDecoder.decodeTolerant(path: file) : AudioFileDecoder.decode(path: file)
        } catch {
            throw renamed(error)
        }
    }

    /// `AudioFileDecoder.decodeInput` of `path` (a command's one input), the spooled copy named `-`.
    ///
    /// - Throws: `CommandFailure` (exit 2 for a file that cannot be read).
    func decodeInput(_ path: String) throws -> DecodedAudio {
        do {
            return try decode(path)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// `arguments` with `-` replaced by the spooled copy, for a batch command's file list.
    func paths(_ arguments: [String]) -> [String] { arguments.map(path(for:)) }

    /// `text` (a row's file or a message) with the spooled copy's name replaced by `-`.
    func named(_ text: String) -> String {
        guard let spooled else { return text }
        return text.replacingOccurrences(of: spooled, with: StandardStream.name)
    }

    /// `error` with the spooled copy's name replaced by `-`.
    func renamed(_ error: EnsoError) -> EnsoError {
        guard let spooled else { return error }
        var e = error
        e.message = e.message.replacingOccurrences(of: spooled, with: StandardStream.name)
        if e.path == spooled { e.path = StandardStream.name }
        return e
    }

    /// Removes the spooled copy.
    func remove() {
        if let spooled { StandardStream.discard(spooled) }
        spooled = nil
    }
}

/// Refuses `-` among `arguments` with `--listen`, which plays the files again after the report (and `bells
/// audition` names them in its selection): standard input is read once.
///
/// - Throws: `UsageError` (exit 64).
func refuseStandardInputWithListen(_ arguments: [String], listen: Bool) throws {
    guard listen, arguments.contains(where: StandardStream.isStandard) else { return }
    throw UsageError(
        "--listen plays the files again after the report, and '-' (standard input) can be read once: "
            + "save it to a file first")
}

/// Refuses `-` as OUT for a command that writes a file it names by extension (`bells trim|normalize`, `loops
/// bake`): they have no `--format`, so the words say how to get the audio on stdout instead.
///
/// - Throws: `UsageError` (exit 64).
func refuseStandardOutput(_ output: String, command: String) throws {
    guard StandardStream.isStandard(output) else { return }
    throw UsageError(
        "OUT '-' (standard output): '\(command)' writes a file named by its extension (OUT.wav, OUT.flac); "
            + "to pipe the result, write a file and send it on with 'enso convert OUT.wav - --format wav24'")
}

/// `-` as OUT (standard output) for `convert` and `render -o`: the file is written complete into a temporary
/// folder and then copied to stdout (``StandardStream``), so every format works and a failed write sends nothing.
struct StdioOutput {
    /// What the user gave (`-` or a path), for messages.
    let name: String
    /// Where the writers write: a temporary file for `-`, else the path itself.
    let path: String

    init(_ name: String, format: EncodeFormat) throws {
        self.name = name
        if StandardStream.isStandard(name) {
            do {
                path = try StandardStream.temporaryOutputPath(extension: format.container)
            } catch {
                throw CommandFailure(error.message)
            }
        } else {
            path = name
        }
    }

    var isStandard: Bool { path != name }

    /// Sends a complete `-` output to stdout (nothing to do for a file).
    ///
    /// A reader that stops early (`| soxi -`) is no failure: it is noted (``Terminal/noteReaderStopped()``) and
    /// the tool exits quietly with ``ExitCode/readerStopped``.
    ///
    /// - Throws: `CommandFailure` (exit 1) when stdout is full or cannot be written; ``ExitCode/readerStopped``
    ///   when its reader stopped.
    func finish() throws {
        guard isStandard else { return }
        do {
            try StandardStream.sendToOutput(path)
        } catch {
            if error.code == EPIPE {
                Terminal.noteReaderStopped()
                throw ExitCode.readerStopped
            }
            throw CommandFailure(error.message)
        }
    }

    /// Removes a `-` output that will not be sent (a failure).
    func discard() {
        if isStandard { StandardStream.discard(path) }
    }

    /// Prints a command's result line: to stdout for a file, to stderr when stdout carries the audio.
    func report(_ line: String) {
        if isStandard { Terminal.err(line) } else { Terminal.out(line) }
    }
}
