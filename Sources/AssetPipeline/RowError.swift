/// The `error` member of a per-file row in the CLI's JSON (`bells audition`, `loops verify`, `assets add`):
/// `{"code", "message", "file"}`, the same object the CLI prints as `{"error": {...}}` when a whole command
/// fails (docs/cli.md, `CLISupport.ErrorObject`).
public struct RowError: Codable, Sendable, Equatable {
    /// A stable kebab-case word: the kind of the library error (`not-found`, `malformed`, `invalid-input`, …).
    public var code: String
    /// What went wrong in words, naming the file.
    public var message: String
    /// The file concerned, as given.
    public var file: String

    public init(code: String, message: String, file: String) {
        (self.code, self.message, self.file) = (code, message, file)
    }
}
