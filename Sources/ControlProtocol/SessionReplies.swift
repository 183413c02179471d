import AudioCore

/// The reply to `start`: the `session.started` event's fields, written flat beside the sitting planned and the load
/// warnings (as ``TimedEvent`` writes its time beside its fields), so the two messages cannot drift apart.
public struct StartReply: Codable, Sendable, Equatable {
    /// The `session.started` event of this start: the plan as started (every field resolved), `startsAt`, `endsAt`
    /// (`null` when open-ended), the closing bell's `endFrame` and the `sampleRate`.
    public var started: SessionStarted
    /// Seconds of sitting planned up to the closing bell (`null` when open-ended).
    @Nullable public var plannedSeconds: Double?
    /// The request's fields `start` does not know, sorted (``PlanFields/ignoredFields``): ignored, listed so that a
    /// typo shows, as in ``SetReply``.
    public var ignoredFields: [String]
    /// Present when an ambient's loop seam was crossfaded at load.
    public var warnings: [String]?

    public init(
        _ started: SessionStarted, plannedSeconds: Double?, ignoredFields: [String] = [], warnings: [String]?
    ) {
        self.started = started
        self.plannedSeconds = plannedSeconds
        self.ignoredFields = ignoredFields
        self.warnings = warnings
    }

    enum CodingKeys: String, CodingKey { case plannedSeconds, ignoredFields, warnings }

    public init(from decoder: any Decoder) throws {
        started = try SessionStarted(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _plannedSeconds = try c.decode(Nullable<Double>.self, forKey: .plannedSeconds)
        ignoredFields = try c.decodeIfPresent([String].self, forKey: .ignoredFields) ?? []
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings)
    }

    public func encode(to encoder: any Encoder) throws {
        try started.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(_plannedSeconds, forKey: .plannedSeconds)
        try c.encode(ignoredFields, forKey: .ignoredFields)
        try c.encodeIfPresent(warnings, forKey: .warnings)
    }
}

/// The reply to `pause`, `resume`, `stop` and `strike`: the session acted on.
public struct SessionReply: Codable, Sendable, Equatable {
    public var sessionId: String

    public init(sessionId: String) { self.sessionId = sessionId }
}

/// The reply to `set`.
public struct SetReply: Codable, Sendable, Equatable {
    public var sessionId: String
    /// The request's fields `set` does not know, sorted: ignored, listed so that a typo shows.
    public var ignoredFields: [String]
    /// Present when the new theme's loop seam was crossfaded at load.
    public var warnings: [String]?

    public init(sessionId: String, ignoredFields: [String], warnings: [String]?) {
        self.sessionId = sessionId
        self.ignoredFields = ignoredFields
        self.warnings = warnings
    }
}

/// The reply to `subscribe` and `unsubscribe`: the connection's subscription, in documentation order.
public struct SubscriptionReply: Codable, Sendable, Equatable {
    public var events: [EventKind]

    public init(_ subscriptions: Set<EventKind>) { events = EventKind.all.filter { subscriptions.contains($0) } }
}

/// The reply to `shutdown`.
public struct ShutdownReply: Codable, Sendable, Equatable {
    /// Whether a session was playing (it is stopped and journaled as `stopped`).
    public var stopping: Bool

    public init(stopping: Bool) { self.stopping = stopping }
}
