/// A process exit status. 0 success, 1 failure (or a failing verdict), 64 bad usage (`EX_USAGE`);
/// commands document any other code they use (2: some input could not be read).
public struct ExitCode: RawRepresentable, Hashable, Sendable, Error {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public init(_ code: Int32) { self.rawValue = code }

    /// Everything worked and every verdict passed.
    public static let success = ExitCode(0)
    /// Something failed, or a verdict failed.
    public static let failure = ExitCode(1)
    /// Some inputs could not be read (the rest were still processed).
    public static let inputError = ExitCode(2)
    /// Bad usage: an unknown option, a missing argument, a value out of range (`EX_USAGE`).
    public static let usage = ExitCode(64)
    /// Interrupted by SIGINT (Ctrl-C): 128 + SIGINT, as a shell reports it. `play` exits so on a second Ctrl-C
    /// (the first stops gracefully); a command that writes files (`render`, `convert`, …) on the first, once it has
    /// removed its unfinished files.
    public static let interrupted = ExitCode(130)
    /// Stopped by SIGTERM: 128 + SIGTERM, as a shell reports it (a command that writes files, once it has removed
    /// its unfinished files).
    public static let terminated = ExitCode(143)
    /// The reader of stdout stopped reading (`enso info x.wav --json | head -c 10`, `| soxi -`): the tool exits
    /// quietly with 128 + SIGPIPE, the status a shell shows for sox or cat stopped the same way, so
    /// `set -o pipefail` treats them alike.
    public static let readerStopped = ExitCode(141)
}

/// A usage error: printed as `Error: ...`, then the usage line, and the process exits 64.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the option or argument.
    public var message: String
    /// Help for the argument concerned, when there is one.
    public var help: String?

    public init(_ message: String, help: String? = nil) {
        self.message = message
        self.help = help
    }

    public var description: String { message }
}

/// A runtime failure a command reports as `Error: ...` with its own exit code (1 unless said otherwise); with
/// `--json`, also as the ``ErrorObject`` `{"error": {"code", "message", "file"}}` on stdout.
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var exitCode: ExitCode
    /// The error object's `code`: the library error's kind (`not-found`, `malformed`, …).
    public var code: String
    /// The file concerned, as given; `nil` when there is none.
    public var file: String?

    /// A failure with `message`; `code` defaults to the exit code's word (`failure`, `unreadable` for 2).
    public init(_ message: String, exitCode: ExitCode = .failure, code: String? = nil, file: String? = nil) {
        self.message = message
        self.exitCode = exitCode
        self.code = code ?? (exitCode == .inputError ? "unreadable" : ErrorObject.failureCode)
        self.file = file
    }

    /// The failure as the JSON error object.
    public var errorObject: ErrorObject { ErrorObject(code: code, message: message, file: file) }

    public var description: String { message }
}
