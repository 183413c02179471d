import AudioCore
import Foundation

/// The files a results file already has rows for (`--resume RESULTS.jsonl`, docs/scale.md): a batch skips a file
/// whose location and identity (``ResultEnvelope/Key``) are here. The location is the file's real path
/// (``BatchFile/realPath()``), so a folder spelled another way (`./big`, `$PWD/big`, `big//`) or a file given itself
/// that an earlier run found in its folder is still the file done.
///
/// Rows are only reused when they mean what this run's rows would: a row made by another Enso version, or with other
/// settings (another profile, another `--loop`), refuses the resume instead of mixing two kinds of results in one
/// file. A row without an identity (a file that could not be read) is not a done file: it is tried again.
///
/// - Thread safety: a value type; any thread.
public struct ResumeIndex: Sendable {
    /// The files done.
    public private(set) var done: Set<ResultEnvelope.Key> = []
    /// The results file ends inside a line: the resumed run writes `\n` first, so the row it appends starts a line.
    public private(set) var endsInsideLine = false
    /// The working directory that rows without a real path, and files whose folder cannot be resolved, are located
    /// from (``ResultEnvelope/location(from:)``).
    public private(set) var directory = BatchFile.workingDirectory

    /// Why a results file cannot be resumed; the message names the file, the line and the reason.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// An index of nothing done (no `--resume`).
    public init() {}

    /// Reads `path`'s rows of `command` (torn and foreign lines are skipped with a warning, as ``ResultsFile``; rows
    /// of another command with one warning for them all).
    ///
    /// - Throws: ``Refusal`` for the first row made by another version than `enso` or with other `settings`;
    ///   `EnsoError` when the file cannot be read.
    public init(
        reading path: String, command: String, enso: String, settings: [String: String],
        decoder: @escaping @Sendable () -> JSONDecoder,
        warn: (String) -> Void
    ) throws {
        var done: Set<ResultEnvelope.Key> = []
        let directory = BatchFile.workingDirectory
        let summary = try ResultsFile.read(path, command: command, as: Nothing.self, decoder: decoder, warn: warn) {
            line, number in
            let envelope = line.envelope
            if envelope.enso != enso {
                throw Refusal(
                    message:
                        "\(path):\(number): a row made by enso \(envelope.enso), not \(enso): its results may differ; resume into a new results file"
                )
            }
            if envelope.settings != settings {
                throw Refusal(
                    message:
                        "\(path):\(number): a row made with \(Self.describe(envelope.settings)), not \(Self.describe(settings)): resume with the same options or into a new results file"
                )
            }
            if let key = envelope.key(from: directory) { done.insert(key) }
        }
        if let note = summary.otherCommandsNote(lines: true) {
            warn("\(path): \(note), not \(command) rows: skipped")
        }
        self.done = done
        self.endsInsideLine = summary.endsInsideLine
        self.directory = directory
    }

    /// Whether `file`, whose real path is `realPath` (``BatchFile/realPath()``; `nil` when its folder cannot be
    /// resolved), already has a row of this `identity`.
    public func contains(_ file: BatchFile, realPath: String?, identity: ContentIdentity) -> Bool {
        let location = realPath ?? BatchFile.absolute(file.path, from: directory)
        return done.contains(ResultEnvelope.Key(location: location, identity: identity))
    }

    /// Settings in words: `profile=temple, loop=0.5s:2s`, or `no settings`.
    static func describe(_ settings: [String: String]) -> String {
        settings.isEmpty
            ? "no settings" : settings.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: ", ")
    }

    /// A row read for its envelope only.
    struct Nothing: Decodable, Sendable {}
}
