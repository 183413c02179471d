import AudioCore
import AudioDevice
import AudioEngine
import ControlProtocol
import Foundation

/// One live sitting: the engine, the output it plays through and the journal that keeps it. The one runner behind
/// `enso play` and `enso serve`.
///
/// Each fact about a sitting in progress is computed here once, for both front ends:
/// - the engine's events as ``LiveEvent``s, each stamped with its session frame, its output frame, the wall-clock
///   time it is heard (from the output's `AudioClock`) and ``endsAt`` as of it (``poll()``);
/// - the next bell and the next event of the plan, the time left, when the closing bell is heard (``endsAt``);
/// - sat time (``SatTime``) and the journal record, checkpointed at the start, on pause and resume (at most every
///   ``minimumCheckpointSpacing``) and every ``checkpointInterval`` seconds, appended when the sitting ends
///   (``finish(_:)``).
///
/// The transport goes through it too (``pause()``, ``resume()``, ``stop(withBell:)``, ``strike(_:)``), so a pause
/// asked for and not yet rendered already counts as one.
///
/// `enso play` prints the events; `SessionController` turns them into protocol events.
///
/// - Thread safety: one control thread (it is the engine's one control thread).
/// - Real-time safe: no.
public final class RunningSession {
    public let id: String
    public let plan: SessionPlan
    public let engine: SessionEngine
    public let output: any AudioOutput
    public let timeline: SessionTimeline
    public let rate: SampleRate
    public let startDate: Date
    /// Output time is the frame count (an unpaced file): times are the start plus the frames, always settled.
    public let unpaced: Bool
    /// Where the sitting is recorded (`nil`: nowhere, `enso play --no-journal`).
    public let journal: SessionJournal?
    /// Seconds between checkpoints of the sitting in progress.
    public let checkpointInterval: Double
    /// The plan as the protocol shows it, every field resolved (`start`'s reply, `status`); set by the server.
    var planFields = PlanFields()
    /// Whether themes set later get the seam fix (the start's `seamFix`).
    var seamFix = true
    /// The current theme (the last one the engine started crossfading to).
    public internal(set) var theme: String?
    /// The themes sat with, in order: the starting one at frame 0, then one entry per change (its session frame).
    public internal(set) var themes: [SessionRecord.ThemeSpan]
    /// The gains as last set (the plan's until a change): the targets of any ramp in progress.
    public private(set) var volumes: (master: Double, ambient: Double, bell: Double)
    /// The last transport command sent was `pause` (the engine applies commands in order, so a strike sent now
    /// lands in the pause even when the engine has not rendered it yet).
    public private(set) var pauseRequested = false
    /// The last transport command sent was `resume` and the engine may not have rendered it yet: the sitting is not
    /// held from the resume's reply on (``isHeld``), as it is held from a pause's.
    public private(set) var resumeRequested = false
    /// A stop has been sent (a later one finds the engine closing: it does not resume a pause).
    public private(set) var stopSent = false
    /// A stop without the bell has been sent: the session is silenced within 20 ms (the de-click fade) and ends, so
    /// nothing struck from here is heard.
    public private(set) var silenceSent = false
    /// A stop sent while paused ends the pause (``stop(withBell:)``): one with the bell resumes for the closing group,
    /// one without ends the sitting where it is paused. The sitting is not held from the stop on (``isHeld``), though
    /// the engine renders it up to a period later.
    public private(set) var stopEndedPause = false
    /// The most entries ``themes`` keeps: the starting theme and the latest 255 changes.
    static let maximumThemes = 256
    /// The session frame a stop took effect on: sat time ends there (the closing group's ring-out is not sat).
    public internal(set) var stopFrame: FramePosition?
    /// The output frame the session ended on (its `end` event), to cut an unpaced file there.
    var endOutputFrame: FramePosition?
    /// The session frame heard when a paced output stopped before playing out what it held (``finish(_:)``): sat
    /// time ends there, not on the frames rendered ahead of it.
    var heardEnd: FramePosition?
    /// The session frame heard when a stop before the closing bell was asked (``stop(withBell:)``): the sitting ends
    /// there, not on the frame the engine applied it on, a buffer (170 ms) of rendered frames later.
    var stopAskedFrame: FramePosition?
    /// The last (session frame, output frame) pair the engine reported, and whether the session clock ran on from
    /// it: maps an output frame of a later event (a theme change) to its session frame.
    var anchor: (session: FramePosition, output: FramePosition, running: Bool) = (0, 0, true)
    /// The last resume the engine reported (session frame, output frame): before its output frame is heard, the
    /// sitter still hears the pause, on that session frame.
    var resumedAt: (session: FramePosition, output: FramePosition)?
    /// Cycles whose sitting was completed.
    public internal(set) var cyclesCompleted = 0
    /// A stop came before the closing bell: the sitting was cut short (`stopped`). A stop during the closing
    /// bell's ring only silences it; the sitting was completed.
    public private(set) var stopRequested = false
    /// The engine applied a stop: every strike from here is the closing group's.
    public internal(set) var stopping = false
    /// The session is over (its `end` event, the engine's end, or a failed output).
    public internal(set) var ended = false
    /// The output failed while playing.
    public internal(set) var deviceFailed = false
    /// ``finish(_:)`` ran: the record is final and no checkpoint follows it.
    public internal(set) var isFinished = false
    var lastCheckpoint: Date
    /// A checkpoint recording the sitting `completed` has been written (``satInFull``).
    var closingCheckpointed = false
    /// A pause or resume happened since the last checkpoint.
    var checkpointDue = false
    var reportedXruns = 0
    /// Warnings for the front end's stderr (journal trouble).
    var warnings: [String] = []
    /// Writes the checkpoints after the first one, off the caller's thread (`enso serve`: its control thread serves
    /// every client); `nil` writes them on the caller's thread (`enso play`).
    var checkpointWriter: CheckpointWriter?
    /// The wall clock the journal's checkpoints and records are timed by; tests move it by hand.
    var wallClock: () -> Date = { Date() }

