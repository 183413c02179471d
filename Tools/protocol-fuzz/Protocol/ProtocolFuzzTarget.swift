// libFuzzer target over the protocol's input path: bytes → LineFramer → Request.parse → ControlCommand →
// RequestDispatcher → Reply → MessageEncoder. Built and run by run.sh (`make fuzz`).
//
// Besides "no crash", every input must satisfy the protocol's promises (Shared/ReplyChecks.swift): every framed line
// gets exactly one reply; each reply is one line of valid JSON with `ok` and, when the request's `id` could be read,
// that id echoed; an error reply carries a documented code.
import ControlProtocol
import Foundation
import FuzzSupport

/// Stands in for the session controller: answers each decoded command with typed replies built from its own
/// fields, so the reply encoder sees the same variety of values the real replies carry.
private final class StandIn: ControlService {
    func start(_ plan: PlanFields) throws(ProtocolError) -> StartReply {
        let started = SessionStarted(
            sessionId: plan.values["bell"]?.stringValue ?? "", plan: plan, startsAt: "",
            endsAt: plan.values["ambient"]?.stringValue, endFrame: nil, sampleRate: 48000)
        return StartReply(
            started, plannedSeconds: plan.values["sitting"]?.numberValue, warnings: plan.stopBell.map { ["\($0)"] })
    }
    func pause() throws(ProtocolError) -> SessionReply { throw ProtocolError(.notPlaying, "no session is playing") }
    func resume() throws(ProtocolError) -> SessionReply { SessionReply(sessionId: "") }
    func stop(bell: Bool?) throws(ProtocolError) -> StopReply { StopReply(sessionId: "\(bell as Any)") }
    func set(_ fields: SetFields) throws(ProtocolError) -> SetReply {
        SetReply(sessionId: fields.theme ?? "", ignoredFields: fields.ignoredFields, warnings: nil)
    }
    func strike(bell: String?) throws(ProtocolError) -> SessionReply { SessionReply(sessionId: bell ?? "") }
    func status() -> StatusReply { StatusReply(state: "idle", paused: false, output: "null", now: "", session: nil) }
    func listAssets() -> AssetsReply {
        AssetsReply(bells: [], themes: [], loaded: [], cachedBytes: 0, cacheLimitBytes: 0, pack: nil, packProblem: nil)
    }
    func plan(_ plan: PlanFields) throws(ProtocolError) -> PlanReport {
        PlanReport(
            sampleRate: 48000, endFrame: nil, duration: plan.values["sitting"]?.numberValue, cycles: nil,
            repeat: plan.values["repeat"]?.stringValue ?? "", events: [])
    }
    func devices() throws(ProtocolError) -> DevicesReply { throw ProtocolError(.failure, "no devices here") }
    func preview(_ fields: PreviewFields) throws(ProtocolError) -> PreviewReply {
        guard case .theme(let theme, let seconds) = fields.sound else { throw ProtocolError(.busy, "a session plays") }
        return PreviewReply(previewId: "", kind: "theme", asset: theme, seconds: seconds, startsAt: "", endsAt: "")
    }
    func prefetch(_ fields: PrefetchFields) throws(ProtocolError) -> PrefetchReply {
        PrefetchReply(
            prefetched: fields.themes.map { .init(asset: $0, kind: "theme", seconds: 1) }, sampleRate: 48000,
            cachedBytes: 0, cacheLimitBytes: 0)
    }
    func observedState() -> ObservedState { .idle }
    func sessionsList(_ query: SessionsQuery) throws(ProtocolError) -> SessionsListReply {
        SessionsListReply(records: [], warnings: ["\(query.limit)"])
    }
    func sessionsMarkSynced(ids: [String]) throws(ProtocolError) -> MarkSyncedReply {
        MarkSyncedReply(marked: ids, missing: [])
    }
    func requestShutdown() -> ShutdownReply { ShutdownReply(stopping: false) }
}

nonisolated(unsafe) private var dispatcher = RequestDispatcher(service: StandIn())

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
        let reply = dispatcher.reply(to: frame)
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

/// The entry point SwiftPM links as `main` for this executable (Shared/FuzzerDriver.swift says why).
@_cdecl("protocol_fuzz_main")
public func protocolFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
