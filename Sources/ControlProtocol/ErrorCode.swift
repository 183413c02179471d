import AudioCore

/// A stable error code in a reply's `error.code`. Front ends may switch on these; the set only grows.
///
/// The codes follow the error kinds of STYLE §6 (what the caller can do), plus the protocol's own:
/// a line that is not a request, a field with a wrong type or value, a command that does not exist.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The line is not a JSON object with a string `command` (malformed JSON, binary garbage, not UTF-8).
    public static let invalidRequest = ErrorCode(rawValue: "invalid-request")
    /// The line is longer than ``LineFramer/maxLineBytes``; it was dropped unread.
    public static let lineTooLong = ErrorCode(rawValue: "line-too-long")
    /// A field has the wrong type or is out of range; `error.field` names it and the message gives the range.
    public static let invalidField = ErrorCode(rawValue: "invalid-field")
    /// The `command` is not one the server knows.
    public static let unknownCommand = ErrorCode(rawValue: "unknown-command")
    /// The command needs a session and none is playing.
    public static let notPlaying = ErrorCode(rawValue: "not-playing")
    /// The server is busy with something that excludes the command (a session is already playing).
    public static let busy = ErrorCode(sameAs: .busy)
    /// Something the command needs is not there: an asset id, the audio device.
    public static let unavailable = ErrorCode(sameAs: .unavailable)
    /// The request is well formed but the configuration is not supported.
    public static let unsupported = ErrorCode(sameAs: .unsupported)
    /// Permission was refused (a file, the device).
    public static let permission = ErrorCode(sameAs: .permission)
    /// A system-level failure (I/O, a full disk); the message says what failed.
    public static let failure = ErrorCode(sameAs: .failure)

    /// The code that bears the name of `kind`: the kinds that reach a client keep their names (``init(_:)``).
    private init(sameAs kind: ErrorKind) { rawValue = kind.rawValue }

    /// Every code, in documentation order.
    public static let all: [ErrorCode] = [
        .invalidRequest, .lineTooLong, .invalidField, .unknownCommand, .notPlaying, .busy, .unavailable,
        .unsupported, .permission, .failure,
    ]

    public var description: String { rawValue }
}

extension ErrorCode {
    /// The code for an error of `kind` that arose below the protocol (the journal, the output, an asset): the one
    /// table from error kinds to protocol codes.
    ///
    /// The kinds map to the codes of the same name. `invalid-input` becomes `unsupported`: by the time an error
    /// rises from below, the request has been decoded and its fields checked, so invalid input there is the
    /// server's own configuration (an output setting, a journal that is not a regular file), which the client
    /// cannot fix by changing its request.
    public init(_ kind: ErrorKind) {
        switch kind {
        case .busy: self = .busy
        case .unavailable: self = .unavailable
        case .unsupported, .invalidInput: self = .unsupported
        case .permission: self = .permission
        default: self = .failure
        }
    }
}
