import Foundation

/// The observable state of a server (``StateProperty``), as `status` reads it: what `observe` replies with and
/// `state.changed` carries, the session's id beside it.
///
/// Idle, `state` is `idle`, `paused` false and every other property `null`.
public struct ObservedState: Codable, Sendable, Equatable {
    /// The session (`null` when idle).
    @Nullable public var sessionId: String?
    public var state: String
    public var paused: Bool
    @Nullable public var theme: String?
    @Nullable public var volume: Double?
    @Nullable public var ambientVolume: Double?
    @Nullable public var bellVolume: Double?
    @Nullable public var endsAt: String?
    @Nullable public var nextBellAt: String?
    @Nullable public var nextBellGroup: String?
    @Nullable public var clockSettled: Bool?

    /// The state of a server playing nothing.
    public static let idle = ObservedState(state: "idle", paused: false)

    public init(
        sessionId: String? = nil, state: String, paused: Bool, theme: String? = nil,
        volumes: (master: Double, ambient: Double, bell: Double)? = nil, endsAt: String? = nil,
        nextBellAt: String? = nil, nextBellGroup: String? = nil, clockSettled: Bool? = nil
    ) {
        self.sessionId = sessionId
        self.state = state
        self.paused = paused
        self.theme = theme
        volume = volumes?.master
        ambientVolume = volumes?.ambient
        bellVolume = volumes?.bell
        self.endsAt = endsAt
        self.nextBellAt = nextBellAt
        self.nextBellGroup = nextBellGroup
        self.clockSettled = clockSettled
    }

    /// Times closer than this are the same time to an observer: the output clock itself treats readings within
    /// 10 ms of its estimate as jitter of one latency (AudioDevice's `ClockEstimator.jumpThreshold`), and no
    /// countdown a person reads resolves it. A time that drifts (a DAC running slow, the clock settling) is sent
    /// again once it has moved this far from the value last sent.
    public static let timeTolerance = 0.010

    /// The value of `property` as JSON (`null` when it has none). Built by hand, not through an encoder: the
    /// server compares the state a few times a second.
    public func value(of property: StateProperty) -> JSONValue {
        func text(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
        func number(_ n: Double?) -> JSONValue { n.map { .number($0) } ?? .null }
        switch property {
        case .state: return .string(state)
        case .paused: return .bool(paused)
        case .theme: return text(theme)
        case .volume: return number(volume)
        case .ambientVolume: return number(ambientVolume)
        case .bellVolume: return number(bellVolume)
        case .endsAt: return text(endsAt)
        case .nextBellAt: return text(nextBellAt)
        case .nextBellGroup: return text(nextBellGroup)
        case .clockSettled: return clockSettled.map { .bool($0) } ?? .null
        default: return .null
        }
    }

    /// `self` with the value of `property` taken from `other`.
    mutating func take(_ property: StateProperty, from other: ObservedState) {
        switch property {
        case .state: state = other.state
        case .paused: paused = other.paused
        case .theme: theme = other.theme
        case .volume: volume = other.volume
        case .ambientVolume: ambientVolume = other.ambientVolume
        case .bellVolume: bellVolume = other.bellVolume
        case .endsAt: endsAt = other.endsAt
        case .nextBellAt: nextBellAt = other.nextBellAt
        case .nextBellGroup: nextBellGroup = other.nextBellGroup
        case .clockSettled: clockSettled = other.clockSettled
        default: break
        }
    }

    /// Whether `property` has another value in `other`: times that differ by less than ``timeTolerance`` are the
    /// same.
    func differs(in property: StateProperty, from other: ObservedState) -> Bool {
        let (x, y) = (value(of: property), other.value(of: property))
        guard property.isTime, let s = x.stringValue.flatMap(ProtocolTime.parse),
            let t = y.stringValue.flatMap(ProtocolTime.parse)
        else { return x != y }
        return abs(s.timeIntervalSince(t)) >= Self.timeTolerance
    }
}

/// Some properties of an ``ObservedState`` with the session's id, written flat into the message that holds them
/// (`{"sessionId":…, "volume":0.3, "endsAt":…}`): an observer gets the properties it observes and no others.
public struct ObservedValues: Sendable, Equatable {
    /// The properties written, in documentation order.
    public var properties: [StateProperty]
    /// Their values (the others are not written).
    public var state: ObservedState

