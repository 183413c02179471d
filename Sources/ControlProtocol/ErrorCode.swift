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
    public static let busy = ErrorCode(rawValue: "busy")
    /// Something the command needs is not there: an asset id, the audio device.
    public static let unavailable = ErrorCode(rawValue: "unavailable")
    /// The request is well formed but the configuration is not supported.
    public static let unsupported = ErrorCode(rawValue: "unsupported")
    /// Permission was refused (a file, the device).
    public static let permission = ErrorCode(rawValue: "permission")
    /// A system-level failure (I/O, a full disk); the message says what failed.
    public static let failure = ErrorCode(rawValue: "failure")

    /// Every code, in documentation order.
    public static let all: [ErrorCode] = [
        .invalidRequest, .lineTooLong, .invalidField, .unknownCommand, .notPlaying, .busy, .unavailable,
        .unsupported, .permission, .failure,
    ]

    public var description: String { rawValue }
}
