import AudioCore
import AudioEngine
import ControlProtocol
import Foundation

extension SessionController {
    /// Drains engine events, notices the end of a session (journaling it), writes due checkpoints, and
    /// returns the events to send, in order.
    public func poll() -> [ProtocolEvent] {
        var out = takePending()
        guard let s = currentSession else { return out }
        let events = s.drainEvents()
        out += events
        if events.contains(where: { $0.kind == .sessionPaused || $0.kind == .sessionResumed }) { s.checkpointDue = true }
        let sinceLast = Date().timeIntervalSince(s.lastCheckpoint)
        if sinceLast >= checkpointInterval || (s.checkpointDue && sinceLast >= Self.minimumCheckpointSpacing) {
            checkpoint(s)
        }
        if s.ended {
            out += finish(s, outcome: s.deviceFailed ? .interrupted : s.stopRequested ? .stopped : .completed)
        }
        return out
    }

    /// Ends any session now, journals it and returns its events: `stopped` (without the closing bell) when it had
    /// not reached its closing bell, `completed` when it had (end of input while the closing bell rings ends a
    /// sitting that was sat in full).
    public func shutdown() -> [ProtocolEvent] {
        var out = takePending()
        guard let s = currentSession else { return out }
        out += s.drainEvents()
        let completed = (s.ended || s.reachedClosingBell) && !s.stopRequested && !s.deviceFailed
        return out + finish(s, outcome: completed ? .completed : s.deviceFailed ? .interrupted : .stopped)
    }

    func finish(_ s: RunningSession, outcome: SessionRecord.Outcome) -> [ProtocolEvent] {
        s.output.stop(drain: outcome == .completed)
        let record = s.record(outcome: outcome)
        currentSession = nil
        var event: [String: JSONValue] = ["sessionId": .string(s.id)]
        do {
            try journal.finish(record)
        } catch {
            // The checkpoint stays, so the session is recovered as interrupted on the next start.
            warnings.append("cannot journal session \(s.id): \(error.message)")
            event["journalError"] = ProtocolError(Self.serviceCode(error.kind), error.message).json
        }
        event["record"] = (try? JSONValue(encoding: record)) ?? .null
        return [ProtocolEvent(.sessionEnded, event)]
    }

    /// The least time between two checkpoints forced by pause and resume (each is an fsync): a client toggling
    /// pause a thousand times a second costs at most this many journal writes.
    static let minimumCheckpointSpacing = 0.25

    /// A checkpoint now for a pause or resume, or at the next poll after ``minimumCheckpointSpacing``.
    func checkpointSoon(_ s: RunningSession) {
        if Date().timeIntervalSince(s.lastCheckpoint) >= Self.minimumCheckpointSpacing {
            checkpoint(s)
        } else {
            s.checkpointDue = true
        }
    }

    func checkpoint(_ s: RunningSession) {
        s.checkpointDue = false
        s.lastCheckpoint = Date()
        do { try journal.checkpoint(s.record(outcome: .interrupted, end: s.lastCheckpoint)) } catch {
            warnings.append("cannot checkpoint session \(s.id): \(error.message)")
        }
    }

    /// The `status` reply.
    var status: JSONValue {
        var o: [String: JSONValue] = [
            "output": .string(output.description), "now": .string(ProtocolTime.format(Date())),
        ]
        guard let s = currentSession else {
            o["state"] = "idle"
            o["paused"] = false
            return .object(o)
        }
        let state: String =
            s.isPaused ? "paused" : s.stopping || s.ended ? "stopping" : "playing"
        let frame = s.engine.sessionFrame
        o["state"] = .string(state)
        o["paused"] = .bool(s.isPaused)
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
        o["xruns"] = .number(Double(s.output.xrunCount))
        if let next = s.nextEvent {
            var n: [String: JSONValue] = [
                "kind": .string(next.kind.rawValue), "frame": .number(Double(next.frame)),
                "cycle": .number(Double(next.cycle)),
            ]
            if next.kind == .strike { n["strike"] = .number(Double(next.strike)) }
            n["at"] = s.isPaused ? .null : .string(ProtocolTime.format(s.wallTime(sessionFrame: next.frame)))
            o["nextEvent"] = .object(n)
        } else {
            o["nextEvent"] = .null
        }
        return .object(o)
    }
}
