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

        /// The CLI spelling, as written back in `session.started` and `status`.
        public var text: String {
            switch self {
            case .once: "once"
            case .times(let n): String(n)
            case .untilStopped: "forever"
            case .until(let h, let m, let s):
                "until=" + [h, m, s].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
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
    public var json: JSONValue {
        var o: [String: JSONValue] = ["sitting": .number(sitting)]
        if let bell { o["bell"] = .string(bell) }
        if let strikes { o["strikes"] = .number(Double(strikes)) }
        if let strikeSpacing { o["strikeSpacing"] = .number(strikeSpacing) }
        if let breath { o["breath"] = .number(breath) }
        if let repetition { o["repeat"] = .string(repetition.text) }
        if let ambient { o["ambient"] = .string(ambient) }
        if let ambientVolume { o["ambientVolume"] = .number(ambientVolume) }
        if let bellVolume { o["bellVolume"] = .number(bellVolume) }
        if let volume { o["volume"] = .number(volume) }
        if let fadeIn { o["fadeIn"] = .number(fadeIn) }
        if let fadeOut { o["fadeOut"] = .number(fadeOut) }
        if let stopBell { o["stopBell"] = .bool(stopBell) }
        if let seamFix { o["seamFix"] = .bool(seamFix) }
        return .object(o)
    }
}
