import AudioCore
import AudioDevice
import AudioEngine
import ControlProtocol
import Foundation

/// One session being played: the engine, the output it plays through, and what the journal and the
/// protocol need to know about it (sat time, cycles completed, stop requested, current theme).
///
/// Translates the engine's events into protocol events, stamping each with its session frame, its output
/// frame and the wall-clock time it is heard (from the output's ``AudioClock``).
///
/// - Thread safety: the server's control thread only (it is the engine's one control thread).
/// - Real-time safe: no.
final class RunningSession {
    let id: String
    let plan: SessionPlan
    /// The plan as started, every field resolved (what `session.started` and `status` carry).
    let planFields: PlanFields
    let engine: SessionEngine
    let output: any AudioOutput
    let timeline: SessionTimeline
    let rate: SampleRate
    let startDate: Date
    /// Session frame of the closing group's first strike: where the sitting ends (`nil`: until stopped). The
    /// engine's, so an until-plan's moves back with the pauses (the closing group stays on the clock time).
    var closingFrame: FramePosition? { engine.closingFrame }
    var theme: String?
    /// The themes sat with, in order: the starting one at frame 0, then one entry per change (its session frame).
    var themes: [SessionRecord.ThemeSpan]
    /// The gains as last set (the plan's until a `set`): the targets of any ramp in progress.
    var volumes: (master: Double, ambient: Double, bell: Double)
    /// The last transport command sent was `pause` (the engine applies commands in order, so a strike sent now
    /// lands in the pause even when the engine has not rendered it yet).
    var pauseRequested = false
    /// A `stop` has been sent (a later one finds the engine closing: it does not resume a pause).
    var stopSent = false
    /// The most entries ``themes`` keeps: the starting theme and the latest 255 changes.
    static let maximumThemes = 256
    /// The session frame a `stop` took effect on: sat time ends there (the closing group's ring-out is not sat).
    var stopFrame: FramePosition?
    /// The output frame the session ended on (its `end` event), to cut an unpaced file there.
    var endOutputFrame: FramePosition?
    /// Output time is the frame count (an unpaced file): times are the start plus the frames, always settled.
    let unpaced: Bool
    /// The last (session frame, output frame) pair the engine reported, and whether the session clock ran on from
    /// it: maps an output frame of a later event (a theme change) to its session frame.
    private var anchor: (session: FramePosition, output: FramePosition, running: Bool) = (0, 0, true)
    /// Whether themes set later get the seam fix (the start's `seamFix`).
    var seamFix = true
    var cyclesCompleted = 0
    /// A `stop` came before the closing bell: the sitting was cut short (`stopped`). A stop during the closing
    /// bell's ring only silences it; the sitting was completed.
    var stopRequested = false
    var stopping = false
    var ended = false
    var deviceFailed = false
    var lastCheckpoint: Date
    /// A pause or resume happened since the last checkpoint (written at most every 0.25 s).
    var checkpointDue = false
    var reportedXruns = 0

    init(
        id: String, plan: SessionPlan, planFields: PlanFields, engine: SessionEngine, output: any AudioOutput,
        timeline: SessionTimeline, startDate: Date, unpaced: Bool = false
    ) {
        self.id = id
        self.plan = plan
        self.planFields = planFields
        self.engine = engine
        self.output = output
        self.timeline = timeline
        rate = timeline.sampleRate
        self.startDate = startDate
        lastCheckpoint = startDate
        theme = plan.ambient
        themes = [SessionRecord.ThemeSpan(frame: 0, theme: plan.ambient)]
        volumes = (plan.masterVolume, plan.ambientVolume, plan.bellVolume)
        self.unpaced = unpaced
    }

    // MARK: - Times

    /// Whether the sitting has reached its closing bell (the closing group's first strike has sounded).
    var reachedClosingBell: Bool { closingFrame.map { engine.sessionFrame >= $0 } ?? false }

    var isPaused: Bool { engine.state == .paused || engine.state == .pausing }

    /// Sat time in seconds (``SatTime``): the session clock up to the closing bell or the stop.
    var satSeconds: Double {
        rate.seconds(frames: SatTime.frames(sessionFrame: engine.sessionFrame, closingFrame: closingFrame, stopFrame: stopFrame))
    }

    /// Whether published times are final: the output clock has settled (an unpaced file's always are). Before,
    /// a sound server's first readings can put times up to ~0.3 s early.
    var clockSettled: Bool { unpaced || (output.clock.anchor != nil && output.clock.isSettled) }

