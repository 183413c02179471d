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
    let planJSON: JSONValue
    let engine: SessionEngine
    let output: any AudioOutput
    let timeline: SessionTimeline
    let rate: SampleRate
    let startDate: Date
    /// Session frame of the closing group's first strike: where the sitting ends (`nil`: until stopped). The
    /// engine's, so an until-plan's moves back with the pauses (the closing group stays on the clock time).
    var closingFrame: FramePosition? { engine.closingFrame }
    var theme: String?
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
        id: String, plan: SessionPlan, planJSON: JSONValue, engine: SessionEngine, output: any AudioOutput,
        timeline: SessionTimeline, startDate: Date
    ) {
        self.id = id
        self.plan = plan
        self.planJSON = planJSON
        self.engine = engine
        self.output = output
        self.timeline = timeline
        rate = timeline.sampleRate
        self.startDate = startDate
        lastCheckpoint = startDate
        theme = plan.ambient
    }

    // MARK: - Times

    /// Whether the sitting has reached its closing bell (the closing group's first strike has sounded).
    var reachedClosingBell: Bool { closingFrame.map { engine.sessionFrame >= $0 } ?? false }

    var isPaused: Bool { engine.state == .paused || engine.state == .pausing }

    /// Sat time in seconds: the session clock (pauses excluded) up to the closing bell.
    var satSeconds: Double {
        let f = min(engine.sessionFrame, closingFrame ?? .max)
        return rate.seconds(frames: max(0, f))
    }

    /// When output frame `frame` is heard, on the wall clock.
    func wallTime(outputFrame frame: FramePosition) -> Date {
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
        guard let closingFrame, !isPaused, !stopping, engine.sessionFrame <= closingFrame else { return nil }
        return wallTime(sessionFrame: closingFrame)
    }

    /// Seconds of sitting left until the closing bell (`nil` when open-ended).
    var remainingSeconds: Double? {
        closingFrame.map { rate.seconds(frames: max(0, $0 - engine.sessionFrame)) }
    }

    /// The next timeline event after the current position, from the plan (`nil` when closing).
    var nextEvent: SessionEvent? {
        guard !stopping else { return nil }
        let now = engine.sessionFrame
        let c = max(1, engine.currentCycle)
        var list = SessionEventList()
        for cycle in c...(c + 1) {
            if let n = timeline.cycleCount, cycle > n { break }
            list.removeAll()
            timeline.events(ofCycle: cycle, into: &list)
            for i in 0..<list.count where list[i].frame > now && list[i].kind != .fadeIn { return list[i] }
        }
        return nil
    }

    // MARK: - Record

    /// The journal record as of now with `outcome`.
    func record(outcome: SessionRecord.Outcome, end: Date = Date()) -> SessionRecord {
        SessionRecord(
            id: id, start: ProtocolTime.format(startDate), end: ProtocolTime.format(end),
            plannedSeconds: closingFrame.map { rate.seconds(frames: $0) }, satSeconds: (satSeconds * 1000).rounded() / 1000,
            cyclesCompleted: cyclesCompleted, outcome: outcome, bell: plan.bell, theme: plan.ambient)
    }

    // MARK: - Events

    /// Drains the engine's events and returns them as protocol events; sets ``ended`` at the session's end.
    func drainEvents() -> [ProtocolEvent] {
        var out: [ProtocolEvent] = []
        while let e = engine.pollEvent() {
            switch e {
            case .timeline(let ev, let outputFrame):
                out += translate(ev, outputFrame: outputFrame)
            case .manualStrike(let sessionFrame, let outputFrame):
                out.append(
                    ProtocolEvent(
                        .bell,
                        stamp(sessionFrame: sessionFrame, outputFrame: outputFrame, timeKey: "audibleAt").merging([
                            "cycle": .number(Double(max(1, engine.currentCycle))), "group": "manual", "strike": 1,
                        ]) { $1 }))
            case .paused(let sessionFrame, let outputFrame):
                out.append(ProtocolEvent(.sessionPaused, stamp(sessionFrame: sessionFrame, outputFrame: outputFrame)))
            case .resumed(let sessionFrame, let outputFrame, let pausedFrames):
                var f = stamp(sessionFrame: sessionFrame, outputFrame: outputFrame)
                f["pausedSeconds"] = .number(rate.seconds(frames: pausedFrames))
                f["endsAt"] = closingFrame.map {
                    .string(ProtocolTime.format(wallTime(outputFrame: outputFrame + ($0 - sessionFrame))))
                } ?? .null
                out.append(ProtocolEvent(.sessionResumed, f))
            case .stopping:
                stopping = true
            case .themeChanged(let id, let outputFrame):
                theme = id
                out.append(
                    ProtocolEvent(
                        .themeChanged,
                        [
                            "theme": id.map { .string($0) } ?? .null, "outputFrame": .number(Double(outputFrame)),
                            "at": .string(ProtocolTime.format(wallTime(outputFrame: outputFrame))),
                        ]))
            case .retired:
                break
            }
        }
        if engine.state == .ended { ended = true }
        let xruns = output.xrunCount
        if xruns > reportedXruns {
            reportedXruns = xruns
            out.append(ProtocolEvent(.xrun, ["count": .number(Double(xruns)), "at": .string(ProtocolTime.format(Date()))]))
        }
        if !output.isRunning, let failure = output.failure, !deviceFailed {
            deviceFailed = true
            ended = true
            let code: ErrorCode = failure.kind == .unavailable ? .unavailable : failure.kind == .busy ? .busy : .failure
            out.append(ProtocolEvent(.deviceError, ["error": ProtocolError(code, failure.message).json]))
        }
        return out
    }

    private func translate(_ ev: SessionEvent, outputFrame: FramePosition) -> [ProtocolEvent] {
        switch ev.kind {
        case .strike:
            let group: String
            if ev.group == .interval {
                group = "interval"
            } else if stopping || closingFrame.map({ ev.frame >= $0 }) ?? false {
                // The engine's closing frame: an until-plan's close moves back with the pauses.
                group = "closing"
            } else if ev.cycle == 1 && ev.frame <= timeline.groupSpan {
                group = "opening"
            } else {
                group = "transition"
            }
            var f = stamp(sessionFrame: ev.frame, outputFrame: outputFrame, timeKey: "audibleAt")
            f["cycle"] = .number(Double(ev.cycle))
            f["group"] = .string(group)
            f["strike"] = .number(Double(ev.strike))
            return [ProtocolEvent(.bell, f)]
        case .cycleStart:
            var f = stamp(sessionFrame: ev.frame, outputFrame: outputFrame)
            f["cycle"] = .number(Double(ev.cycle))
            return [ProtocolEvent(.cycleStarted, f)]
        case .cycleEnd:
            if !stopping { cyclesCompleted = max(cyclesCompleted, ev.cycle) }
            return []
        case .breath:
            var f = stamp(sessionFrame: ev.frame, outputFrame: outputFrame)
            f["cycle"] = .number(Double(ev.cycle))
            f["seconds"] = .number(rate.seconds(frames: timeline.breathFrames))
            return [ProtocolEvent(.breathStarted, f)]
        case .end:
            ended = true
            return []
        case .fadeIn, .fadeOut:
            return []
        }
    }

    private func stamp(sessionFrame: FramePosition, outputFrame: FramePosition, timeKey: String = "at") -> [String: JSONValue] {
        [
            "sessionId": .string(id), "frame": .number(Double(sessionFrame)), "outputFrame": .number(Double(outputFrame)),
            timeKey: .string(ProtocolTime.format(wallTime(outputFrame: outputFrame))),
        ]
    }
}
