/// The session plan of a `start` request, checked for types only.
///
/// Field names and units are the CLI's plan options in camelCase with seconds as numbers (`--sit 20m` is
/// `"sitting": 1200`). Ranges are checked by the service with the engine's own plan validation, so the
/// protocol, the CLI and the engine share one set of limits and one wording. Absent fields take the
/// engine's defaults.
public struct PlanFields: Sendable, Equatable {
    /// How the session repeats (`"repeat"`): `"once"`, `"forever"`, a count `N` or `"N"`, or `"until=HH:MM[:SS]"`.
    public enum Repeat: Sendable, Equatable {
        case once
        case times(Int)
        case untilStopped
        /// A local clock time of day.
        case until(hour: Int, minute: Int, second: Int)

        /// Parses the CLI spelling (`once`, `forever`, `N`, `until=HH:MM[:SS]`).
        public static func parse(_ text: String) -> Repeat? {
            switch text {
            case "once": return .once
            case "forever", "untilStopped": return .untilStopped
            default: break
            }
            if let n = Int(text) { return .times(n) }
            guard text.hasPrefix("until=") else { return nil }
            let parts = text.dropFirst("until=".count).split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 }) else { return nil }
            guard let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m) else {
                return nil
            }
            let s = parts.count == 3 ? Int(parts[2]) : 0
            guard let s, (0...59).contains(s) else { return nil }
            return .until(hour: h, minute: m, second: s)
        }

        /// The CLI spelling, as written back in `session.started` and `status` (seconds only when not zero).
        public var text: String {
            switch self {
            case .once: "once"
            case .times(let n): String(n)
            case .untilStopped: "forever"
            case .until(let h, let m, let s):
                "until=" + (s == 0 ? [h, m] : [h, m, s]).map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
            }
        }
    }

    /// `sitting`: seconds per cycle (required).
    public var sitting: Double
    /// `bell`: a bundled bell id or a sound file path.
    public var bell: String?
    /// `strikes`: strikes per group.
    public var strikes: Int?
    /// `strikeSpacing`: seconds between strikes of a group.
    public var strikeSpacing: Double?
    /// `breath`: seconds of pause between cycles.
    public var breath: Double?
    /// `repeat`.
    public var repetition: Repeat?
    /// `ambient`: a theme id, a sound file path, or `"none"`.
    public var ambient: String?
    /// `ambientVolume`, `bellVolume`, `volume` (master): gains.
    public var ambientVolume: Double?
    public var bellVolume: Double?
    public var volume: Double?
    /// `fadeIn`, `fadeOut`: ambient fade seconds.
    public var fadeIn: Double?
    public var fadeOut: Double?
    /// `stopBell`: whether `stop` rings the closing group (default true).
    public var stopBell: Bool?
    /// `seamFix`: whether an ambient whose loop seam fails verification is crossfaded at load (default true;
    /// `false` plays the file as it is). The reply's `warnings` says when a seam was fixed.
    public var seamFix: Bool?

    public init(sitting: Double) { self.sitting = sitting }

    /// The plan field names, in documentation order.
    public static let fieldNames = [
        "sitting", "bell", "strikes", "strikeSpacing", "breath", "repeat", "ambient", "ambientVolume",
        "bellVolume", "volume", "fadeIn", "fadeOut", "stopBell", "seamFix",
    ]

    /// Reads the plan fields of `request`.
    ///
    /// - Throws: `invalid-field` naming the field when one has the wrong type, `sitting` is missing, or
    ///   `repeat` is not one of its spellings.
    public init(_ request: Request) throws(ProtocolError) {
        guard let sitting = try request.number("sitting", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        else { throw .invalidField("sitting", "is required (seconds per cycle)") }
        self.sitting = sitting
        bell = try request.string("bell")
        if let v = request.value("strikes") {
            guard case .number(let n) = v, n == n.rounded(), abs(n) < 1e9 else {
                throw .invalidField("strikes", "must be a whole number, not \(v.typeName)")
            }
            strikes = Int(n)
        }
        strikeSpacing = try Self.number(request, "strikeSpacing")
        breath = try Self.number(request, "breath")
        if let v = request.value("repeat") {
            switch v {
            case .number(let n) where n == n.rounded() && abs(n) < 1e9: repetition = .times(Int(n))
            case .string(let s):
                guard let r = Repeat.parse(s) else {
                    throw .invalidField("repeat", "'\(s)' is not once, forever, a count or until=HH:MM[:SS]")
                }
                repetition = r
            default:
                throw .invalidField("repeat", "must be once, forever, a count or until=HH:MM[:SS], not \(v.typeName)")
            }
        }
        ambient = try request.string("ambient")
        ambientVolume = try Self.number(request, "ambientVolume")
        bellVolume = try Self.number(request, "bellVolume")
        volume = try Self.number(request, "volume")
        fadeIn = try Self.number(request, "fadeIn")
        fadeOut = try Self.number(request, "fadeOut")
        stopBell = try request.bool("stopBell")
        seamFix = try request.bool("seamFix")
    }

    private static func number(_ request: Request, _ name: String) throws(ProtocolError) -> Double? {
        try request.number(name, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    }

    /// The plan as a JSON object with the request's field names (absent fields left out).
    public var json: JSONValue { MessageEncoder.value(self) }
}

extension PlanFields: Codable {
    private enum CodingKeys: String, CodingKey {
        case sitting, bell, strikes, strikeSpacing, breath, repetition = "repeat", ambient, ambientVolume, bellVolume
        case volume, fadeIn, fadeOut, stopBell, seamFix
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sitting = try c.decode(Double.self, forKey: .sitting)
        bell = try c.decodeIfPresent(String.self, forKey: .bell)
        strikes = try c.decodeIfPresent(Int.self, forKey: .strikes)
        strikeSpacing = try c.decodeIfPresent(Double.self, forKey: .strikeSpacing)
        breath = try c.decodeIfPresent(Double.self, forKey: .breath)
        if let n = try? c.decodeIfPresent(Int.self, forKey: .repetition) {
            repetition = .times(n)
        } else if let text = try c.decodeIfPresent(String.self, forKey: .repetition) {
            guard let r = Repeat.parse(text) else {
                throw DecodingError.dataCorruptedError(forKey: .repetition, in: c, debugDescription: "not a repeat mode")
            }
            repetition = r
        }
        ambient = try c.decodeIfPresent(String.self, forKey: .ambient)
        ambientVolume = try c.decodeIfPresent(Double.self, forKey: .ambientVolume)
        bellVolume = try c.decodeIfPresent(Double.self, forKey: .bellVolume)
        volume = try c.decodeIfPresent(Double.self, forKey: .volume)
        fadeIn = try c.decodeIfPresent(Double.self, forKey: .fadeIn)
        fadeOut = try c.decodeIfPresent(Double.self, forKey: .fadeOut)
        stopBell = try c.decodeIfPresent(Bool.self, forKey: .stopBell)
        seamFix = try c.decodeIfPresent(Bool.self, forKey: .seamFix)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sitting, forKey: .sitting)
        try c.encodeIfPresent(bell, forKey: .bell)
        try c.encodeIfPresent(strikes, forKey: .strikes)
        try c.encodeIfPresent(strikeSpacing, forKey: .strikeSpacing)
        try c.encodeIfPresent(breath, forKey: .breath)
        try c.encodeIfPresent(repetition?.text, forKey: .repetition)
        try c.encodeIfPresent(ambient, forKey: .ambient)
        try c.encodeIfPresent(ambientVolume, forKey: .ambientVolume)
        try c.encodeIfPresent(bellVolume, forKey: .bellVolume)
        try c.encodeIfPresent(volume, forKey: .volume)
        try c.encodeIfPresent(fadeIn, forKey: .fadeIn)
        try c.encodeIfPresent(fadeOut, forKey: .fadeOut)
        try c.encodeIfPresent(stopBell, forKey: .stopBell)
        try c.encodeIfPresent(seamFix, forKey: .seamFix)
    }
}
