import AssetPipeline
import AudioCore
import AudioDevice
import AudioEngine
import ControlProtocol
import Foundation

/// Executes protocol commands: starts sessions (a ``RunningSession`` on an engine and an output), drives the
/// transport, answers status and journal queries, and turns what happens into protocol events.
///
/// The server's ``ControlService``: its ``RequestDispatcher``s call one method per decoded command, and the server
/// calls ``poll()`` a few times per second; all return at once. The running session keeps the ``SessionJournal``:
/// a checkpoint at the start, on pause and resume, and every ``checkpointInterval`` seconds in between, the record
/// when it ends.
///
/// - Thread safety: one control thread (the server's loop), which is also the engine's control thread.
/// - Real-time safe: no.
public final class SessionController {
    public let output: OutputChoice
    public let journal: SessionJournal
    public let assets: AssetLibrary
    /// Seconds between checkpoints of a session in progress.
    public let checkpointInterval: Double
    /// The rate sessions are asked to run at (the device may negotiate another).
    public let preferredRate: SampleRate
    /// Warnings for the server's stderr (journal trouble, output warnings).
    var warnings: [String] = []
    var session: RunningSession?
    /// The preview playing, when one is (never during a session).
    var preview: PreviewPlayback?
    /// What the session may still play, marked in use in the asset cache until it ends (the memory bound counts
    /// it): its plan's bell, interval bell, ambient and `themeAt` themes, and the bells struck by name.
    var sessionAssets: [LoadedAsset] = []
    /// The theme the last `set` gave the session, in use until another replaces it or the session ends.
    var setThemeAsset: LoadedAsset?
    var pending: [ProtocolEvent] = []
    /// What observers have been told of the state (``poll()`` reports changes to it).
    var reporter = StateReporter()
    /// The rate the last session's output gave (``startLoadRate``).
    var lastSessionRate: SampleRate?
    /// The wall clock sessions start and are journaled by; tests move it by hand.
    var wallClock: () -> Date = { Date() }
    /// The monotonic clock that paces `state.changed` (``StateReporter/minimumInterval``); tests move it by hand.
    var monotonicClock: () -> ContinuousClock.Instant = { .now }
    /// Opens the output a session plays on, at a rate.
    let openOutput: (SampleRate) throws(EnsoError) -> any AudioOutput

    /// A controller whose sessions play on `output`, opened by `openOutput` when given (a test's `ManualOutput`,
    /// which `output` then only names in `status`).
    public init(
        output: OutputChoice, journal: SessionJournal, assets: AssetLibrary, checkpointInterval: Double = 5,
        preferredRate: SampleRate = .hz48000,
        openOutput: ((SampleRate) throws(EnsoError) -> any AudioOutput)? = nil
    ) {
        self.output = output
        self.journal = journal
        self.assets = assets
        self.checkpointInterval = checkpointInterval
        self.preferredRate = preferredRate
        if let openOutput {
            self.openOutput = openOutput
        } else {
            self.openOutput = { (rate) throws(EnsoError) in try output.open(rate: rate) }
        }
    }

    /// Whether a session is playing (or paused, or closing).
    public var isActive: Bool { session != nil }

    /// A client asked for `shutdown`: the server ends its loop (ending any session through ``shutdown()``).
    public private(set) var shutdownRequested = false

    func takePending() -> [ProtocolEvent] {
        defer { pending.removeAll() }
        return pending
    }

    /// Takes the warnings gathered since the last call.
    public func takeWarnings() -> [String] {
        defer { warnings.removeAll() }
        return warnings
    }
}

// MARK: - Commands

extension SessionController: ControlService {
    public func start(_ fields: PlanFields) throws(ProtocolError) -> StartReply { try startSession(fields) }

    public func pause() throws(ProtocolError) -> SessionReply {
        let s = try active()
        // A stop asked before the closing bell is under way: its closing group and fade play out. A pause after it
        // held the sitting paused, its closing bell unrung, until a resume (`stop` and `pause` on one write).
        if s.stopRequested {
            throw ProtocolError(
                .notPlaying, "session \(s.id) is stopping (a stop was asked): nothing to pause; its closing plays out")
        }
        try send(s.pause())
        return SessionReply(sessionId: s.id)
    }

    public func resume() throws(ProtocolError) -> SessionReply {
        let s = try active()
        try send(s.resume())
        return SessionReply(sessionId: s.id)
    }

    public func stop(bell: Bool?) throws(ProtocolError) -> StopReply {
        if session == nil || session?.ended == true, let p = preview {
            stopPreview(p)
            return StopReply(previewId: p.id)
        }
        let s = try active()
        try send(s.stop(withBell: bell ?? true))
        return StopReply(sessionId: s.id)
    }

