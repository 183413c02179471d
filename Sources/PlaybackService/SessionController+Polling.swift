import AudioCore
import AudioDevice
import AudioEngine
import ControlProtocol
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension SessionController {
    /// Drains engine events, notices the end of a session (journaling it), writes due checkpoints, and
    /// returns the events to send, in order.
    public func poll() -> [ProtocolEvent] {
        var out = takePending()
        guard let s = session else { return out }
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
        guard let s = session else { return out }
        out += s.drainEvents()
        let completed = (s.ended || s.reachedClosingBell) && !s.stopRequested && !s.deviceFailed
        return out + finish(s, outcome: completed ? .completed : s.deviceFailed ? .interrupted : .stopped)
    }

    func finish(_ s: RunningSession, outcome: SessionRecord.Outcome) -> [ProtocolEvent] {
        if s.unpaced, let file = s.output as? FileOutput {
            // The render thread runs ahead of the session's end (writing silence) until stopped: the file is cut
            // on the frame the session ended on, so it ends with the session. A stopped sitting's file is kept too.
            file.stop(drain: outcome != .interrupted)
            if outcome != .interrupted, file.failure == nil { cut(file, atFrame: s.finalOutputFrame) }
        } else {
            s.output.stop(drain: outcome == .completed)
        }
        let record = s.record(outcome: outcome)
        session = nil
        var journalError: ProtocolError?
        do {
            try journal.finish(record)
        } catch {
            // The checkpoint stays, so the session is recovered as interrupted on the next start.
            warnings.append("cannot journal session \(s.id): \(error.message)")
            journalError = ProtocolError(ErrorCode(error.kind), error.message)
        }
        return [.sessionEnded(SessionEnded(sessionId: s.id, record: record, journalError: journalError))]
    }

    /// Truncates a completed file output to `frame` frames (and fsyncs it); a failure is a warning.
    private func cut(_ file: FileOutput, atFrame frame: FramePosition) {
        let bytes = off_t(max(0, frame)) * off_t(file.format.channels.count * file.format.sampleFormat.bytesPerSample)
        let fd = open(file.path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            warnings.append("cannot cut '\(file.path)' at the session's end: \(String(cString: strerror(errno)))")
            return
        }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, st.st_size > bytes, ftruncate(fd, bytes) != 0 || fsync(fd) != 0 {
            warnings.append("cannot cut '\(file.path)' at the session's end: \(String(cString: strerror(errno)))")
        }
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
    var statusReply: StatusReply {
        let now = ProtocolTime.format(Date())
        guard let s = session else {
            return StatusReply(state: "idle", paused: false, output: output.description, now: now, session: nil)
        }
        let paused = s.isPaused || s.pauseRequested
        let state = paused ? "paused" : s.stopping || s.ended ? "stopping" : "playing"
        let frame = s.engine.sessionFrame
        /// When session frame `f` is heard, `nil` while paused (it is not known until resume).
        func heard(_ f: FramePosition) -> String? { paused ? nil : ProtocolTime.format(s.wallTime(sessionFrame: f)) }
        let next = s.nextEvent.map {
            SessionStatus.NextEvent(
                kind: $0.kind.rawValue, frame: $0.frame, cycle: $0.cycle, strike: $0.kind == .strike ? $0.strike : nil,
                at: heard($0.frame))
        }
        let session = SessionStatus(
            sessionId: s.id, plan: s.planFields, sampleRate: s.rate.hertz, theme: s.theme, volumes: s.volumes,
            positionFrames: frame, positionSeconds: s.rate.seconds(frames: frame), outputFrame: s.engine.outputFrame,
            startsAt: ProtocolTime.format(s.startDate), endsAt: s.endsAt.map(ProtocolTime.format),
            endFrame: s.closingFrame,
            remainingSeconds: s.remainingSeconds, satSeconds: s.satSeconds, cycle: max(1, s.engine.currentCycle),
            cyclesCompleted: s.cyclesCompleted, nextEvent: next,
            nextBell: s.nextBell.map { (heard($0.frame), s.group(of: $0), $0.frame) }, clockSettled: s.clockSettled,
            xruns: s.output.xrunCount)
        return StatusReply(state: state, paused: paused, output: output.description, now: now, session: session)
    }
}
