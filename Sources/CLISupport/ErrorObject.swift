/// The one error object of the CLI's JSON (docs/cli.md): `{"code", "message", "file"}`.
///
/// It is the whole output, as `{"error": {...}}`, when a `--json` command fails as a whole (bad usage, an
/// unreadable input of a single-result command), and the `error` member of a per-file row when one file of
/// many could not be processed (the other rows are still printed). `file` is `null` when the error concerns no
/// one file.
///
///     {"error": {"code": "not-found", "message": "x.wav: no such file", "file": "x.wav"}}
public struct ErrorObject: Codable, Sendable, Equatable {
    /// A stable kebab-case word a script can branch on: `usage` for bad usage (exit 64), else the kind of the
    /// library error (`not-found`, `malformed`, `invalid-input`, …; docs/cli.md lists them).
    public var code: String
    /// What went wrong in words, naming the file or field.
    public var message: String
    /// The file concerned, as given on the command line; `nil` when there is none.
    public var file: String?

    public init(code: String, message: String, file: String? = nil) {
        self.code = code
        self.message = message
        self.file = file
    }

    /// The code of bad usage (exit 64).
    public static let usageCode = "usage"
    /// The code of a failure without a finer kind (exit 1).
    public static let failureCode = "failure"

    enum CodingKeys: String, CodingKey { case code, message, file }

    /// Encodes every key, `file` as `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(message, forKey: .message)
        try c.encode(file, forKey: .file)
    }

    /// The whole output of a failed `--json` command.
    struct Document: Encodable {
        var error: ErrorObject
    }
}