    public func strike(bell: String?) throws(ProtocolError) -> SessionReply {
        let s = try active()
        // Nothing sounds during a pause, and a strike held until resume would lose its attack to the resume
        // fade; after a stop without the bell it sounds inside a 20 ms fade to the end: refused, so no event reports
        // a bell that was not heard.
        if s.silenceSent || s.ended {
            throw ProtocolError(
                .notPlaying,
                "the session is ending: a stop without the bell silences it, so a strike would not be heard")
        }
        if !s.canStrike {
            throw ProtocolError(
                .notPlaying, "the session is paused: a strike would not be heard until resume; resume first")
        }
        let asset = try bell.map { (b) throws(ProtocolError) -> LoadedAsset in
            try assets.admit(
                [(try assets.source(b, kind: .bell, rate: s.rate, field: "bell"), "bell")], what: "the bell")
            return try assets.load(b, kind: .bell, rate: s.rate, field: "bell")
        }
        try send(s.strike(asset))
        if let asset { holdForSession(asset) }
        return SessionReply(sessionId: s.id)
    }

    public func status() -> StatusReply { statusReply }

    public func listAssets() -> AssetsReply { assets.reply }

    public func plan(_ fields: PlanFields) throws(ProtocolError) -> PlanReport { try planReport(fields) }

    public func preview(_ fields: PreviewFields) throws(ProtocolError) -> PreviewReply { try startPreview(fields) }

    public func prefetch(_ fields: PrefetchFields) throws(ProtocolError) -> PrefetchReply { try prefetchAssets(fields) }

    public func observedState() -> ObservedState { reporter.reported }

    public func devices() throws(ProtocolError) -> DevicesReply {
        do {
            let devices = try PlaybackDevice.all()
            return DevicesReply(devices: devices.map { .init(name: $0.name, description: $0.description) })
        } catch {
            throw ProtocolError(ErrorCode(error.kind), error.message)
        }
    }

    public func sessionsList(_ query: SessionsQuery) throws(ProtocolError) -> SessionsListReply {
        let contents: SessionJournal.Contents
        do {
            // A record an earlier write could not take goes first, if the disk has room again; else read lists it.
            try? journal.writeUnwritten()
            contents = try journal.read()
        } catch {
            throw ProtocolError(ErrorCode(error.kind), error.message)
        }
        // The records get what one reply may hold once the warnings and the envelope have theirs.
        let warningBytes = contents.warnings.reduce(0) { $0 + MessageEncoder.line(.string($1)).count }
        let budget = ClientConnection.maxReplyBytes - Self.replyEnvelopeBytes - warningBytes
        guard
            let page = query.page(
                of: contents.records, maxBytes: budget,
                size: { MessageEncoder.line(MessageEncoder.value($0)).count })
        else {
            let (field, id) =
                switch query.anchor {
                case .after(let id): ("after", id)
                case .before(let id): ("before", id)
                case .newest: ("after", "")
                }
            throw ProtocolError(
                .invalidField, "\(field): no session '\(id.prefix(64))' in the journal \(journal.path)", field: field)
        }
        return SessionsListReply(records: page.records, more: page.more, warnings: contents.warnings)
    }

    /// Room kept in a `sessions.list` reply for what surrounds the records (the id, `ok`, `more`, the brackets).
    static let replyEnvelopeBytes = 4096

    public func sessionsMarkSynced(ids: [String]) throws(ProtocolError) -> MarkSyncedReply {
        do {
            let r = try journal.markSynced(ids)
            return MarkSyncedReply(marked: r.found, missing: r.missing)
        } catch { throw ProtocolError(ErrorCode(error.kind), error.message) }
    }

    public func requestShutdown() -> ShutdownReply {
        shutdownRequested = true
        return ShutdownReply(stopping: isActive)
    }
}

extension SessionController {
    private func active() throws(ProtocolError) -> RunningSession {
        guard let s = session, !s.ended else { throw ProtocolError(.notPlaying, "no session is playing") }
        return s
    }

    private func send(_ accepted: Bool) throws(ProtocolError) {
        guard accepted else { throw ProtocolError(.busy, "the engine's command queue is full; try again") }
    }

