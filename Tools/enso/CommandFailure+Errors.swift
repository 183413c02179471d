import AudioCore
import CLISupport

/// Failures built from the libraries' errors, so the JSON error object carries the error's kind and file
/// (docs/cli.md).
extension CommandFailure {
    /// `error` as a failure: its message, its name (the file detail, else the kind) as the code, `file` (else the
    /// error's own path) as the file.
    ///
    /// The exit code defaults to 2 (an input that cannot be read) for an error that carries a file detail
    /// (not-found, malformed, truncated, ...), else 1.
    init(_ error: EnsoError, file: String? = nil, exitCode: ExitCode? = nil) {
        self.init(
            error.message, exitCode: exitCode ?? (error.detail != nil ? .inputError : .failure), code: error.name,
            file: file ?? error.path)
    }
}
