import AudioCore
import AudioDevice
import AudioEngine
import ControlProtocol
import Foundation

extension SessionController {
    /// Drains the session's events, notices its end (journaling it) and a preview's, and returns the events to send,
    /// in order, with one `state.changed` when an observable property changed.
    public func poll() -> [ProtocolEvent] {
        var out = takePending() + pollPreview()
        if let s = session {
            out += s.poll().compactMap { protocolEvent(for: $0, in: s) }
            warnings += s.takeWarnings()
            if s.ended { out += finish(s) }
        }
        return out + observedChange()
    }

    /// `state.changed` when an observable property changed since observers were last told (``StateReporter``), at
    /// most once per ``StateReporter/minimumInterval`` of ``monotonicClock`` unless `paced` is false (the last report,
    /// at shutdown).
    func observedChange(paced: Bool = true) -> [ProtocolEvent] {
        let change = paced ? reporter.report(currentState, at: monotonicClock()) : reporter.report(currentState)
        return change.map { [.stateChanged($0)] } ?? []
    }

    /// The observable state now: the fields of ``statusReply`` that ``StateProperty`` names, and nothing it does
    /// not need (this runs on every poll).
    var currentState: ObservedState {
        guard let s = session else { return .idle }
        return ObservedState(
            sessionId: s.id, state: Self.stateName(s), paused: s.isHeld, theme: s.theme, volumes: s.volumes,
            endsAt: s.endsAt.map(ProtocolTime.format), nextBellAt: s.nextBellAt.map(ProtocolTime.format),
            nextBellGroup: s.nextBell.map { s.group(of: $0).rawValue }, clockSettled: s.clockSettled)
    }

    /// `status`'s `state` of a session: `paused`, `stopping` (closing after a stop, or the last cycle's closing group
    /// rings and fades: ``RunningSession/isClosing``), `playing`.
    static func stateName(_ s: RunningSession) -> String {
        s.isHeld ? "paused" : s.isClosing ? "stopping" : "playing"
    }

    /// Ends any session now, journals it and returns its events: `stopped` (without the closing bell) when it had
    /// not reached its closing bell, `completed` when it had (end of input while the closing bell rings ends a
    /// sitting that was sat in full).
    public func shutdown() -> [ProtocolEvent] {
        var out = takePending() + endPreview(.stopped)
        if let s = session {
            out += s.poll().compactMap { protocolEvent(for: $0, in: s) }
            out += finish(s)
        }
        writeUnwrittenRecordsForLast()
        return out + observedChange(paced: false)
    }

    /// A last try at the records the journal could not take; what is still not written is logged whole, as it
    /// leaves with the process.
    private func writeUnwrittenRecordsForLast() {
        let held = journal.unwrittenRecords
        guard !held.isEmpty else { return }
        do {
            try journal.writeUnwritten()
            warnings.append("wrote \(held.count) record(s) the journal could not take before: \(held.map(\.id))")
        } catch {
            for r in held {
                warnings.append(
                    "session \(r.id) is not in \(journal.path) (\(error.message)); add its record by hand: "
                        + SessionJournal.encodeLine(r))
            }
        }
    }

    /// Ends `s` with its outcome (``RunningSession/outcome``) and returns its `session.ended` event.
    func finish(_ s: RunningSession) -> [ProtocolEvent] {
        let finished = s.finish()
        session = nil
        releaseSessionAssets()
        warnings += s.takeWarnings()
        // When the record could not be written the journal holds it for its next write, and the checkpoint stays,
        // so the session is recovered as interrupted on the next start if the process ends first.
        let journalError = finished.journalError.map { ProtocolError(ErrorCode($0.kind), $0.message) }
        return [.sessionEnded(SessionEnded(sessionId: s.id, record: finished.record, journalError: journalError))]
    }

    /// The `status` reply.
    var statusReply: StatusReply {
        let now = ProtocolTime.format(Date())
        guard let s = session else {
            return StatusReply(state: "idle", paused: false, output: output.description, now: now, session: nil)
        }
        let state = Self.stateName(s)
        let frame = s.engine.sessionFrame
        let next = s.nextEvent.map {
            SessionStatus.NextEvent(
                kind: $0.kind.rawValue, frame: $0.frame, cycle: $0.cycle, strike: $0.kind == .strike ? $0.strike : nil,
                at: s.isHeld ? nil : ProtocolTime.format(s.wallTime(sessionFrame: $0.frame)), group: $0.group?.rawValue)
        }
        let session = SessionStatus(
            sessionId: s.id, plan: s.planFields, sampleRate: s.rate.hertz, theme: s.theme, volumes: s.volumes,
            positionFrames: frame, positionSeconds: s.rate.seconds(frames: frame), outputFrame: s.engine.outputFrame,
            startsAt: ProtocolTime.format(s.startsAt), endsAt: s.endsAt.map(ProtocolTime.format),
            endFrame: s.closingFrame, remainingSeconds: s.remainingSeconds, satSeconds: s.satSeconds,
            cycle: max(1, s.engine.currentCycle), cyclesCompleted: s.cyclesCompleted, nextEvent: next,
            nextBell: s.nextBell.map { (s.nextBellAt.map(ProtocolTime.format), s.group(of: $0).rawValue, $0.frame) },
            clockSettled: s.clockSettled, xruns: s.output.xrunCount)
        return StatusReply(state: state, paused: s.isHeld, output: output.description, now: now, session: session)
    }
}
