/// What went wrong, chosen by what the caller can do about it. Stable: callers may switch on it.
///
/// ``EnsoError``, the one error type of every module, carries one of these as its `kind`, beside a message for
/// people and the C or errno code for diagnostics. The protocol's error codes are made from it at the server's
/// edge; an errno becomes one in one place (`ErrorKind(errno:)` in SystemIO).
public struct ErrorKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The input is invalid (out of range, malformed, too short); fix the input.
    public static let invalidInput = ErrorKind(rawValue: "invalid-input")
    /// A resource is busy; retrying later may work.
    public static let busy = ErrorKind(rawValue: "busy")
    /// A resource is not there (no device, no file, no asset).
    public static let unavailable = ErrorKind(rawValue: "unavailable")
    /// The configuration is not supported.
    public static let unsupported = ErrorKind(rawValue: "unsupported")
    /// Permission was refused.
    public static let permission = ErrorKind(rawValue: "permission")
    /// Something failed at the system level (I/O, a library call).
    public static let failure = ErrorKind(rawValue: "failure")

    public var description: String { rawValue }
}
