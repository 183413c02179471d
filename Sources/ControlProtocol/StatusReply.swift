import AudioCore

/// The reply to `status`: `{state, paused, output, now}`, and with a session the ``SessionStatus`` fields beside
/// them (in the same object).
public struct StatusReply: Codable, Sendable, Equatable {
    /// `idle`, `playing`, `paused`, or `stopping` (closing group and fade after `stop` or the last cycle).
    public var state: String
    /// True from the `pause` request on.
    public var paused: Bool
    /// The output the sound goes to.
    public var output: String
    /// The server's clock when the reply was made.
    public var now: String
    /// The session's state; `nil` when idle.
    public var session: SessionStatus?

    public init(state: String, paused: Bool, output: String, now: String, session: SessionStatus?) {
        self.state = state
        self.paused = paused
        self.output = output
        self.now = now
        self.session = session
    }

    private enum CodingKeys: String, CodingKey { case state, paused, output, now }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        state = try c.decode(String.self, forKey: .state)
        paused = try c.decode(Bool.self, forKey: .paused)
        output = try c.decode(String.self, forKey: .output)
        now = try c.decode(String.self, forKey: .now)
        session = state == "idle" ? nil : try SessionStatus(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(state, forKey: .state)
        try c.encode(paused, forKey: .paused)
        try c.encode(output, forKey: .output)
        try c.encode(now, forKey: .now)
        try session?.encode(to: encoder)
    }
}

/// The fields `status` adds while a session plays (docs/protocol.md, "status").
public struct SessionStatus: Codable, Sendable, Equatable {
    /// The next timeline event: `kind` as in `enso plan --json`, `strike` for strikes only, `at` `null` while paused,
    /// `group` `"interval"` for an interval bell's strike (absent otherwise, as in `enso plan --json`).
    public struct NextEvent: Codable, Sendable, Equatable {
        public var kind: String
        public var frame: Int64
        public var cycle: Int
        public var strike: Int?
        @Nullable public var at: String?
        public var group: String?

        public init(kind: String, frame: Int64, cycle: Int, strike: Int?, at: String?, group: String? = nil) {
            self.kind = kind
            self.frame = frame
            self.cycle = cycle
            self.strike = strike
            self.at = at
            self.group = group
        }
    }

    public var sessionId: String
    /// The plan as started.
    public var plan: PlanFields
    public var sampleRate: Int
    /// The current theme (`null`: silence).
    @Nullable public var theme: String?
    /// The gains as last set: the plan's until a `set`, then the target of any ramp in progress.
    public var volume: Double
    public var ambientVolume: Double
    public var bellVolume: Double
    /// The session clock (sat time, pauses excluded), in frames and seconds.
    public var positionFrames: Int64
    public var positionSeconds: Double
    /// Frames rendered so far (pauses included).
    public var outputFrame: Int64
    public var startsAt: String
    /// When the closing bell's first strike is heard; `null` while paused, closing, or open-ended.
    @Nullable public var endsAt: String?
    /// The closing bell's session frame and the sitting left (`null` when open-ended).
    @Nullable public var endFrame: Int64?
    @Nullable public var remainingSeconds: Double?
    public var satSeconds: Double
    public var cycle: Int
    public var cyclesCompleted: Int
    @Nullable public var nextEvent: NextEvent?
    /// The next strike of the plan: when it is heard (`null` while paused), its group and its session frame; all
    /// `null` after a `stop` or when no strike is left.
    @Nullable public var nextBellAt: String?
    @Nullable public var nextBellGroup: String?
    @Nullable public var nextBellFrame: Int64?
    /// Whether the published times are final (the output clock has settled).
    public var clockSettled: Bool
    /// Output underruns so far.
    public var xruns: Int

    public init(
        sessionId: String, plan: PlanFields, sampleRate: Int, theme: String?,
        volumes: (master: Double, ambient: Double, bell: Double), positionFrames: Int64, positionSeconds: Double,
        outputFrame: Int64, startsAt: String, endsAt: String?, endFrame: Int64?, remainingSeconds: Double?,
        satSeconds: Double, cycle: Int, cyclesCompleted: Int, nextEvent: NextEvent?,
        nextBell: (at: String?, group: String, frame: Int64)?, clockSettled: Bool, xruns: Int
    ) {
        self.sessionId = sessionId
        self.plan = plan
        self.sampleRate = sampleRate
        self.theme = theme
        volume = volumes.master
        ambientVolume = volumes.ambient
        bellVolume = volumes.bell
        self.positionFrames = positionFrames
        self.positionSeconds = positionSeconds
        self.outputFrame = outputFrame
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.endFrame = endFrame
        self.remainingSeconds = remainingSeconds
        self.satSeconds = satSeconds
        self.cycle = cycle
        self.cyclesCompleted = cyclesCompleted
        self.nextEvent = nextEvent
        nextBellAt = nextBell?.at
        nextBellGroup = nextBell?.group
        nextBellFrame = nextBell?.frame
        self.clockSettled = clockSettled
        self.xruns = xruns
    }
}