    /// The least time between two checkpoints forced by pause and resume (each is an fsync): toggling pause a
    /// thousand times a second costs at most this many journal writes.
    public static let minimumCheckpointSpacing = 0.25

    /// A sitting of `plan` on `engine` and `output`, not started yet (``start(frameLimit:)``).
    ///
    /// - Parameters:
    ///   - unpaced: the output is a file written as fast as the engine renders (its time is the frame count).
    ///   - journal: where the sitting is recorded (`nil`: nowhere).
    public init(
        id: String = UUID().uuidString.lowercased(), plan: SessionPlan, engine: SessionEngine,
        output: any AudioOutput, startDate: Date = Date(), unpaced: Bool, journal: SessionJournal?,
        checkpointInterval: Double = 5
    ) {
        self.id = id
        self.plan = plan
        self.engine = engine
        self.output = output
        timeline = engine.timeline
        rate = engine.timeline.sampleRate
        self.startDate = startDate
        self.unpaced = unpaced
        self.journal = journal
        self.checkpointInterval = checkpointInterval
        lastCheckpoint = startDate
        theme = plan.ambient
        themes = [SessionRecord.ThemeSpan(frame: 0, theme: plan.ambient)]
        volumes = (plan.masterVolume, plan.ambientVolume, plan.bellVolume)
    }

    /// Starts the output on the engine (up to `frameLimit` output frames: an unpaced file of a fixed length) and
    /// writes the first checkpoint before it returns (a crash from then on is recovered).
    ///
    /// - Throws: `EnsoError` when the output cannot start; nothing is journaled then.
    public func start(frameLimit: FrameCount? = nil) throws(EnsoError) {
        try output.start(engine, startFrame: 0, frameLimit: frameLimit)
        checkpoint(now: true)
    }

    /// Takes the warnings gathered since the last call (journal checkpoints or records that could not be written,
    /// a file that could not be cut).
    public func takeWarnings() -> [String] {
        defer { warnings.removeAll() }
        return warnings + (checkpointWriter?.takeWarnings() ?? [])
    }

    // MARK: - Transport

    /// Pauses the sitting (nothing when paused or a pause is on its way).
    ///
    /// - Returns: `false` when the engine's command queue is full (try again).
    public func pause() -> Bool {
        guard !heldByTransport else { return true }
        guard engine.pause() else { return false }
        pauseRequested = true
        resumeRequested = false
        stopEndedPause = false
        // From the command path: a state change seen only by polling can be missed.
        checkpointSoon()
        return true
    }

