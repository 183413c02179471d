/// An error from any Enso module: what the caller can do about it (``kind``), a finer reason for errors about a
/// file (``detail``), a sentence for people (``message``), and, for diagnostics, the C or errno ``code`` and where
/// it arose (``module``, ``operation``).
///
/// Every library module throws this one type, so a caller (the CLI, the server's protocol edge) reads one `kind`
/// whichever layer failed, and a layer that passes an error up passes it unchanged instead of re-wrapping it.
///
///     do { try AudioFileDecoder.decode(path: path) } catch {
///         if error.kind == .unavailable { ... }        // what to do: ask for another file
///         if error.detail == .truncated { ... }        // a finer reason, for errors about a file
///     }
///
/// Only ``kind`` and ``detail`` are promised to stay the same; ``code`` and the origin are for diagnostics.
///
/// - Thread safety: value type, any thread.
public struct EnsoError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, chosen by what the caller can do.
    public var kind: ErrorKind
    /// A finer reason when there is one (a file not found, a truncated stream); it implies ``kind``.
    public var detail: ErrorDetail?
    /// A sentence for people; it names the file or field concerned.
    public var message: String
    /// The file concerned, when there is one.
    public var path: String?
    /// The C library or errno code, for diagnostics only (not promised to stay the same).
    public var code: Int32?
    /// The module the error arose in (`AudioFile`, `PlaybackService`), for diagnostics.
    public var module: String
    /// The function that raised it, for diagnostics.
    public var operation: String

    /// An error of `kind`.
    ///
    /// The origin defaults to the caller's module and function; a helper that builds errors for its callers
    /// passes its own `fileID` and `function` parameters on.
    public init(
        _ kind: ErrorKind, _ message: String, path: String? = nil, code: Int32? = nil,
        fileID: String = #fileID, function: String = #function
    ) {
        self.kind = kind
        self.detail = nil
        self.message = message
        self.path = path
        self.code = code
        self.module = Self.module(of: fileID)
        self.operation = function
    }

    /// An error with a finer reason about the file at `path`; its ``kind`` is the one `detail` implies
    /// (``ErrorDetail/kind``).
    public init(
        _ detail: ErrorDetail, path: String, _ message: String, code: Int32? = nil,
        fileID: String = #fileID, function: String = #function
    ) {
        self.init(detail.kind, message, path: path, code: code, fileID: fileID, function: function)
        self.detail = detail
    }

    /// The finest stable name of what went wrong: the detail's when there is one (`not-found`), else the kind's
    /// (`busy`). Reports that name an error in JSON (`enso info --json`, `enso loops verify --json`) give this.
    public var name: String { detail?.rawValue ?? kind.rawValue }

    /// The message, as people read it.
    public var description: String { message }

    /// The message with the detail or kind, the code and the origin: `AudioFile.decode(path:): x.wav: … [not-found,
    /// code 2]`.
    public var debugDescription: String {
        let code = code.map { ", code \($0)" } ?? ""
        return "\(module).\(operation): \(message) [\(name)\(code)]"
    }

    /// The module part of a `#fileID` (`AudioFile/AtomicFile.swift` → `AudioFile`).
    static func module(of fileID: String) -> String {
        fileID.firstIndex(of: "/").map { String(fileID[..<$0]) } ?? fileID
    }
}
