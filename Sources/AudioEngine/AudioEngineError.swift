import AudioCore

/// An error from AudioEngine: what the caller can do about it (`kind`), a sentence for people, and the
/// underlying C or errno code for diagnostics when there is one.
public struct AudioEngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, chosen by what the caller can do (shared by every module; see `ErrorKind`).
    public typealias Kind = ErrorKind

    public var kind: Kind
    public var message: String
    /// The C library or errno code, for diagnostics only.
    public var code: Int32?

    public init(_ kind: Kind, _ message: String, code: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.code = code
    }

    public var description: String { message }
}