    /// Resumes a paused sitting (nothing when playing).
    ///
    /// - Returns: `false` when the engine's command queue is full (try again).
    public func resume() -> Bool {
        guard heldByTransport else { return true }
        guard engine.resume() else { return false }
        pauseRequested = false
        resumeRequested = true
        checkpointSoon()
        return true
    }

    /// Stops the sitting: the closing group (`withBell`), then the fade. A stop with the bell while paused resumes
    /// first (the closing group rings from the paused frame), unless the sitting is already closing (an earlier stop,
    /// or its closing bell rings): then it stays paused; one without the bell ends it where it is paused, silent. A
    /// stop before the closing bell makes the sitting `stopped`. A stop that ends a pause ends it from here
    /// (``stopEndedPause``), and every event polled from here carries no ``LiveEvent/endsAt``, that resume's too.
    ///
    /// - Returns: `false` when the engine's command queue is full (try again).
    public func stop(withBell: Bool) -> Bool {
        // The engine's own position decides what a stop does: once it has rendered the closing bell, the device plays
        // that strike out whatever the stop, so the sitting is not cut short.
        let resumes = !stopSent && !closingRendered
        let heard = heardSessionFrame
        let held = isHeld
        guard engine.stop(withBell: withBell) else { return false }
        if !closingRendered {
            stopRequested = true
            if stopAskedFrame == nil { stopAskedFrame = heard }
        }
        stopSent = true
        if !withBell { silenceSent = true }
        if resumes { pauseRequested = false }
        // What the stop puts the sitting in holds from here (`status` after its reply), not from the period the engine
        // renders it in: closing (resumed for the closing group), or ending where it is paused.
        if held && (resumes || !withBell) { stopEndedPause = true }
        return true
    }

    /// Whether a strike would be heard now: not while paused (nothing sounds during a pause, and a strike held
    /// until the resume would lose its attack to the resume fade), nor after a stop without the bell (its 20 ms fade
    /// silences the strike and the session ends), nor once ended. In the closing group's ring and a stop's fade a
    /// strike sounds, and is reported as the `manual` strike it is.
    public var canStrike: Bool { !isHeld && !silenceSent && !ended }

    /// Strikes `bell` (the plan's bell when `nil`) now; check ``canStrike`` first.
    ///
    /// - Returns: `false` when the engine's command queue is full (try again).
    public func strike(_ bell: LoadedAsset? = nil) -> Bool { engine.strike(bell) }

    /// Crossfades to `theme` (`nil`: silence) over `crossfadeFrames` (the engine's default when `nil`).
    ///
    /// - Returns: `false` when the engine's command queue is full (try again).
    public func setTheme(_ theme: LoadedAsset?, crossfadeFrames: Int? = nil) -> Bool {
        engine.setTheme(theme, crossfadeFrames: crossfadeFrames)
    }

    /// Sets the gain of `bus` to `value` (0...1), ramped over `rampFrames` (the engine's default when `nil`).
    ///
    /// - Returns: `false` when the engine's command queue is full (try again).
    public func setVolume(_ bus: EngineBus, _ value: Double, rampFrames: Int? = nil) -> Bool {
        guard engine.setVolume(bus, value, rampFrames: rampFrames) else { return false }
        switch bus {
        case .master: volumes.master = value
        case .ambient: volumes.ambient = value
        case .bell: volumes.bell = value
        }
        return true
    }

    // MARK: - Times

    /// Session frame of the closing group's first strike: where the sitting ends (`nil`: until stopped). The
    /// engine's, so an until-plan's moves back with the pauses (the closing group stays on the clock time).
    public var closingFrame: FramePosition? { engine.closingFrame }

    /// Whether the sitting has reached its closing bell: the closing group's first strike has been heard (the frame
    /// heard, ``heardSessionFrame``; it was the frame rendered, so the state turned `stopping`, and a sitting the
    /// front end left then was `completed`, up to a buffer (170 ms) before the bell sounded, or ever did).
    ///
    /// Noted at each ``poll()`` and at ``finish(_:)`` (``noteClosingHeard()``), not read from the clock at each use:
    /// the state, the `completed` checkpoint and the outcome then agree, and the poll that first sees it writes that
    /// checkpoint before any event or `state.changed` says so.
    public internal(set) var reachedClosingBell = false

    /// Notes the closing bell heard (``reachedClosingBell``) once the frame heard has reached it.
    func noteClosingHeard() {
        if !reachedClosingBell, let closingFrame, heardSessionFrame >= closingFrame { reachedClosingBell = true }
    }

