/// An error a reply carries: a stable ``ErrorCode``, a sentence for people, and the field concerned when
/// there is one.
public struct ProtocolError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var code: ErrorCode
    /// What went wrong, naming the field and its range where that applies.
    public var message: String
    /// The request field at fault (`sitting`, `strikes`), for `invalid-field`.
    public var field: String?

    public init(_ code: ErrorCode, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// An `invalid-field` error for `field`: "`field`: `problem`".
    public static func invalidField(_ field: String, _ problem: String) -> ProtocolError {
        ProtocolError(.invalidField, "\(field): \(problem)", field: field)
    }

    /// The reply's `error` object: `{"code":…, "message":…, "field":…}` (`field` only when there is one).
    public var json: JSONValue { MessageEncoder.value(self) }

    public var description: String { "\(code): \(message)" }
}
