import AudioEngine

/// The session plan of a `start` or `plan` request: the plan's fields as sent, and the protocol's own switches.
///
/// The plan's fields (`sitting`, `strikes`, `repeat`…) are kept as the request gave them: the service reads them
/// through the table of plan fields (`AudioEngine.SessionPlan.fields`), the table the CLI reads its options
/// through, so both front ends accept the same values, with the same ranges and messages, each under its own names.
/// Unknown fields are ignored there as everywhere. Encoded, this is the plan object itself (`{"sitting":1200,…}`).
public struct PlanFields: Sendable, Equatable {
    /// The request's members other than `id`, `command`, `stopBell` and `seamFix`.
    public var values: [String: JSONValue]
    /// `stopBell`: whether `stop` rings the closing group (default true).
    public var stopBell: Bool?
    /// `seamFix`: whether an ambient whose loop seam fails verification is crossfaded at load (default true;
    /// `false` plays the file as it is). The reply's `warnings` says when a seam was fixed.
    public var seamFix: Bool?
    /// Fields of the request that no plan field, switch or `themeAt` names, and members of a `themeAt` element
    /// other than ``themeAtElementFields`` by their path (`themeAt[0].crosfade`), sorted: ignored, and listed in
    /// `start`'s reply so that a typo (`ambientVolme`) shows, as `set`'s does. Not part of the plan's JSON.
    public var ignoredFields: [String] = []

    /// The names a `start` or `plan` request may carry besides the plan fields' keys (``SessionPlan/fields``).
    public static let otherFields: Set<String> = ["id", "command", "stopBell", "seamFix", themeAtKey]
    /// The plan key of the scheduled themes, the protocol's name for `--theme-at`.
    public static let themeAtKey = "themeAt"
    /// The members of one `themeAt` element: when (seconds from the start), which theme, and the crossfade to it.
    public enum ThemeAtMember: String, CaseIterable, Sendable { case at, theme, crossfade }
    /// The names of ``ThemeAtMember``.
    public static let themeAtElementFields = Set(ThemeAtMember.allCases.map(\.rawValue))

    public init(values: [String: JSONValue] = [:], stopBell: Bool? = nil, seamFix: Bool? = nil) {
        self.values = values
        self.stopBell = stopBell
        self.seamFix = seamFix
    }

    /// Reads the plan of `request`.
    ///
    /// - Throws: `invalid-field` when `stopBell` or `seamFix` is not a Boolean.
    public init(_ request: Request) throws(ProtocolError) {
        stopBell = try request.bool("stopBell")
        seamFix = try request.bool("seamFix")
        values = request.fields.filter { !["id", "command", "stopBell", "seamFix"].contains($0.key) }
        let known = Self.otherFields.union(SessionPlan.fields.map(\.key))
        var ignored = request.fields.keys.filter { !known.contains($0) }
        // Inside `themeAt` too: a typo there (`crosfade`) silently took the default.
        for (i, item) in (request.value(Self.themeAtKey)?.arrayValue ?? []).enumerated() {
            for key in (item.objectValue ?? [:]).keys where !Self.themeAtElementFields.contains(key) {
                ignored.append("\(Self.themeAtKey)[\(i)].\(key)")
            }
        }
        ignoredFields = ignored.sorted()
    }

    /// The plan as a JSON object with the request's field names.
    public var json: JSONValue { MessageEncoder.value(self) }
}

extension PlanFields: Codable {
    public init(from decoder: any Decoder) throws {
        var values = try [String: JSONValue](from: decoder)
        stopBell = values.removeValue(forKey: "stopBell")?.boolValue
        seamFix = values.removeValue(forKey: "seamFix")?.boolValue
        self.values = values
    }

    public func encode(to encoder: any Encoder) throws {
        var o = values
        if let stopBell { o["stopBell"] = .bool(stopBell) }
        if let seamFix { o["seamFix"] = .bool(seamFix) }
        try JSONValue.object(o).encode(to: encoder)
    }
}
