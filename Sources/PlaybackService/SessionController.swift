import AssetPipeline
import AudioCore
import AudioDevice
import AudioEngine
import ControlProtocol
import Foundation

/// Executes protocol commands: starts sessions on an engine and an output, drives the transport, answers
/// status and journal queries, and turns what happens into protocol events.
///
/// The server calls ``handle(_:)`` for each decoded command and ``poll()`` a few times per second; both
/// return at once. Each session's record goes to the ``SessionJournal`` when it ends, and a checkpoint is
/// written at the start, on pause and resume, and every ``checkpointInterval`` seconds in between.
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
    var pending: [ProtocolEvent] = []

    public init(
        output: OutputChoice, journal: SessionJournal, assets: AssetLibrary, checkpointInterval: Double = 5,
        preferredRate: SampleRate = .hz48000
    ) {
        self.output = output
        self.journal = journal
        self.assets = assets
        self.checkpointInterval = checkpointInterval
        self.preferredRate = preferredRate
    }

    /// Whether a session is playing (or paused, or closing).
    public var isActive: Bool { session != nil }

    var currentSession: RunningSession? {
        get { session }
        set { session = newValue }
    }

    func takePending() -> [ProtocolEvent] {
        defer { pending.removeAll() }
        return pending
    }

    /// Takes the warnings gathered since the last call.
    public func takeWarnings() -> [String] {
        defer { warnings.removeAll() }
        return warnings
    }

    // MARK: - Commands

    /// Executes `command` and returns the reply's data or error. `subscribe`, `unsubscribe` and `shutdown`
    /// concern the connection or the server and are answered by the server, not here.
    public func handle(_ command: ControlCommand) -> Result<JSONValue, ProtocolError> {
        do throws(ProtocolError) {
            return .success(try execute(command))
        } catch {
            return .failure(error)
        }
    }

    private func execute(_ command: ControlCommand) throws(ProtocolError) -> JSONValue {
        switch command {
        case .start(let fields): return try start(fields)
        case .pause:
            let s = try active()
            if !s.isPaused && !s.pauseRequested {
                try send(s.engine.pause())
                s.pauseRequested = true
                // From the command path: a state change seen only by polling can be missed.
                checkpointSoon(s)
            }
            return ["sessionId": .string(s.id)]
        case .resume:
            let s = try active()
            if s.isPaused || s.pauseRequested {
                try send(s.engine.resume())
                s.pauseRequested = false
                checkpointSoon(s)
            }
            return ["sessionId": .string(s.id)]
        case .stop(let bell):
            let s = try active()
            if !s.reachedClosingBell { s.stopRequested = true }
            // A stop while paused resumes first (the closing group rings from the paused frame), unless the
            // session is already closing (an earlier stop, or its closing bell rings): then it stays paused.
            let resumes = !s.stopSent && !s.reachedClosingBell
            try send(s.engine.stop(withBell: bell ?? true))
            s.stopSent = true
            if resumes { s.pauseRequested = false }
            return ["sessionId": .string(s.id)]
        case .set(let fields): return try set(fields)
        case .strike(let bell):
            let s = try active()
            // Nothing sounds during a pause, and a strike held until resume would lose its attack to the resume
            // fade: refused, so no event reports a bell that was not heard.
            if s.pauseRequested || s.isPaused {
                throw ProtocolError(.notPlaying, "the session is paused: a strike would not be heard until resume; resume first")
            }
            let asset = try bell.map { (b) throws(ProtocolError) in try assets.load(b, kind: .bell, rate: s.rate, field: "bell") }
            try send(s.engine.strike(asset))
            return ["sessionId": .string(s.id)]
        case .status: return status
        case .assets: return assets.json
        case .plan(let fields): return try planReport(fields)
        case .devices:
            do {
                return ["devices": try JSONValue(encoding: try PlaybackDevice.all())]
            } catch let e as EnsoError {
                throw ProtocolError(Self.deviceCode(e.kind), e.message)
            } catch {
                throw ProtocolError(.failure, "\(error)")
            }
        case .sessionsList(let limit, let unsyncedOnly):
            do {
                let contents = try journal.read()
                var records = contents.records
                if unsyncedOnly { records = records.filter { !$0.syncedToHealth } }
                if let limit, records.count > limit { records = Array(records.suffix(limit)) }
                let json = try records.map { (r) throws(ProtocolError) in try Self.json(r) }
                return ["records": .array(json), "warnings": .array(contents.warnings.map { .string($0) })]
            } catch let e as EnsoError {
                throw ProtocolError(Self.serviceCode(e.kind), e.message)
            } catch let e as ProtocolError {
                throw e
            } catch {
                throw ProtocolError(.failure, "\(error)")
            }
        case .sessionsMarkSynced(let ids):
            do {
                let r = try journal.markSynced(ids)
                return ["marked": .array(r.found.map { .string($0) }), "missing": .array(r.missing.map { .string($0) })]
            } catch { throw ProtocolError(Self.serviceCode(error.kind), error.message) }
        case .subscribe, .unsubscribe, .shutdown:
            return [:]
        }
    }

    private func active() throws(ProtocolError) -> RunningSession {
        guard let s = session, !s.ended else { throw ProtocolError(.notPlaying, "no session is playing") }
        return s
    }

    private func send(_ accepted: Bool) throws(ProtocolError) {
        guard accepted else { throw ProtocolError(.busy, "the engine's command queue is full; try again") }
    }

    private func set(_ fields: SetFields) throws(ProtocolError) -> JSONValue {
        let s = try active()
        var loadWarnings: [String] = []
        if let theme = fields.theme {
            let asset = theme == "none" || theme.isEmpty
                ? nil
                : try assets.load(
                    theme, kind: .soundscape, rate: s.rate, field: "theme", seamFix: s.seamFix,
                    warn: { loadWarnings.append($0) })
            let frames = fields.crossfade.map { Int(s.rate.frames(seconds: $0)) }
            try send(s.engine.setTheme(asset, crossfadeFrames: frames))
        }
        let ramp = fields.ramp.map { Int(s.rate.frames(seconds: $0)) }
        if let v = fields.ambientVolume {
            try send(s.engine.setVolume(.ambient, v, rampFrames: ramp))
            s.volumes.ambient = v
        }
        if let v = fields.bellVolume {
            try send(s.engine.setVolume(.bell, v, rampFrames: ramp))
            s.volumes.bell = v
        }
        if let v = fields.volume {
            try send(s.engine.setVolume(.master, v, rampFrames: ramp))
            s.volumes.master = v
        }
        var reply: [String: JSONValue] = [
            "sessionId": .string(s.id), "ignoredFields": .array(fields.ignoredFields.map { .string($0) }),
        ]
        if !loadWarnings.isEmpty { reply["warnings"] = .array(loadWarnings.map { .string($0) }) }
        return .object(reply)
    }

    // MARK: - Starting

    private func start(_ fields: PlanFields) throws(ProtocolError) -> JSONValue {
        if let s = session, !s.ended { throw ProtocolError(.busy, "session \(s.id) is already playing; stop it first") }
        let plan = try Self.validate(fields)
        // A sitting the journal cannot keep is refused before it starts, not lost at its end.
        do { try journal.checkWritable() } catch { throw ProtocolError(Self.serviceCode(error.kind), error.message) }
        let out: any AudioOutput
        do { out = try output.open(rate: preferredRate) } catch {
            throw ProtocolError(Self.deviceCode(error.kind), "output \(output): \(error.message)")
        }
        let rate = out.format.sampleRate
        let bell = try assets.load(plan.bell, kind: .bell, rate: rate, field: "bell")
        var loadWarnings: [String] = []
        let ambient = try plan.ambient.map { (a) throws(ProtocolError) in
            try assets.load(
                a, kind: .soundscape, rate: rate, field: "ambient", seamFix: fields.seamFix ?? true,
                warn: { loadWarnings.append($0) })
        }
        let now = Date()
        let timeline: SessionTimeline
        do {
            timeline = try SessionTimeline(
                plan: plan, sampleRate: rate, bellTail: bell.decayFrames(gain: plan.bellVolume * plan.masterVolume),
                startSecondOfDay: Self.secondOfDay(now))
        } catch { throw ProtocolError(.invalidField, error.message, field: Self.fieldName(error.field)) }
        let engine: SessionEngine
        do {
            engine = try SessionEngine(plan: plan, timeline: timeline, assets: EngineAssets(bell: bell, ambient: ambient))
        } catch {
            throw ProtocolError(.unsupported, error.message)
        }
        engine.prepare(maxFrames: out.format.periodFrames)
        do {
            try out.start(engine)
        } catch {
            throw ProtocolError(Self.deviceCode(error.kind), "output \(output): \(error.message)")
        }
        for w in out.warnings { warnings.append(w) }
        let s = RunningSession(
            id: UUID().uuidString.lowercased(), plan: plan, planJSON: Self.json(plan, stopBell: fields.stopBell),
            engine: engine, output: out, timeline: timeline, startDate: now, unpaced: output.isUnpaced)
        s.seamFix = fields.seamFix ?? true
        session = s
        checkpoint(s)
        let started = ProtocolEvent(
            .sessionStarted,
            [
                "sessionId": .string(s.id), "plan": s.planJSON, "startsAt": .string(ProtocolTime.format(now)),
                "endsAt": s.endsAt.map { .string(ProtocolTime.format($0)) } ?? .null,
                "sampleRate": .number(Double(rate.hertz)),
                "endFrame": s.closingFrame.map { .number(Double($0)) } ?? .null,
            ])
        pending.append(started)
        var reply = started.fields
        reply["plannedSeconds"] = s.closingFrame.map { .number(rate.seconds(frames: $0)) } ?? .null
        if !loadWarnings.isEmpty { reply["warnings"] = .array(loadWarnings.map { .string($0) }) }
        return .object(reply)
    }

    /// The `plan` reply: the timeline `start` would play from now, at ``preferredRate`` (an output may negotiate
    /// another rate at `start`; the reply's `sampleRate` says which one the frames count). Touches no session.
    private func planReport(_ fields: PlanFields) throws(ProtocolError) -> JSONValue {
        let plan = try Self.validate(fields)
        let bell = try assets.load(plan.bell, kind: .bell, rate: preferredRate, field: "bell")
        let start = Self.secondOfDay(Date())
        let timeline: SessionTimeline
        do {
            timeline = try SessionTimeline(
                plan: plan, sampleRate: preferredRate, bellTail: bell.decayFrames(gain: plan.bellVolume * plan.masterVolume),
                startSecondOfDay: start)
        } catch { throw ProtocolError(.invalidField, error.message, field: Self.fieldName(error.field)) }
        do {
            return try JSONValue(encoding: PlanReport(timeline: timeline, plan: plan, startSecondOfDay: start))
        } catch { throw ProtocolError(.failure, "cannot encode the plan's timeline") }
    }

    /// Checks the plan with the engine's own validation (the CLI's ranges and wording).
    static func validate(_ f: PlanFields) throws(ProtocolError) -> SessionPlan {
        var raw = SessionPlan.RawValues(
            sitting: f.sitting, bell: f.bell, strikes: f.strikes, strikeSpacing: f.strikeSpacing, breath: f.breath,
            ambient: f.ambient, ambientVolume: f.ambientVolume, bellVolume: f.bellVolume, masterVolume: f.volume,
            fadeIn: f.fadeIn, fadeOut: f.fadeOut)
        switch f.repetition {
        case .once: raw.repeatMode = .once
        case .times(let n): raw.repeatMode = .times(n)
        case .untilStopped: raw.repeatMode = .untilStopped
        case .until(let h, let m, let s):
            guard let t = ClockTime(hour: h, minute: m, second: s) else {
                throw .invalidField("repeat", "not a clock time")
            }
            raw.repeatMode = .until(t)
        case nil: break
        }
        do { return try SessionPlan.validated(raw) } catch {
            throw ProtocolError(.invalidField, error.message, field: fieldName(error.field))
        }
    }

    /// The protocol's name for an engine plan field.
    static func fieldName(_ field: SessionPlan.Field) -> String {
        switch field {
        case .masterVolume: "volume"
        default: field.rawValue
        }
    }

    static func secondOfDay(_ date: Date) -> Double {
        let c = Calendar.current.dateComponents([.hour, .minute, .second, .nanosecond], from: date)
        return Double(c.hour! * 3600 + c.minute! * 60 + c.second!) + Double(c.nanosecond!) / 1e9
    }

    static func json(_ plan: SessionPlan, stopBell: Bool?) -> JSONValue {
        [
            "sitting": .number(plan.sitting), "bell": .string(plan.bell), "strikes": .number(Double(plan.strikes)),
            "strikeSpacing": .number(plan.strikeSpacing), "breath": .number(plan.breath),
            "repeat": .string(plan.repeatMode.description), "ambient": plan.ambient.map { .string($0) } ?? "none",
            "ambientVolume": .number(plan.ambientVolume), "bellVolume": .number(plan.bellVolume),
            "volume": .number(plan.masterVolume), "fadeIn": .number(plan.fadeIn), "fadeOut": .number(plan.fadeOut),
            "stopBell": .bool(stopBell ?? true),
        ]
    }

    static func json(_ record: SessionRecord) throws(ProtocolError) -> JSONValue {
        do { return try JSONValue(encoding: record) } catch { throw ProtocolError(.failure, "cannot encode record \(record.id)") }
    }

    static func serviceCode(_ kind: ErrorKind) -> ErrorCode { ErrorCode(rawValue: kind.rawValue == "invalid-input" ? "invalid-request" : kind.rawValue) }
    static func deviceCode(_ kind: ErrorKind) -> ErrorCode {
        switch kind {
        case .busy: .busy
        case .unavailable: .unavailable
        case .unsupported: .unsupported
        case .permission: .permission
        case .invalidInput: .unsupported
        default: .failure
        }
    }
}
