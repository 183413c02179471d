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
        let time = EventTime(
            frame: event.sessionFrame, outputFrame: event.outputFrame, at: ProtocolTime.format(event.heardAt),
            endsAt: event.endsAt.map(ProtocolTime.format))
        switch event.kind {
        case .timeline(let ev, let group):
            switch ev.kind {
            case .strike:
                let group = (group ?? s.group(of: ev)).rawValue
                return .bell(BellStruck(sessionId: s.id, cycle: ev.cycle, group: group, strike: ev.strike, time: time))
            case .cycleStart:
                return .cycleStarted(CycleStarted(sessionId: s.id, cycle: ev.cycle, time: time))
            case .breath:
                let seconds = s.rate.seconds(frames: s.timeline.breathFrames)
                return .breathStarted(BreathStarted(sessionId: s.id, cycle: ev.cycle, seconds: seconds, time: time))
            case .cycleEnd, .fadeIn, .fadeOut, .end:
                return nil
            }
        case .manualStrike(let cycle):
            let group = LiveEvent.BellGroup.manual.rawValue
            return .bell(BellStruck(sessionId: s.id, cycle: cycle, group: group, strike: 1, time: time))
        case .paused:
            return .sessionPaused(SessionPaused(sessionId: s.id, time: time))
        case .resumed(let pausedSeconds):
            return .sessionResumed(SessionResumed(sessionId: s.id, pausedSeconds: pausedSeconds, time: time))
        case .themeChanged(let theme):
            return .themeChanged(ThemeChanged(sessionId: s.id, theme: theme, time: time))
        case .streamUnderrun(let theme, let missed):
            return .streamUnderrun(
                StreamUnderrun(sessionId: s.id, theme: theme, missedFrames: missed, time: time))
        case .stopping:
            return nil
        case .xrun(let count):
            return .xrun(Xrun(sessionId: s.id, count: count, at: time.at))
        case .deviceFailed(let failure):
            let error = ProtocolError(ErrorCode(failure.kind), failure.message)
            return .deviceError(DeviceFailed(sessionId: s.id, error: error))
        }
    }
}
