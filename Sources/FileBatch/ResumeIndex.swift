import AudioCore
import Foundation

/// The files a results file already has rows for (`--resume RESULTS.jsonl`, docs/scale.md): a batch skips a file
/// whose root, relative path and identity (``ResultEnvelope/Key``) are here.
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

    /// Why a results file cannot be resumed; the message names the file, the line and the reason.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// An index of nothing done (no `--resume`).
    public init() {}

    /// Reads `path`'s rows of `command` (torn and foreign lines are skipped with a warning, as ``ResultsFile``).
    ///
    /// - Throws: ``Refusal`` for the first row made by another version than `enso` or with other `settings`;
    ///   `EnsoError` when the file cannot be read.
    public init(
        reading path: String, command: String, enso: String, settings: [String: String],
        decoder: @escaping @Sendable () -> JSONDecoder,
        warn: (String) -> Void
    ) throws {
        var done: Set<ResultEnvelope.Key> = []
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
            if let key = envelope.key { done.insert(key) }
        }
        self.done = done
        self.endsInsideLine = summary.endsInsideLine
    }

    /// Whether `file` with `identity` already has a row.
    public func contains(_ file: BatchFile, identity: ContentIdentity) -> Bool {
        done.contains(ResultEnvelope.Key(root: file.root, relativePath: file.relativePath, identity: identity))
    }

    /// Settings in words: `profile=temple, loop=0.5s:2s`, or `no settings`.
    static func describe(_ settings: [String: String]) -> String {
        settings.isEmpty
            ? "no settings" : settings.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: ", ")
    }

    /// A row read for its envelope only.
    struct Nothing: Decodable, Sendable {}
}