    /// Whether the engine has rendered the closing group's first strike (it may not be heard yet): a stop from here
    /// cannot cut the sitting short, since the device plays out what it holds, that strike included.
    var closingRendered: Bool { closingFrame.map { engine.sessionFrame >= $0 } ?? false }

    /// Whether the sitting is closing: a stop was asked or took effect, the closing group rings or its fade runs (the
    /// protocol's `stopping` state), or it has ended.
    public var isClosing: Bool { stopping || stopSent || ended || reachedClosingBell }

    /// Whether the transport is paused or pausing (a pause asked for and not rendered yet: ``pauseRequested``).
    public var isPaused: Bool { engine.state == .paused || engine.state == .pausing }

    /// Paused, or a pause is on its way, and no stop has ended the pause (``stopEndedPause``): times that depend on
    /// the session clock running are unknown.
    public var isHeld: Bool { heldByTransport && !stopEndedPause }

    /// Paused by the commands sent: a pause asked for (``pauseRequested``), or the engine paused and no resume sent
    /// since (``resumeRequested``), whatever the engine has rendered of them yet.
    var heldByTransport: Bool { (isPaused && !resumeRequested) || pauseRequested }

    /// Sat time in seconds (``SatTime``): the session clock as heard (``heardSessionFrame``: not the frames rendered
    /// ahead of it) up to the closing bell or the stop (or, when the output stopped before it played out, the frame
    /// heard then: ``heardEnd``).
    public var satSeconds: Double {
        let frame = min(heardSessionFrame, heardEnd ?? .max)
        return rate.seconds(
            frames: SatTime.frames(sessionFrame: frame, closingFrame: closingFrame, stopFrame: stopFrame))
    }

    /// The session frame being heard now: the output's clock's frame mapped through the last frames the engine
    /// reported (``anchor``). The render position where there is no such clock (an unpaced file, whose frames are
    /// its time, or before the first write).
    var heardSessionFrame: FramePosition {
        guard !unpaced, let heard = output.clock.frameHeardNow else { return engine.sessionFrame }
        // A resume rendered and not yet heard: the pause is what sounds (read back from the resume, sat time fell by
        // up to a buffer at every resume, and rose again).
        if let r = resumedAt, heard < r.output { return max(0, min(engine.sessionFrame, r.session)) }
        let a = anchor
        let frame =
            heard >= a.output
            ? (a.running ? a.session + (heard - a.output) : a.session)
            : a.session - (a.output - heard)
        return max(0, min(engine.sessionFrame, frame))
    }

    /// Whether published times are final: the output clock has settled (an unpaced file's always are). Before,
    /// a sound server's first readings can put times up to ~0.3 s early.
    public var clockSettled: Bool { unpaced || (output.clock.anchor != nil && output.clock.isSettled) }

    /// When output frame `frame` is heard, on the wall clock: from the output's clock once it has written, and
    /// before that (or for an unpaced file, whose time is its frame count) as ``OutputStart`` defines it, the
    /// first frame heard at the start.
    public func wallTime(outputFrame frame: FramePosition) -> Date {
        if !unpaced, let t = output.clock.audibleTime(ofFrame: frame) {
            return Date(timeIntervalSince1970: Double(t.realtimeNanoseconds) / 1e9)
        }
        return OutputStart.heardAt(frame: frame, startedAt: startDate, rate: rate)
    }

    /// When the session's first frame is heard: on the output's clock once it has written (so `status` agrees with
    /// the events' `audibleAt` and `endsAt`, which that clock stamps: a device that takes 5–17 ms to start put the
    /// first bell that much after `startsAt`), and before that (or for an unpaced file) ``startDate``.
    public var startsAt: Date { wallTime(outputFrame: 0) }

    /// When session frame `frame` (at or after the current position) is heard, if the session keeps playing.
    public func wallTime(sessionFrame frame: FramePosition) -> Date {
        wallTime(outputFrame: engine.outputFrame + (frame - engine.sessionFrame))
    }

    /// When the closing bell's first strike is heard; `nil` when open-ended, paused, closing or past it (once it is
    /// heard, ``reachedClosingBell``, as the state turns `stopping`: it was once it was rendered, a buffer before).
    public var endsAt: Date? {
        guard let closingFrame, !isHeld, !stopping, !stopSent, stopFrame == nil, !reachedClosingBell else {
            return nil
        }
        return wallTime(sessionFrame: closingFrame)
    }

