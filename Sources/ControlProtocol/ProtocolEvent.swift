/// An unsolicited event line: `{"event": kind, …fields}`.
public struct ProtocolEvent: Sendable, Equatable {
    public var kind: EventKind
    /// The event's fields (without `event`).
    public var fields: [String: JSONValue]

    public init(_ kind: EventKind, _ fields: [String: JSONValue] = [:]) {
        self.kind = kind
        self.fields = fields
    }

    /// The line's JSON object.
    public var json: JSONValue {
        var o = fields
        o["event"] = .string(kind.rawValue)
        return .object(o)
    }

    /// The line to send, newline included.
    public var line: [UInt8] { MessageEncoder.line(json) }
}
