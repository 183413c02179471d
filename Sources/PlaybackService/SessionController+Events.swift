import AudioCore
import AudioEngine
import ControlProtocol
import Foundation

extension SessionController {
    /// The protocol event for a live event of session `s`; `nil` for what the protocol does not report (cycle ends,
    /// fades, the end, a stop taking effect: `session.ended` follows from the record).
    ///
    /// The one place a session's protocol event is built (docs/protocol.md, "Events"): every one carries `sessionId`,
    /// and every one with a `frame` carries `outputFrame`, its time and `endsAt`.
    func protocolEvent(for event: LiveEvent, in s: RunningSession) -> ProtocolEvent? {
        var f: [String: JSONValue] = [
            "sessionId": .string(s.id), "frame": .number(Double(event.sessionFrame)),
            "outputFrame": .number(Double(event.outputFrame)), "at": .string(ProtocolTime.format(event.heardAt)),
            "endsAt": event.endsAt.map { .string(ProtocolTime.format($0)) } ?? .null,
        ]
        let kind: EventKind
        switch event.kind {
        case .timeline(let ev, let group):
            switch ev.kind {
            case .strike:
                kind = .bell
                f["audibleAt"] = f.removeValue(forKey: "at")
                f["cycle"] = .number(Double(ev.cycle))
                f["group"] = .string((group ?? s.group(of: ev)).rawValue)
                f["strike"] = .number(Double(ev.strike))
            case .cycleStart:
                kind = .cycleStarted
                f["cycle"] = .number(Double(ev.cycle))
            case .breath:
                kind = .breathStarted
                f["cycle"] = .number(Double(ev.cycle))
                f["seconds"] = .number(s.rate.seconds(frames: s.timeline.breathFrames))
            case .cycleEnd, .fadeIn, .fadeOut, .end:
                return nil
            }
        case .manualStrike(let cycle):
            kind = .bell
            f["audibleAt"] = f.removeValue(forKey: "at")
            f["cycle"] = .number(Double(cycle))
            f["group"] = .string(LiveEvent.BellGroup.manual.rawValue)
            f["strike"] = 1
        case .paused:
            kind = .sessionPaused
        case .resumed(let pausedSeconds):
            kind = .sessionResumed
            f["pausedSeconds"] = .number(pausedSeconds)
        case .themeChanged(let theme):
            kind = .themeChanged
            f["theme"] = theme.map { .string($0) } ?? .null
        case .stopping:
            return nil
        case .xrun(let count):
            return ProtocolEvent(
                .xrun, ["count": .number(Double(count)), "at": .string(ProtocolTime.format(event.heardAt))])
        case .deviceFailed(let failure):
            let code: ErrorCode = failure.kind == .unavailable ? .unavailable : failure.kind == .busy ? .busy : .failure
            return ProtocolEvent(.deviceError, ["error": ProtocolError(code, failure.message).json])
        }
        return ProtocolEvent(kind, f)
    }
}