    /// When the closing bell's first strike is heard for a sitting played through from its start without a pause
    /// (`nil`: open-ended): ``endsAt`` as of the start, whatever an unpaced output has rendered since.
    public var plannedEndsAt: Date? { closingFrame.map { wallTime(outputFrame: $0) } }

    /// Seconds of sitting left until the closing bell is heard (`nil` when open-ended; 0 once a stop is asked: none
    /// is left): from the frame heard (``heardSessionFrame``), so it counts down with ``endsAt``.
    public var remainingSeconds: Double? {
        closingFrame.map { stopSent ? 0 : rate.seconds(frames: max(0, $0 - heardSessionFrame)) }
    }

    /// The group a timeline strike belongs to (``LiveEvent/BellGroup``).
    public func group(of ev: SessionEvent) -> LiveEvent.BellGroup {
        if ev.group == .interval { return .interval }
        // After a stop every strike closes; so does any from the engine's closing frame (an until-plan's close
        // moves back with the pauses).
        if stopping || closingFrame.map({ ev.frame >= $0 }) ?? false { return .closing }
        if ev.cycle == 1 && ev.frame < timeline.cycleEnd(1) { return .opening }
        return timeline.isLastCycle(ev.cycle) ? .closing : .transition
    }

    /// The next strike of the plan after the frame heard (`nil` when closing after a stop, or none is left).
    public var nextBell: SessionEvent? {
        guard !stopping, !stopSent, stopFrame == nil else { return nil }
        return firstPlannedEvent { $0.kind == .strike }
    }

    /// When ``nextBell`` is heard (`nil` while paused: it is not known when the sitting goes on).
    public var nextBellAt: Date? {
        guard let bell = nextBell, !isHeld else { return nil }
        return wallTime(sessionFrame: bell.frame)
    }

    /// The next timeline event after the frame heard, from the plan (`nil` when closing).
    public var nextEvent: SessionEvent? {
        guard !stopping, !stopSent else { return nil }
        return firstPlannedEvent { $0.kind != .fadeIn }
    }

    /// The first event of the plan after the current position (this cycle or the next) that `matches`, interval
    /// strikes included (on a frame shared with a plan event, the plan's comes first, as the engine plays them).
    ///
    /// The plan as the engine now sees it: an until-plan's close moves back with the pauses (``closingFrame``), and
    /// the last cycle and its sitting's end with it.
    private func firstPlannedEvent(_ matches: (SessionEvent) -> Bool) -> SessionEvent? {
        // After the frame heard: a bell rendered and not yet heard (up to a buffer, 170 ms) is still the next one.
        let now = heardSessionFrame
        let c = max(1, min(engine.currentCycle, timeline.cycle(of: now)))
        let closing = closingFrame
        let until = timeline.untilFrame != nil
        let lastCycle: Int? = until ? closing.map { timeline.untilLayout(target: $0).cycle } : timeline.cycleCount
        let closingAt: FramePosition? = until ? closing : nil
        var list = SessionEventList()
        for cycle in c...(c + 1) {
            if let n = lastCycle, cycle > n { break }
            list.removeAll()
            timeline.events(ofCycle: cycle, closingCycle: lastCycle, closingAt: closingAt, into: &list)
            var planned: SessionEvent?
            for i in 0..<list.count where list[i].frame > now && matches(list[i]) {
                planned = list[i]
                break
            }
            var sittingEnd: FramePosition = timeline.cycleStart(cycle) + timeline.sittingFrames
            if lastCycle == cycle { sittingEnd = closing ?? timeline.cycleEnd(cycle) }
            if let interval = timeline.nextIntervalStrike(cycle: cycle, after: now, sittingEnd: sittingEnd),
                matches(interval), planned.map({ interval.frame < $0.frame }) ?? true
            {
                return interval
            }
            if let planned { return planned }
        }
        return nil
    }

    /// The output frame the session ended on: its `end` event's, or (ended by silencing a ring) the frame the
    /// frozen session clock maps to.
    var finalOutputFrame: FramePosition {
        endOutputFrame ?? (anchor.running ? anchor.output + (engine.sessionFrame - anchor.session) : anchor.output)
    }
}
