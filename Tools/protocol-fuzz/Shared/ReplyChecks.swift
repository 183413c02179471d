// The protocol's promises both reply fuzz targets check (Protocol/, Controller/), with a trap: every reply and event
// is one line of valid JSON; a reply carries `ok`, a documented code when it is an error, and the request's `id`
// verbatim when the request could be read.
import ControlProtocol
import Foundation

private let knownCodes = Set(ErrorCode.all.map(\.rawValue))

/// The JSON of `line`, which must be exactly one newline-terminated line (`what` names it in the trap message).
public func decodeLine(_ line: [UInt8], _ what: String) -> JSONValue {
    precondition(line.last == 0x0A && !line.dropLast().contains(0x0A), "\(what) must be exactly one line")
    guard let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(line.dropLast())) else {
        preconditionFailure("\(what) is not valid JSON: \(String(decoding: line, as: UTF8.self))")
    }
    return decoded
}

/// Traps unless `reply`, the answer to `frame`, keeps the protocol's promises.
public func checkReply(_ reply: Reply, for frame: LineFramer.Frame) {
    let decoded = decodeLine(reply.line, "a reply")
    precondition(decoded["ok"]?.boolValue != nil, "reply without ok")
    if decoded["ok"] == false {
        precondition(knownCodes.contains(decoded["error"]?["code"]?.stringValue ?? ""), "undocumented error code")
    }
    if case .line(let bytes) = frame,
        case .success(let request) = Result(catching: { () throws(Request.Failure) in
            try Request.parse(bytes)
        })
    {
        precondition(decoded["id"] == request.id, "the request's id was not echoed verbatim")
    }
}
