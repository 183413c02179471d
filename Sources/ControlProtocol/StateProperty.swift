/// A property of the server's state a client can observe (`observe`): each is a field of `status` that changes
/// while a session plays, and a `state.changed` event carries its new value (docs/protocol.md, "Observation").
public struct StateProperty: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `idle`, `playing`, `paused` or `stopping`.
    public static let state = StateProperty(rawValue: "state")
    /// True from the `pause` request on.
    public static let paused = StateProperty(rawValue: "paused")
    /// The current theme (`null`: silence or no session).
    public static let theme = StateProperty(rawValue: "theme")
    /// The master gain as last set.
    public static let volume = StateProperty(rawValue: "volume")
    /// The ambient gain as last set.
    public static let ambientVolume = StateProperty(rawValue: "ambientVolume")
    /// The bell gain as last set.
    public static let bellVolume = StateProperty(rawValue: "bellVolume")
    /// When the closing bell's first strike is heard.
    public static let endsAt = StateProperty(rawValue: "endsAt")
    /// When the next strike of the plan is heard.
    public static let nextBellAt = StateProperty(rawValue: "nextBellAt")
    /// The group of the next strike of the plan.
    public static let nextBellGroup = StateProperty(rawValue: "nextBellGroup")
    /// Whether the published times are final.
    public static let clockSettled = StateProperty(rawValue: "clockSettled")

    /// Every property, in documentation order.
    public static let all: [StateProperty] = [
        .state, .paused, .theme, .volume, .ambientVolume, .bellVolume, .endsAt, .nextBellAt, .nextBellGroup,
        .clockSettled,
    ]

    /// Whether the property is a wall-clock time (compared within ``ObservedState/timeTolerance``).
    public var isTime: Bool { self == .endsAt || self == .nextBellAt }

    public var description: String { rawValue }
}
