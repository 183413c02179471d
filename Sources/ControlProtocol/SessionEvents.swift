import AudioCore

// The event messages a session sends (docs/protocol.md, "Events"). Every one carries `sessionId`; every one with a
// `frame` is a ``TimedEvent``: its ``EventTime`` carries `outputFrame`, the time it is heard (`at`, `audibleAt` for a
// bell) and `endsAt` as of it (`null` when open-ended, paused, or after a `stop`), so a countdown can follow the
// events alone.

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
///
/// Written flat into its event's object (`frame`, `outputFrame`, `at` or a bell's `audibleAt`, `endsAt`, `null`
/// when there is none), beside the event's own fields (``TimedEvent``).
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

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads the time of an event whose heard time is under `heardKey`.
    init(from decoder: any Decoder, heardKey: String) throws {
        let c = try decoder.container(keyedBy: Key.self)
        frame = try c.decode(Int64.self, forKey: Key("frame"))
        outputFrame = try c.decode(Int64.self, forKey: Key("outputFrame"))
        at = try c.decode(String.self, forKey: Key(heardKey))
        endsAt = try c.decodeIfPresent(String.self, forKey: Key("endsAt"))
    }

    /// Writes the time into the event's object, its heard time under `heardKey`.
    func encode(to encoder: any Encoder, heardKey: String) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(frame, forKey: Key("frame"))
        try c.encode(outputFrame, forKey: Key("outputFrame"))
        try c.encode(at, forKey: Key(heardKey))
        if let endsAt { try c.encode(endsAt, forKey: Key("endsAt")) } else { try c.encodeNil(forKey: Key("endsAt")) }
    }
}

/// The fields a timed session event carries besides its ``EventTime``.
public protocol TimedEventFields: Codable, Sendable, Equatable {
    /// The key of the time it is heard: `at` (a bell's: `audibleAt`).
    static var heardKey: String { get }
}

extension TimedEventFields {
    public static var heardKey: String { "at" }
}

/// A session event that falls on a frame: its own fields and its ``EventTime``, in one flat JSON object.
public struct TimedEvent<Fields: TimedEventFields>: Codable, Sendable, Equatable {
    public var fields: Fields
    public var time: EventTime

    public init(_ fields: Fields, time: EventTime) {
        self.fields = fields
        self.time = time
    }

    public init(from decoder: any Decoder) throws {
        fields = try Fields(from: decoder)
        time = try EventTime(from: decoder, heardKey: Fields.heardKey)
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        try time.encode(to: encoder, heardKey: Fields.heardKey)
    }
}

/// `cycle.started`.
public typealias CycleStarted = TimedEvent<CycleStartedFields>

/// The fields of `cycle.started` besides its time.
public struct CycleStartedFields: TimedEventFields {
    public var sessionId: String
    public var cycle: Int
}

extension TimedEvent where Fields == CycleStartedFields {
    public init(sessionId: String, cycle: Int, time: EventTime) {
        self.init(.init(sessionId: sessionId, cycle: cycle), time: time)
    }
}

/// `bell`: a strike heard at `audibleAt`.
public typealias BellStruck = TimedEvent<BellFields>

/// The fields of `bell` besides its time.
public struct BellFields: TimedEventFields {
    public var sessionId: String
    public var cycle: Int
    /// `opening`, `transition`, `closing`, `interval`, or `manual` (a `strike` request).
    public var group: String
    /// 1…3 within its group.
    public var strike: Int

    public static var heardKey: String { "audibleAt" }
}

extension TimedEvent where Fields == BellFields {
    public init(sessionId: String, cycle: Int, group: String, strike: Int, time: EventTime) {
        self.init(.init(sessionId: sessionId, cycle: cycle, group: group, strike: strike), time: time)
    }
}

/// `breath.started`: the pause between cycles.
public typealias BreathStarted = TimedEvent<BreathFields>

/// The fields of `breath.started` besides its time.
public struct BreathFields: TimedEventFields {
    public var sessionId: String
    public var cycle: Int
    /// How long the breath lasts.
    public var seconds: Double
}

extension TimedEvent where Fields == BreathFields {
    public init(sessionId: String, cycle: Int, seconds: Double, time: EventTime) {
        self.init(.init(sessionId: sessionId, cycle: cycle, seconds: seconds), time: time)
    }
}

/// `session.paused` (`endsAt` is `null`: the countdown stops).
public typealias SessionPaused = TimedEvent<PausedFields>

/// The fields of `session.paused` besides its time.
public struct PausedFields: TimedEventFields {
    public var sessionId: String
}

extension TimedEvent where Fields == PausedFields {
    public init(sessionId: String, time: EventTime) { self.init(.init(sessionId: sessionId), time: time) }
}

/// `session.resumed`, with the new `endsAt`.
public typealias SessionResumed = TimedEvent<ResumedFields>

/// The fields of `session.resumed` besides its time.
public struct ResumedFields: TimedEventFields {
    public var sessionId: String
    /// How long the pause lasted, output time.
    public var pausedSeconds: Double
}

extension TimedEvent where Fields == ResumedFields {
    public init(sessionId: String, pausedSeconds: Double, time: EventTime) {
        self.init(.init(sessionId: sessionId, pausedSeconds: pausedSeconds), time: time)
    }
}

/// `stream.underrun`: a streamed theme ran short of decoded audio (a slow disk) and was silent for `missedFrames`
/// (it faded out over 20 ms and fades back in on `outputFrame`); the session clock and the bells did not move.
public typealias StreamUnderrun = TimedEvent<StreamUnderrunFields>

/// The fields of `stream.underrun` besides its time.
public struct StreamUnderrunFields: TimedEventFields {
    public var sessionId: String
    /// The theme id or file that fell silent.
    public var theme: String
    /// Output frames it was silent for.
    public var missedFrames: Int64
}

extension TimedEvent where Fields == StreamUnderrunFields {
    public init(sessionId: String, theme: String, missedFrames: Int64, time: EventTime) {
        self.init(.init(sessionId: sessionId, theme: theme, missedFrames: missedFrames), time: time)
    }
}

/// `theme.changed`: `frame` is the session frame the crossfade starts on.
public typealias ThemeChanged = TimedEvent<ThemeFields>

/// The fields of `theme.changed` besides its time.
public struct ThemeFields: TimedEventFields {
    public var sessionId: String
    /// The theme id or file (`null`: silence).
    @Nullable public var theme: String?
}

extension TimedEvent where Fields == ThemeFields {
    public init(sessionId: String, theme: String?, time: EventTime) {
        self.init(.init(sessionId: sessionId, theme: theme), time: time)
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