    /// When output frame `frame` is heard, on the wall clock.
    func wallTime(outputFrame frame: FramePosition) -> Date {
        // Unpaced: nothing is heard as it is written; the file's own time is the frame count from the start.
        if unpaced { return startDate.addingTimeInterval(rate.seconds(frames: frame)) }
        if let t = output.clock.audibleTime(ofFrame: frame) {
            return Date(timeIntervalSince1970: Double(t.realtimeNanoseconds) / 1e9)
        }
        // Before the first write: the start time plus the frames, plus the output's buffer.
        let latency = Double(output.format.bufferFrames) / output.format.sampleRate.double
        return startDate.addingTimeInterval(rate.seconds(frames: frame) + latency)
    }

    /// When session frame `frame` (at or after the current position) is heard, if the session keeps playing.
    func wallTime(sessionFrame frame: FramePosition) -> Date {
        wallTime(outputFrame: engine.outputFrame + (frame - engine.sessionFrame))
    }

    /// The wall time the closing bell's first strike is heard; `nil` when open-ended, paused or closing.
    var endsAt: Date? {
        guard let closingFrame, !isPaused, !pauseRequested, !stopping, stopFrame == nil,
            engine.sessionFrame <= closingFrame
        else { return nil }
        return wallTime(sessionFrame: closingFrame)
    }

    /// `endsAt` as of an event on (`sessionFrame`, `outputFrame`): `nil` when open-ended, paused, stopped or past.
    private func endsAt(sessionFrame: FramePosition, outputFrame: FramePosition, running: Bool) -> String? {
        guard let closingFrame, running, !stopping, sessionFrame <= closingFrame else { return nil }
        return ProtocolTime.format(wallTime(outputFrame: outputFrame + (closingFrame - sessionFrame)))
    }

    /// The group a timeline strike belongs to: after a `stop` every strike is the closing group's.
    func group(of ev: SessionEvent) -> String {
        if ev.group == .interval { return "interval" }
        // After a stop every strike closes; so does any from the engine's closing frame (an until-plan's close
        // moves back with the pauses).
        if stopping || closingFrame.map({ ev.frame >= $0 }) ?? false { return "closing" }
        if ev.cycle == 1 && ev.frame < timeline.cycleEnd(1) { return "opening" }
        return timeline.isLastCycle(ev.cycle) ? "closing" : "transition"
    }

    /// The next strike of the plan after the current position (`nil` when closing after a stop, or none is left).
    var nextBell: SessionEvent? {
        guard !stopping, stopFrame == nil else { return nil }
        return firstPlannedEvent { $0.kind == .strike }
    }

    /// The first event of the plan after the current position (this cycle or the next) that `matches`.
    private func firstPlannedEvent(_ matches: (SessionEvent) -> Bool) -> SessionEvent? {
        let now = engine.sessionFrame
        let c = max(1, engine.currentCycle)
        var list = SessionEventList()
        for cycle in c...(c + 1) {
            if let n = timeline.cycleCount, cycle > n { break }
            list.removeAll()
            timeline.events(ofCycle: cycle, into: &list)
            for i in 0..<list.count where list[i].frame > now && matches(list[i]) { return list[i] }
        }
        return nil
    }

    /// The session frame of output frame `frame` (at or after the last reported event).
    private func sessionFrame(ofOutputFrame frame: FramePosition) -> FramePosition {
        anchor.running ? anchor.session + max(0, frame - anchor.output) : anchor.session
    }

    /// The output frame the session ended on: its `end` event's, or (ended by silencing a ring) the frame the
    /// frozen session clock maps to.
    var finalOutputFrame: FramePosition {
        endOutputFrame ?? (anchor.running ? anchor.output + (engine.sessionFrame - anchor.session) : anchor.output)
    }

    /// Seconds of sitting left until the closing bell (`nil` when open-ended).
    var remainingSeconds: Double? {
        closingFrame.map { rate.seconds(frames: max(0, $0 - engine.sessionFrame)) }
    }

    /// The next timeline event after the current position, from the plan (`nil` when closing).
    var nextEvent: SessionEvent? {
        guard !stopping else { return nil }
        return firstPlannedEvent { $0.kind != .fadeIn }
    }

    // MARK: - Record

    /// The journal record as of now with `outcome`.
    func record(outcome: SessionRecord.Outcome, end: Date = Date()) -> SessionRecord {
        SessionRecord(
            id: id, start: ProtocolTime.format(startDate), end: ProtocolTime.format(end),
            plannedSeconds: closingFrame.map { rate.seconds(frames: $0) }, satSeconds: (satSeconds * 1000).rounded() / 1000,
            cyclesCompleted: cyclesCompleted, outcome: outcome, bell: plan.bell, theme: plan.ambient, themes: themes)
    }

