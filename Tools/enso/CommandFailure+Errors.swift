import AssetPipeline
import AudioFile
import CLISupport

/// Failures built from the libraries' errors, so the JSON error object carries the error's kind and file
/// (docs/cli.md).
extension CommandFailure {
    /// `error` as a failure: its message, its kind as the code, its path as the file.
    init(_ error: AudioFileError, exitCode: ExitCode = .inputError) {
        self.init(error.message, exitCode: exitCode, code: error.kind.rawValue, file: error.path)
    }

    /// `error` as a failure concerning `file`: its message and its kind as the code.
    init(_ error: AssetPipelineError, file: String? = nil, exitCode: ExitCode = .failure) {
        self.init(error.message, exitCode: exitCode, code: error.kind.rawValue, file: file)
    }
}
