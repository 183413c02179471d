/// A reply line: `{"id":…, "ok":true, "data":…}` or `{"id":…, "ok":false, "error":{"code":…, "message":…}}`.
///
/// `id` is the request's, verbatim, and is left out when the request had none (or could not be read).
public struct Reply: Sendable, Equatable {
    public var id: JSONValue?
    public var outcome: Result<JSONValue, ProtocolError>

    public init(id: JSONValue?, outcome: Result<JSONValue, ProtocolError>) {
        self.id = id
        self.outcome = outcome
    }

    /// A success reply carrying `data`.
    public static func ok(_ id: JSONValue?, _ data: JSONValue = .object([:])) -> Reply {
        Reply(id: id, outcome: .success(data))
    }

    /// An error reply.
    public static func failure(_ id: JSONValue?, _ error: ProtocolError) -> Reply {
        Reply(id: id, outcome: .failure(error))
    }

    /// The line's JSON object.
    public var json: JSONValue {
        var o: [String: JSONValue] = [:]
        if let id { o["id"] = id }
        switch outcome {
        case .success(let data):
            o["ok"] = true
            o["data"] = data
        case .failure(let error):
            o["ok"] = false
            o["error"] = error.json
        }
        return .object(o)
    }

    /// The line to send, newline included.
    public var line: [UInt8] { MessageEncoder.line(json) }
}
