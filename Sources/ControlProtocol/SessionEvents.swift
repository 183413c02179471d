// The event messages a session sends (docs/protocol.md, "Events"). Every one carries `sessionId`; every one with a
// `frame` carries `outputFrame`, the time it is heard (`at`, `audibleAt` for a bell) and `endsAt` as of it (`null`
// when open-ended, paused, or after a `stop`), so a countdown can follow the events alone.

/// `session.started`.
public struct SessionStarted: Codable, Sendable, Equatable {
    public var sessionId: String
    /// The plan as started, every field resolved.
    public var plan: PlanFields
    public var startsAt: String
    @Nullable public var endsAt: String?
    /// The closing bell's session frame (`null` when open-ended).
    @Nullable public var endFrame: Int64?
    public var sampleRate: Int

    public init(
        sessionId: String, plan: PlanFields, startsAt: String, endsAt: String?, endFrame: Int64?, sampleRate: Int
    ) {
        self.sessionId = sessionId
        self.plan = plan
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.endFrame = endFrame
        self.sampleRate = sampleRate
    }
}

/// Where a session event falls: its session frame, its output frame, when it is heard, and `endsAt` as of it.
public struct EventTime: Sendable, Equatable {
    public var frame: Int64
    public var outputFrame: Int64
    /// When it is heard (ISO 8601).
    public var at: String
    public var endsAt: String?

    public init(frame: Int64, outputFrame: Int64, at: String, endsAt: String?) {
        self.frame = frame
        self.outputFrame = outputFrame
        self.at = at
        self.endsAt = endsAt
    }
}

/// `cycle.started`.
public struct CycleStarted: Codable, Sendable, Equatable {
    public var sessionId: String
    public var cycle: Int
    public var frame: Int64
    public var outputFrame: Int64
    public var at: String
    @Nullable public var endsAt: String?

    public init(sessionId: String, cycle: Int, time: EventTime) {
        self.sessionId = sessionId
        self.cycle = cycle
        (frame, outputFrame, at, endsAt) = (time.frame, time.outputFrame, time.at, time.endsAt)
    }
}

/// `bell`: a strike heard at `audibleAt`.
public struct BellStruck: Codable, Sendable, Equatable {
    public var sessionId: String
    public var cycle: Int
    /// `opening`, `transition`, `closing`, `interval`, or `manual` (a `strike` request).
    public var group: String
    /// 1…3 within its group.
    public var strike: Int
    public var frame: Int64
    public var outputFrame: Int64
    public var audibleAt: String
    @Nullable public var endsAt: String?

    public init(sessionId: String, cycle: Int, group: String, strike: Int, time: EventTime) {
        self.sessionId = sessionId
        self.cycle = cycle
        self.group = group
        self.strike = strike
        (frame, outputFrame, audibleAt, endsAt) = (time.frame, time.outputFrame, time.at, time.endsAt)
    }
}

/// `breath.started`: the pause between cycles.
public struct BreathStarted: Codable, Sendable, Equatable {
    public var sessionId: String
    public var cycle: Int
    public var frame: Int64
    public var outputFrame: Int64
    public var at: String
    /// How long the breath lasts.
    public var seconds: Double
    @Nullable public var endsAt: String?

    public init(sessionId: String, cycle: Int, seconds: Double, time: EventTime) {
        self.sessionId = sessionId
        self.cycle = cycle
        self.seconds = seconds
        (frame, outputFrame, at, endsAt) = (time.frame, time.outputFrame, time.at, time.endsAt)
    }
}

/// `session.paused` (`endsAt` is `null`: the countdown stops).
public struct SessionPaused: Codable, Sendable, Equatable {
    public var sessionId: String
    public var frame: Int64
    public var outputFrame: Int64
    public var at: String
    @Nullable public var endsAt: String?

    public init(sessionId: String, time: EventTime) {
        self.sessionId = sessionId
        (frame, outputFrame, at, endsAt) = (time.frame, time.outputFrame, time.at, time.endsAt)
    }
}

/// `session.resumed`, with the new `endsAt`.
public struct SessionResumed: Codable, Sendable, Equatable {
    public var sessionId: String
    public var frame: Int64
    public var outputFrame: Int64
    public var at: String
    /// How long the pause lasted, output time.
    public var pausedSeconds: Double
    @Nullable public var endsAt: String?

    public init(sessionId: String, pausedSeconds: Double, time: EventTime) {
        self.sessionId = sessionId
        self.pausedSeconds = pausedSeconds
        (frame, outputFrame, at, endsAt) = (time.frame, time.outputFrame, time.at, time.endsAt)
    }
}

/// `theme.changed`: `frame` is the session frame the crossfade starts on.
public struct ThemeChanged: Codable, Sendable, Equatable {
    public var sessionId: String
    /// The theme id or file (`null`: silence).
    @Nullable public var theme: String?
    public var frame: Int64
    public var outputFrame: Int64
    public var at: String
    @Nullable public var endsAt: String?

    public init(sessionId: String, theme: String?, time: EventTime) {
        self.sessionId = sessionId
        self.theme = theme
        (frame, outputFrame, at, endsAt) = (time.frame, time.outputFrame, time.at, time.endsAt)
    }
}

/// `session.ended`: the journal record, and why it could not be written when it could not (it is recovered later).
public struct SessionEnded: Codable, Sendable, Equatable {
    public var sessionId: String
    public var record: SessionRecord
    public var journalError: ProtocolError?

    public init(sessionId: String, record: SessionRecord, journalError: ProtocolError?) {
        self.sessionId = sessionId
        self.record = record
        self.journalError = journalError
    }
}

/// `xrun`: the output underran.
public struct Xrun: Codable, Sendable, Equatable {
    public var sessionId: String
    /// Underruns so far.
    public var count: Int
    public var at: String

    public init(sessionId: String, count: Int, at: String) {
        self.sessionId = sessionId
        self.count = count
        self.at = at
    }
}

/// `device.error`: the output failed; the session ends as `interrupted`.
public struct DeviceFailed: Codable, Sendable, Equatable {
    public var sessionId: String
    public var error: ProtocolError

    public init(sessionId: String, error: ProtocolError) {
        self.sessionId = sessionId
        self.error = error
    }
}