    public func set(_ fields: SetFields) throws(ProtocolError) -> SetReply {
        let s = try active()
        var loadWarnings: [String] = []
        if let theme = fields.theme {
            if !AssetName.isSilence(theme) {
                let source = try assets.source(
                    theme, kind: .soundscape, rate: s.rate, field: "theme", seamFix: s.seamFix)
                try assets.admit([(source, "theme")], what: "the theme")
            }
            let asset =
                AssetName.isSilence(theme)
                ? nil
                : try assets.load(
                    theme, kind: .soundscape, rate: s.rate, field: "theme", seamFix: s.seamFix,
                    warn: { loadWarnings.append($0) })
            let frames = fields.crossfade.map { Int(s.rate.frames(seconds: $0)) }
            try send(s.setTheme(asset, crossfadeFrames: frames))
            // The theme it replaces fades out and is let go; a plan's themes stay held until the session ends.
            if let old = setThemeAsset { assets.cache.release(old) }
            setThemeAsset = asset
            if let asset { assets.cache.use(asset) }
        }
        let ramp = fields.ramp.map { Int(s.rate.frames(seconds: $0)) }
        if let v = fields.ambientVolume { try send(s.setVolume(.ambient, v, rampFrames: ramp)) }
        if let v = fields.bellVolume { try send(s.setVolume(.bell, v, rampFrames: ramp)) }
        if let v = fields.volume { try send(s.setVolume(.master, v, rampFrames: ramp)) }
        return SetReply(
            sessionId: s.id, ignoredFields: fields.ignoredFields, warnings: loadWarnings.isEmpty ? nil : loadWarnings)
    }

    // MARK: - Starting

    private func startSession(_ fields: PlanFields) throws(ProtocolError) -> StartReply {
        if let s = session, !s.ended { throw ProtocolError(.busy, "session \(s.id) is already playing; stop it first") }
        let plan = try fields.plan()
        // Checked before anything sounds; the frames are checked against the session's end below.
        _ = try fields.themeAt(rate: preferredRate, endFrame: nil)
        // Every sample the session will hold fits the memory bound, or nothing is loaded.
        try assets.admit(startSources(fields, plan: plan, rate: preferredRate), what: "the plan")
        // The session takes the output: a preview fades out first.
        pending += endPreview(.replaced)
        // A sitting the journal cannot keep is refused before it starts, not lost at its end.
        try? journal.writeUnwritten()
        do { try journal.checkWritable() } catch { throw ProtocolError(ErrorCode(error.kind), error.message) }
        let out: any AudioOutput
        do { out = try openOutput(preferredRate) } catch {
            throw ProtocolError(ErrorCode(error.kind), "output \(output): \(error.message)")
        }
        let rate = out.format.sampleRate
        lastSessionRate = rate
        let bell = try assets.load(plan.bell, kind: .bell, rate: rate, field: "bell")
        // Only a plan with interval bells rings one (the table echoes its settings only then).
        let interval = try plan.intervalBell.flatMap { (b) throws(ProtocolError) in
            plan.hasIntervals ? try assets.load(b, kind: .bell, rate: rate, field: "intervalBell") : nil
        }
        var loadWarnings: [String] = []
        let ambient = try plan.ambient.map { (a) throws(ProtocolError) in
            try assets.load(
                a, kind: .soundscape, rate: rate, field: "ambient", seamFix: fields.seamFix ?? true,
                warn: { loadWarnings.append($0) })
        }
        let now = wallClock()
        let timeline: SessionTimeline
        do {
            timeline = try SessionTimeline(
                plan: plan, sampleRate: rate, bellTail: bell.decayFrames(gain: plan.bellVolume * plan.masterVolume),
                startSecondOfDay: Self.secondOfDay(now))
        } catch { throw Self.invalid(error) }
        let changes = try fields.themeAt(rate: rate, endFrame: timeline.endFrame)
        let themes = try changes.map { (c) throws(ProtocolError) in
            try c.theme.map { (t) throws(ProtocolError) in
                try assets.load(
                    t, kind: .soundscape, rate: rate, field: PlanFields.themeAtKey, seamFix: fields.seamFix ?? true,
                    warn: { loadWarnings.append($0) })
            }
        }
        let engine: SessionEngine
        do {
            let assets = EngineAssets(bell: bell, ambient: ambient, interval: interval)
            engine = try SessionEngine(plan: plan, timeline: timeline, assets: assets)
        } catch {
            throw ProtocolError(.unsupported, error.message)
        }
        engine.prepare(maxFrames: out.format.periodFrames)
        // Held by the render thread until their session frame: a pause moves them later, as it moves the bells.
        for (change, theme) in zip(changes, themes) {
            engine.setTheme(
                theme, atSessionFrame: change.frame, crossfadeFrames: Int(rate.frames(seconds: change.crossfadeSeconds))
            )
        }
        let s = RunningSession(
            plan: plan, engine: engine, output: out, startDate: now, unpaced: output.isUnpaced, journal: journal,
            checkpointInterval: checkpointInterval)
        s.wallClock = wallClock
        s.checkpointWriter = CheckpointWriter()
        do {
            try s.start()
        } catch {
            throw ProtocolError(ErrorCode(error.kind), "output \(output): \(error.message)")
        }
        for w in out.warnings { warnings.append(w) }
        s.planFields = PlanFields(resolved: plan, stopBell: fields.stopBell)
        if !changes.isEmpty { s.planFields.values[PlanFields.themeAtKey] = PlanFields.themeAtEcho(changes, rate: rate) }
        s.seamFix = fields.seamFix ?? true
        session = s
        for asset in [bell, interval, ambient].compactMap({ $0 }) + themes.compactMap({ $0 }) { holdForSession(asset) }
        warnings += s.takeWarnings()
        let started = SessionStarted(
            sessionId: s.id, plan: s.planFields, startsAt: ProtocolTime.format(now),
            endsAt: s.plannedEndsAt.map(ProtocolTime.format), endFrame: s.closingFrame, sampleRate: rate.hertz)
        pending.append(.sessionStarted(started))
        // What the plan asks for and will not get (an interval time that never rings), then what the loads noticed.
        let allWarnings = (PlanReport.warnings(timeline, .protocol) ?? []) + loadWarnings
        return StartReply(
            started, plannedSeconds: s.closingFrame.map { rate.seconds(frames: $0) },
            ignoredFields: fields.ignoredFields, warnings: allWarnings.isEmpty ? nil : allWarnings)
    }

