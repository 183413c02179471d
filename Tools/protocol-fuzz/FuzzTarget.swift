// libFuzzer target over the protocol's input path: bytes → LineFramer → Request.parse → ControlCommand →
// RequestDispatcher → Reply → MessageEncoder. Built and run by run.sh (`make fuzz`), not by SwiftPM.
//
// Besides "no crash", every input must satisfy the protocol's promises (Shared/ReplyChecks.swift): every framed
// line gets exactly one reply; each reply is one line of valid JSON with `ok` and, when the request's `id` could be
// read, that id echoed; an error reply carries a documented code.
import ControlProtocol
import Foundation

/// Stands in for the session controller: returns each decoded command's own fields, so the reply encoder
/// sees the same variety of values the real replies carry.
private func execute(_ command: ControlCommand) -> Result<JSONValue, ProtocolError> {
    switch command {
    case .start(let plan): return .success(plan.json)
    case .set(let f):
        return .success(["theme": f.theme.map { .string($0) } ?? .null, "volume": f.volume.map { .number($0) } ?? .null])
    case .strike(let bell): return .success(["bell": bell.map { .string($0) } ?? .null])
    case .sessionsMarkSynced(let ids): return .success(["marked": .array(ids.map { .string($0) })])
    case .subscribe(let kinds), .unsubscribe(let kinds):
        return .success(["events": .array((kinds ?? EventKind.all).map { .string($0.rawValue) })])
    default: return .failure(ProtocolError(.notPlaying, "no session is playing"))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // A small limit so that the oversized-line path is reached by short inputs too.
    var framer = LineFramer(limit: 512)
    var frames = framer.append(bytes)
    if let last = framer.finish() { frames.append(last) }
    var newlineTerminated = 0
    for b in bytes where b == 0x0A { newlineTerminated += 1 }
    precondition(frames.count <= newlineTerminated + 1, "more frames than lines")
    for frame in frames {
        let reply = RequestDispatcher.reply(to: frame, execute: execute)
        checkReply(reply, for: frame)
    }
    // The same bytes split at every 7th byte must frame identically.
    var chunked = LineFramer(limit: 512)
    var again: [LineFramer.Frame] = []
    var i = 0
    while i < size {
        let n = min(7, size - i)
        again += chunked.append(UnsafeBufferPointer(rebasing: bytes[i..<(i + n)]))
        i += n
    }
    if let last = chunked.finish() { again.append(last) }
    precondition(again == frames, "framing depends on chunking")
    return 0
}
