import AudioCore
import AudioDevice
import AudioEngine
import ControlProtocol
import Foundation

extension SessionController {
    /// Drains the session's events, notices its end (journaling it), and returns the events to send, in order.
    public func poll() -> [ProtocolEvent] {
        var out = takePending()
        guard let s = session else { return out }
        out += s.poll().compactMap { protocolEvent(for: $0, in: s) }
        warnings += s.takeWarnings()
        if s.ended { out += finish(s) }
        return out
    }

    /// Ends any session now, journals it and returns its events: `stopped` (without the closing bell) when it had
    /// not reached its closing bell, `completed` when it had (end of input while the closing bell rings ends a
    /// sitting that was sat in full).
    public func shutdown() -> [ProtocolEvent] {
        var out = takePending()
        guard let s = session else { return out }
        out += s.poll().compactMap { protocolEvent(for: $0, in: s) }
        return out + finish(s)
    }

    /// Ends `s` with its outcome (``RunningSession/outcome``) and returns its `session.ended` event.
    func finish(_ s: RunningSession) -> [ProtocolEvent] {
        let finished = s.finish()
        session = nil
        warnings += s.takeWarnings()
        var event: [String: JSONValue] = ["sessionId": .string(s.id)]
        if let error = finished.journalError {
            // The checkpoint stays, so the session is recovered as interrupted on the next start.
            event["journalError"] = ProtocolError(Self.serviceCode(error.kind), error.message).json
        }
        event["record"] = (try? JSONValue(encoding: finished.record)) ?? .null
        return [ProtocolEvent(.sessionEnded, event)]
    }

    /// The `status` reply.
    var status: JSONValue {
        var o: [String: JSONValue] = [
            "output": .string(output.description), "now": .string(ProtocolTime.format(Date())),
        ]
        guard let s = session else {
            o["state"] = "idle"
            o["paused"] = false
            return .object(o)
        }
        let state: String = s.isHeld ? "paused" : s.stopping || s.ended ? "stopping" : "playing"
        let frame = s.engine.sessionFrame
        o["state"] = .string(state)
        o["paused"] = .bool(s.isHeld)
        o["sessionId"] = .string(s.id)
        o["plan"] = s.planJSON
        o["sampleRate"] = .number(Double(s.rate.hertz))
        o["positionFrames"] = .number(Double(frame))
        o["positionSeconds"] = .number(s.rate.seconds(frames: frame))
        o["outputFrame"] = .number(Double(s.engine.outputFrame))
        o["startsAt"] = .string(ProtocolTime.format(s.startDate))
        o["endsAt"] = s.endsAt.map { .string(ProtocolTime.format($0)) } ?? .null
        o["endFrame"] = s.closingFrame.map { .number(Double($0)) } ?? .null
        o["remainingSeconds"] = s.remainingSeconds.map { .number($0) } ?? .null
        o["satSeconds"] = .number(s.satSeconds)
        o["cycle"] = .number(Double(max(1, s.engine.currentCycle)))
        o["cyclesCompleted"] = .number(Double(s.cyclesCompleted))
        o["theme"] = s.theme.map { .string($0) } ?? .null
        o["volume"] = .number(s.volumes.master)
        o["ambientVolume"] = .number(s.volumes.ambient)
        o["bellVolume"] = .number(s.volumes.bell)
        o["clockSettled"] = .bool(s.clockSettled)
        o["xruns"] = .number(Double(s.output.xrunCount))
        if let bell = s.nextBell {
            o["nextBellAt"] = s.nextBellAt.map { .string(ProtocolTime.format($0)) } ?? .null
            o["nextBellGroup"] = .string(s.group(of: bell).rawValue)
            o["nextBellFrame"] = .number(Double(bell.frame))
        } else {
            o["nextBellAt"] = .null
            o["nextBellGroup"] = .null
            o["nextBellFrame"] = .null
        }
        if let next = s.nextEvent {
            var n: [String: JSONValue] = [
                "kind": .string(next.kind.rawValue), "frame": .number(Double(next.frame)),
                "cycle": .number(Double(next.cycle)),
            ]
            if next.kind == .strike { n["strike"] = .number(Double(next.strike)) }
            n["at"] = s.isHeld ? .null : .string(ProtocolTime.format(s.wallTime(sessionFrame: next.frame)))
            o["nextEvent"] = .object(n)
        } else {
            o["nextEvent"] = .null
        }
        return .object(o)
    }
}