    public init(_ properties: some Sequence<StateProperty>, of state: ObservedState) {
        let set = Set(properties)
        self.properties = StateProperty.all.filter { set.contains($0) }
        self.state = state
    }

    /// Equal when they write the same members (the values of properties not written do not count).
    public static func == (a: ObservedValues, b: ObservedValues) -> Bool { a.members == b.members }

    /// The JSON members: `sessionId` and each property's value.
    var members: [String: JSONValue] {
        var o: [String: JSONValue] = ["sessionId": state.sessionId.map { .string($0) } ?? .null]
        for p in properties { o[p.rawValue] = state.value(of: p) }
        return o
    }

    /// Reads the members of `object` that name properties (the others keep their idle values).
    init(members object: [String: JSONValue]) throws {
        var o = MessageEncoder.value(ObservedState.idle).objectValue ?? [:]
        properties = StateProperty.all.filter { object[$0.rawValue] != nil }
        for (k, v) in object where o[k] != nil { o[k] = v }
        state = try JSONValue.object(o).decode(ObservedState.self)
    }

    /// Decodes a message made of a list of properties under `key` and these values beside it.
    static func decode(_ key: String, from decoder: any Decoder) throws -> ([StateProperty], ObservedValues) {
        var o = try [String: JSONValue](from: decoder)
        let list = try (o.removeValue(forKey: key) ?? .array([])).decode([StateProperty].self)
        return (list, try ObservedValues(members: o))
    }

    /// Encodes these values with `list` under `key` beside them.
    func encode(_ list: [StateProperty], as key: String, to encoder: any Encoder) throws {
        var o = members
        o[key] = .array(list.map { .string($0.rawValue) })
        try JSONValue.object(o).encode(to: encoder)
    }
}

/// The reply to `observe` and `unobserve`: the properties this connection observes and their values as last
/// sent to observers (every later change comes as `state.changed`), with the session's id.
public struct ObserveReply: Codable, Sendable, Equatable {
    /// The connection's observed properties, in documentation order.
    public var observing: [StateProperty]
    public var values: ObservedValues

    public init(observing: Set<StateProperty>, state: ObservedState) {
        values = ObservedValues(observing, of: state)
        self.observing = values.properties
    }

    public init(from decoder: any Decoder) throws {
        (observing, values) = try ObservedValues.decode("observing", from: decoder)
    }

    public func encode(to encoder: any Encoder) throws { try values.encode(observing, as: "observing", to: encoder) }
}

/// `state.changed`: observed properties changed (`changed`, in documentation order), with the new values of every
/// property the client observes and the session's id.
///
/// The server makes one with every property (``StateReporter``); each connection is sent the part it observes
/// (``narrowed(to:)``).
public struct StateChanged: Codable, Sendable, Equatable {
    public var changed: [StateProperty]
    public var values: ObservedValues

    public init(changed: [StateProperty], state: ObservedState, observed: some Sequence<StateProperty>) {
        let set = Set(changed)
        self.changed = StateProperty.all.filter { set.contains($0) }
        values = ObservedValues(observed, of: state)
    }

    /// The event for a connection observing `observed`: only its properties, `nil` when none of them changed.
    public func narrowed(to observed: Set<StateProperty>) -> StateChanged? {
        let mine = changed.filter { observed.contains($0) }
        guard !mine.isEmpty else { return nil }
        return StateChanged(changed: mine, state: values.state, observed: observed)
    }

    public init(from decoder: any Decoder) throws {
        (changed, values) = try ObservedValues.decode("changed", from: decoder)
    }

    public func encode(to encoder: any Encoder) throws { try values.encode(changed, as: "changed", to: encoder) }
}
