import AudioCore
import AudioDevice
import AudioEngine
import ControlProtocol
import Foundation

extension RunningSession {
    /// Drains the engine's events as ``LiveEvent``s, in order; notices the end (``ended``), xruns and a failed
    /// output; writes a checkpoint when one is due.
    ///
    /// Call it a few times a second. Events come when the engine renders them, up to one output buffer before they
    /// are heard (their ``LiveEvent/heardAt``).
    public func poll() -> [LiveEvent] {
        var out: [LiveEvent] = []
        while let e = engine.pollEvent() {
            if let event = translate(e) { out.append(event) }
        }
        if engine.state == .ended { ended = true }
        noteClosingHeard()
        let xruns = output.xrunCount
        if xruns > reportedXruns {
            reportedXruns = xruns
            out.append(now(.xrun(count: xruns)))
        }
        if !output.isRunning, let failure = output.failure, !deviceFailed {
            deviceFailed = true
            ended = true
            out.append(now(.deviceFailed(failure)))
        }
        if out.contains(where: {
            if case .paused = $0.kind { true } else if case .resumed = $0.kind { true } else { false }
        }) {
            checkpointDue = true
        }
        let sinceLast = wallClock().timeIntervalSince(lastCheckpoint)
        // The closing bell has been heard: a checkpoint at once (as the start's), so a crash during its ring is
        // recovered `completed` (docs/protocol.md, "Journal").
        if satInFull && !closingCheckpointed {
            checkpoint(now: true)
        } else if sinceLast >= checkpointInterval || (checkpointDue && sinceLast >= Self.minimumCheckpointSpacing) {
            checkpoint()
        }
        return out
    }

    /// The event for `e`, stamped; `nil` for what only the control side needs (a retired asset).
    private func translate(_ e: EngineEvent) -> LiveEvent? {
        switch e {
        case .timeline(let ev, let outputFrame):
            anchor = (ev.frame, outputFrame, true)
            switch ev.kind {
            case .cycleEnd: if !stopping { cyclesCompleted = max(cyclesCompleted, ev.cycle) }
            case .end:
                endOutputFrame = outputFrame
                ended = true
            default: break
            }
            let group = ev.kind == .strike ? group(of: ev) : nil
            return stamp(.timeline(ev, group: group), sessionFrame: ev.frame, outputFrame: outputFrame)
        case .manualStrike(let sessionFrame, let outputFrame):
            anchor = (sessionFrame, outputFrame, anchor.running)
            return stamp(
                .manualStrike(cycle: max(1, engine.currentCycle)), sessionFrame: sessionFrame, outputFrame: outputFrame)
        case .paused(let sessionFrame, let outputFrame):
            anchor = (sessionFrame, outputFrame, false)
            return stamp(.paused, sessionFrame: sessionFrame, outputFrame: outputFrame)
        case .resumed(let sessionFrame, let outputFrame, let pausedFrames):
            anchor = (sessionFrame, outputFrame, true)
            resumedAt = (sessionFrame, outputFrame)
            return stamp(
                .resumed(pausedSeconds: rate.seconds(frames: pausedFrames)), sessionFrame: sessionFrame,
                outputFrame: outputFrame)
        case .stopping(let sessionFrame, let outputFrame, let withBell):
            anchor = (sessionFrame, outputFrame, true)
            // The sitting ends on the frame heard when the stop was asked, not the one it was applied on.
            if !(closingFrame.map { sessionFrame >= $0 } ?? false) {
                stopFrame = min(sessionFrame, stopAskedFrame ?? sessionFrame)
            }
            stopping = true
            return stamp(.stopping(withBell: withBell), sessionFrame: sessionFrame, outputFrame: outputFrame)
        case .themeChanged(let id, let outputFrame):
            theme = id
            let frame = anchor.running ? anchor.session + max(0, outputFrame - anchor.output) : anchor.session
            // Only what was sat with: a change from the closing bell or the stop on sounds in the closing's ring and
            // fade, after sat time ended (a `themeAt` past the sitting, a `set theme` in the fade-out).
            if frame < min(closingFrame ?? .max, stopFrame ?? .max) {
                // Bounded: the starting theme and the latest changes (toggling themes cannot grow the record without
                // end).
                if themes.count >= Self.maximumThemes { themes.remove(at: 1) }
                themes.append(SessionRecord.ThemeSpan(frame: frame, theme: id))
            }
            return stamp(.themeChanged(id), sessionFrame: frame, outputFrame: outputFrame)
        case .streamUnderrun(let id, let missed, let outputFrame):
            let frame = anchor.running ? anchor.session + max(0, outputFrame - anchor.output) : anchor.session
            return stamp(
                .streamUnderrun(theme: id, missedFrames: missed), sessionFrame: frame, outputFrame: outputFrame)
        case .retired:
            return nil  // dropping the asset here frees it on the control thread
        }
    }

    /// `kind` on (`sessionFrame`, `outputFrame`): when it is heard, and `endsAt` as of it (`nil` when open-ended,
    /// paused, past the closing bell, or once a stop was sent: the resume a stop with the bell makes while paused,
    /// which the engine reports before the stop itself, is no new end, and neither is an event polled after the
    /// `stop` reply, which ``endsAt`` already says is `nil`).
    private func stamp(_ kind: LiveEvent.Kind, sessionFrame: FramePosition, outputFrame: FramePosition) -> LiveEvent {
        var endsAt: Date?
        if let closingFrame, anchor.running, !stopping, !stopSent, sessionFrame <= closingFrame {
            endsAt = wallTime(outputFrame: outputFrame + (closingFrame - sessionFrame))
        }
        return LiveEvent(
            kind: kind, sessionFrame: sessionFrame, outputFrame: outputFrame,
            heardAt: wallTime(outputFrame: outputFrame), endsAt: endsAt)
    }

    /// `kind` as seen now (an xrun, a failure): the engine's position, the wall clock.
    private func now(_ kind: LiveEvent.Kind) -> LiveEvent {
        LiveEvent(
            kind: kind, sessionFrame: engine.sessionFrame, outputFrame: engine.outputFrame, heardAt: wallClock(),
            endsAt: nil
        )
    }
}
