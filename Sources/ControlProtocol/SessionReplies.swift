import AudioCore

/// The reply to `start`: the `session.started` event's fields, the sitting planned, and load warnings.
public struct StartReply: Codable, Sendable, Equatable {
    public var sessionId: String
    /// The plan as started, every field resolved (defaults included).
    public var plan: PlanFields
    public var startsAt: String
    /// When the closing bell's first strike is heard (`null` when open-ended).
    @Nullable public var endsAt: String?
    /// The closing bell's session frame (`null` when open-ended).
    @Nullable public var endFrame: Int64?
    public var sampleRate: Int
    /// Seconds of sitting planned up to the closing bell (`null` when open-ended).
    @Nullable public var plannedSeconds: Double?
    /// Present when an ambient's loop seam was crossfaded at load.
    public var warnings: [String]?

    public init(_ started: SessionStarted, plannedSeconds: Double?, warnings: [String]?) {
        sessionId = started.sessionId
        plan = started.plan
        startsAt = started.startsAt
        endsAt = started.endsAt
        endFrame = started.endFrame
        sampleRate = started.sampleRate
        self.plannedSeconds = plannedSeconds
        self.warnings = warnings
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