    /// The `plan` reply: the timeline `start` would play from now, at ``preferredRate`` (an output may negotiate
    /// another rate at `start`; the reply's `sampleRate` says which one the frames count). Touches no session.
    private func planReport(_ fields: PlanFields) throws(ProtocolError) -> PlanReport {
        let plan = try fields.plan()
        // What `start` would refuse for memory, refused here.
        try assets.admit(startSources(fields, plan: plan, rate: preferredRate), what: "the plan")
        let bell = try assets.load(plan.bell, kind: .bell, rate: preferredRate, field: "bell")
        let start = Self.secondOfDay(Date())
        let timeline: SessionTimeline
        do {
            timeline = try SessionTimeline(
                plan: plan, sampleRate: preferredRate,
                bellTail: bell.decayFrames(gain: plan.bellVolume * plan.masterVolume),
                startSecondOfDay: start)
        } catch { throw Self.invalid(error) }
        // A plan with more events than one reply holds is refused before it is listed (a day-long sitting with a
        // bell every 5 s, repeated 1 000 times, held the server for minutes and grew it by gigabytes to find its
        // reply too long).
        let most = PlanReport.mostEventsListed
        if timeline.events(cycles: timeline.cycleCount == nil ? 2 : nil, atMost: most).count > most {
            throw ProtocolError(
                .unsupported,
                "the plan holds more than \(most) events, more than one reply may list; ask for fewer cycles (repeat) "
                    + "or fewer interval bells, or list it with `enso plan`")
        }
        let changes = try fields.themeAt(rate: preferredRate, endFrame: timeline.endFrame).map {
            PlanReport.ThemeChange(frame: $0.frame, theme: $0.theme)
        }
        // What `start` would refuse, refused here: the interval bell loaded as the bell is, the themes found (ids in
        // the pack, files that exist) but not decoded.
        if plan.hasIntervals, let b = plan.intervalBell {
            _ = try assets.load(b, kind: .bell, rate: preferredRate, field: "intervalBell")
        }
        if let a = plan.ambient { try assets.find(a, kind: .soundscape, field: "ambient") }
        for theme in changes.compactMap(\.theme) {
            try assets.find(theme, kind: .soundscape, field: PlanFields.themeAtKey)
        }
        return PlanReport(timeline: timeline, plan: plan, startSecondOfDay: start, themeChanges: changes)
    }

    /// Marks `asset` in use for the rest of the session (``sessionAssets``).
    func holdForSession(_ asset: LoadedAsset) {
        assets.cache.use(asset)
        sessionAssets.append(asset)
    }

    /// Lets go of everything the session held (it has ended).
    func releaseSessionAssets() {
        for asset in sessionAssets { assets.cache.release(asset) }
        if let theme = setThemeAsset { assets.cache.release(theme) }
        sessionAssets.removeAll()
        setThemeAsset = nil
    }

    static func secondOfDay(_ date: Date) -> Double {
        let c = Calendar.current.dateComponents([.hour, .minute, .second, .nanosecond], from: date)
        let whole: Int = c.hour! * 3600 + c.minute! * 60 + c.second!
        return Double(whole) + Double(c.nanosecond!) / 1e9
    }

    /// A plan refused by the engine, as the protocol says it: its key in `field` and in the message.
    static func invalid(_ error: PlanValidationError) -> ProtocolError {
        ProtocolError(.invalidField, error.message(.protocol), field: SessionPlan.spec(error.field).key)
    }
}