    // MARK: - Events

    /// Drains the engine's events and returns them as protocol events; sets ``ended`` at the session's end.
    func drainEvents() -> [ProtocolEvent] {
        var out: [ProtocolEvent] = []
        while let e = engine.pollEvent() {
            switch e {
            case .timeline(let ev, let outputFrame):
                anchor = (ev.frame, outputFrame, true)
                out += translate(ev, outputFrame: outputFrame)
            case .manualStrike(let sessionFrame, let outputFrame):
                anchor = (sessionFrame, outputFrame, anchor.running)
                out.append(
                    .bell(
                        BellStruck(
                            sessionId: id, cycle: max(1, engine.currentCycle), group: "manual", strike: 1,
                            time: time(sessionFrame: sessionFrame, outputFrame: outputFrame))))
            case .paused(let sessionFrame, let outputFrame):
                anchor = (sessionFrame, outputFrame, false)
                let t = time(sessionFrame: sessionFrame, outputFrame: outputFrame)
                out.append(.sessionPaused(SessionPaused(sessionId: id, time: t)))
            case .resumed(let sessionFrame, let outputFrame, let pausedFrames):
                anchor = (sessionFrame, outputFrame, true)
                out.append(
                    .sessionResumed(
                        SessionResumed(
                            sessionId: id, pausedSeconds: rate.seconds(frames: pausedFrames),
                            time: time(sessionFrame: sessionFrame, outputFrame: outputFrame))))
            case .stopping(let sessionFrame, let outputFrame, _):
                anchor = (sessionFrame, outputFrame, true)
                if !reachedClosingBell(at: sessionFrame) { stopFrame = sessionFrame }
                stopping = true
            case .themeChanged(let id, let outputFrame):
                theme = id
                let frame = sessionFrame(ofOutputFrame: outputFrame)
                // Bounded: the starting theme and the latest changes (a client toggling themes cannot grow the
                // record without end).
                if themes.count >= Self.maximumThemes { themes.remove(at: 1) }
                themes.append(SessionRecord.ThemeSpan(frame: frame, theme: id))
                out.append(
                    .themeChanged(
                        ThemeChanged(sessionId: self.id, theme: id, time: time(sessionFrame: frame, outputFrame: outputFrame))))
            case .retired:
                break
            }
        }
        if engine.state == .ended { ended = true }
        let xruns = output.xrunCount
        if xruns > reportedXruns {
            reportedXruns = xruns
            out.append(.xrun(Xrun(sessionId: id, count: xruns, at: ProtocolTime.format(Date()))))
        }
        if !output.isRunning, let failure = output.failure, !deviceFailed {
            deviceFailed = true
            ended = true
            let error = ProtocolError(ErrorCode(failure.kind), failure.message)
            out.append(.deviceError(DeviceFailed(sessionId: id, error: error)))
        }
        return out
    }

    private func translate(_ ev: SessionEvent, outputFrame: FramePosition) -> [ProtocolEvent] {
        let t = time(sessionFrame: ev.frame, outputFrame: outputFrame)
        switch ev.kind {
        case .strike:
            return [.bell(BellStruck(sessionId: id, cycle: ev.cycle, group: group(of: ev), strike: ev.strike, time: t))]
        case .cycleStart:
            return [.cycleStarted(CycleStarted(sessionId: id, cycle: ev.cycle, time: t))]
        case .cycleEnd:
            if !stopping { cyclesCompleted = max(cyclesCompleted, ev.cycle) }
            return []
        case .breath:
            return [
                .breathStarted(
                    BreathStarted(
                        sessionId: id, cycle: ev.cycle, seconds: rate.seconds(frames: timeline.breathFrames), time: t))
            ]
        case .end:
            endOutputFrame = outputFrame
            ended = true
            return []
        case .fadeIn, .fadeOut:
            return []
        }
    }

    /// Where an event falls: its frames, when it is heard, and `endsAt` as of it.
    private func time(sessionFrame: FramePosition, outputFrame: FramePosition) -> EventTime {
        EventTime(
            frame: sessionFrame, outputFrame: outputFrame, at: ProtocolTime.format(wallTime(outputFrame: outputFrame)),
            endsAt: endsAt(sessionFrame: sessionFrame, outputFrame: outputFrame, running: anchor.running))
    }

    private func reachedClosingBell(at frame: FramePosition) -> Bool { closingFrame.map { frame >= $0 } ?? false }
}
