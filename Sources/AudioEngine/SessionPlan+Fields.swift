extension SessionPlan {
    /// Who names a field: each front end speaks its own names (`--spacing` on the command line, `strikeSpacing` in the
    /// protocol), in its options, its messages and its help.
    public enum FrontEnd: Sendable {
        /// `enso plan|render|play`: `--option`.
        case cli
        /// `enso serve`'s JSON requests: the camelCase key.
        case `protocol`
    }

    /// How a field's value is written by a front end.
    public enum ValueKind: Sendable, Equatable {
        /// Seconds: a number (also in the CLI).
        case seconds
        /// Seconds: a number in the protocol, a duration (`20m`, `1h30m`, `90s`) on the command line.
        case duration
        /// Seconds of each sitting, several: an array of numbers in the protocol, a comma-separated list of
        /// durations on the command line.
        case durations
        /// A linear gain 0…1.
        case gain
        /// A whole number.
        case count
        /// An asset id or a sound file path (`none` for no ambient); never empty (``AssetName``).
        case asset
        /// `once`, `forever`, a count N, or `until=HH:MM[:SS]` (``SessionPlan/Repeat/parse(_:)``).
        case repeatMode
    }

    /// A field's value as a front end gave it (after its own syntax: a duration, a JSON number), or as the plan
    /// holds it.
    public enum Value: Sendable, Equatable {
        case number(Double)
        case count(Int)
        case text(String)
        case numbers([Double])
        case repeatMode(Repeat)
        /// Not set (no ambient, no interval bell).
        case none
    }

    /// One row of the table of plan fields: its names per front end, its kind, range and help; how it is stored
    /// and read. The CLI's parsing and help, the protocol's decoding and its plan echo, and every validation message
    /// come from these rows.
    public struct FieldSpec: Sendable {
        public let field: Field
        /// The CLI option, without `--`.
        public let option: String
        /// The protocol key.
        public let key: String
        public let kind: ValueKind
        /// One sentence for help and docs, without range or default.
        public let summary: String
        /// The accepted values as people read them (`0.5...15 s`), `nil` when any is (ids, files).
        public let rangeText: String?
        let store: @Sendable (inout RawValues, Value) -> Void
        let read: @Sendable (SessionPlan) -> Value

        /// The field's name for `frontEnd`: `--spacing` or `strikeSpacing`.
        public func name(_ frontEnd: FrontEnd) -> String { frontEnd == .cli ? "--" + option : key }

        /// Puts a front end's value into `raw` (checked later by ``SessionPlan/validated(_:)``).
        public func set(_ value: Value, in raw: inout RawValues) { store(&raw, value) }

        /// The field's value in `plan`.
        public func value(in plan: SessionPlan) -> Value { read(plan) }

        /// The value of a plan with nothing given (for the interval bell's settings, as they apply once an interval
        /// is given).
        public var defaultValue: Value {
            var plan = SessionPlan()
            if field != .interval && field != .intervalAt { plan.interval = SessionPlan.intervalRange.lowerBound }
            return read(plan)
        }
    }

    /// The plan fields, in documentation order. Front ends read this table; adding a field is one row here (and its
    /// storage in ``SessionPlan`` and ``RawValues``).
    public static let fields: [FieldSpec] = [
        row(
            .sitting, "sit", "sitting", .duration, "Sitting per cycle.", "1 s ... 24 h (86400 s)",
            store: { $0.sitting = $1.number }, read: { .number($0.sitting) }),
        row(
            .bell, "bell", "bell", .asset, "The bell: an asset id or a sound file.", nil,
            store: { $0.bell = $1.text }, read: { .text($0.bell) }),
        row(
            .strikes, "strikes", "strikes", .count, "Strikes per group.", range(strikesRange),
            store: { $0.strikes = $1.count }, read: { .count($0.strikes) }),
        row(
            .strikeSpacing, "spacing", "strikeSpacing", .seconds, "Seconds between the strikes of a group.",
            range(strikeSpacingRange, " s"), store: { $0.strikeSpacing = $1.number },
            read: { .number($0.strikeSpacing) }),
        row(
            .breath, "breath", "breath", .seconds, "Pause after a transition group before the next cycle.",
            range(breathRange, " s"), store: { $0.breath = $1.number }, read: { .number($0.breath) }),
        row(
            .repeatCount, "repeat", "repeat", .repeatMode,
            "once, N cycles, forever, or until=HH:MM[:SS]: the next such local clock time within 24 h.",
            "N: " + range(timesRange) + "; until: at least one strike group + 10 s ahead",
            store: { $0.repeatMode = $1.repeatMode }, read: { .repeatMode($0.repeatMode) }),
        row(
            .ambient, "ambient", "ambient", .asset, "The ambient theme: an asset id, a sound file, or none.", nil,
            store: { $0.ambient = $1.text }, read: { .text($0.ambient ?? AssetName.silence) }),
        row(
            .ambientVolume, "ambient-volume", "ambientVolume", .gain, "Ambient gain.", range(volumeRange),
            store: { $0.ambientVolume = $1.number }, read: { .number($0.ambientVolume) }),
        row(
            .bellVolume, "bell-volume", "bellVolume", .gain, "Bell gain.", range(volumeRange),
            store: { $0.bellVolume = $1.number }, read: { .number($0.bellVolume) }),
        row(
            .masterVolume, "volume", "volume", .gain, "Master gain.", range(volumeRange),
            store: { $0.masterVolume = $1.number }, read: { .number($0.masterVolume) }),
        row(
            .fadeIn, "fade-in", "fadeIn", .seconds, "Ambient fade-in at the start.", range(fadeRange, " s"),
            store: { $0.fadeIn = $1.number }, read: { .number($0.fadeIn) }),
        row(
            .fadeOut, "fade-out", "fadeOut", .seconds, "Ambient fade-out after the last strike.",
            range(fadeRange, " s"),
            store: { $0.fadeOut = $1.number }, read: { .number($0.fadeOut) }),
        row(
            .interval, "interval", "interval", .duration, "An interval bell every this long of each sitting.",
            range(intervalRange, " s"), store: { $0.interval = $1.number },
            read: { $0.interval.map { .number($0) } ?? .none }),
        row(
            .intervalAt, "interval-at", "intervalAt", .durations,
            "Interval bells at these times of each sitting (at most \(maximumIntervalTimes)).",
            range(intervalRange, " s"),
            store: { $0.intervalAt = $1.numbers }, read: { $0.intervalAt.isEmpty ? .none : .numbers($0.intervalAt) }),
        row(
            .intervalBell, "interval-bell", "intervalBell", .asset, "The interval bell (default: the session's bell).",
            nil, store: { $0.intervalBell = $1.text },
            read: { $0.hasIntervals ? $0.intervalBell.map { .text($0) } ?? .none : .none }),
        row(
            .intervalStrikes, "interval-strikes", "intervalStrikes", .count,
            "Strikes of each interval bell, spaced like the groups.", range(strikesRange),
            store: { $0.intervalStrikes = $1.count }, read: { $0.hasIntervals ? .count($0.intervalStrikes) : .none }),
        row(
            .intervalVolume, "interval-volume", "intervalVolume", .gain,
            "The interval bell's gain on top of the bell gain.",
            range(volumeRange), store: { $0.intervalVolume = $1.number },
            read: { $0.hasIntervals ? .number($0.intervalVolume) : .none }),
    ]

    // MARK: - Live settings

    /// A setting of a change made while a session plays, beside the plan's fields: a theme change's crossfade and a
    /// volume change's ramp. Each front end names it its own way (``option`` on the command line, ``key`` in the
    /// protocol's `set`) and checks it against ``range``; the engine applies ``defaultValue`` when none is given
    /// (``SessionEngine/setTheme(_:crossfadeFrames:)``, ``SessionEngine/setVolume(_:_:rampFrames:)``). The gains a
    /// `set` changes are the plan's volume fields, in ``volumeRange``.
    public struct LiveSetting: Sendable {
        /// The CLI option, without `--` (`nil`: the command line does not set it).
        public let option: String?
        /// The protocol key, a field of `set`.
        public let key: String
        /// The accepted values, seconds.
        public let range: ClosedRange<Double>
        /// The value when none is given, seconds.
        public let defaultValue: Double

        /// The range as people read it: `0.05...60 s`.
        public var rangeText: String { SessionPlan.range(range, " s") }
        /// The default as people read it: `3 s`.
        public var defaultText: String { SessionPlan.formatted(defaultValue) + " s" }
    }

    /// The crossfade of a theme change (`--theme-crossfade` of a `--theme-at` change, `crossfade` of `set`):
    /// 0.05...60 s, default 3 s.
    ///
    /// Shorter than 50 ms, a switch between two unrelated textures is heard as a click, not a fade (the engine's
    /// 20 ms de-click ramp only keeps it from stepping); longer than a minute, a change of theme becomes a slow
    /// drift that a sitting's own fade-in and fade-out (``fadeRange``) are for.
    public static let themeCrossfade = LiveSetting(
        option: "theme-crossfade", key: "crossfade", range: 0.05...60, defaultValue: 3)

    /// The ramp of a volume change (`ramp` of `set`): 0...60 s, default 0.05 s, linear.
    ///
    /// 50 ms by default: heard as immediate, yet long enough that the gain step carries no zipper noise; 0 takes
    /// the engine's de-click ramp.
    public static let volumeRamp = LiveSetting(option: nil, key: "ramp", range: 0...60, defaultValue: 0.05)

    /// The row of `field`.
    public static func spec(_ field: Field) -> FieldSpec {
        guard let row = fields.first(where: { $0.field == field }) else { preconditionFailure("\(field) has no row") }
        return row
    }

    private static func row(
        _ field: Field, _ option: String, _ key: String, _ kind: ValueKind, _ summary: String, _ rangeText: String?,
        store: @escaping @Sendable (inout RawValues, Value) -> Void, read: @escaping @Sendable (SessionPlan) -> Value
    ) -> FieldSpec {
        FieldSpec(
            field: field, option: option, key: key, kind: kind, summary: summary, rangeText: rangeText, store: store,
            read: read)
    }

    static func range<T: Numeric & Comparable & Sendable>(_ r: ClosedRange<T>, _ unit: String = "") -> String {
        func text(_ v: T) -> String {
            if let d = v as? Double { return formatted(d) }
            return "\(v)"
        }
        return "\(text(r.lowerBound))...\(text(r.upperBound))\(unit)"
    }
}

extension SessionPlan.Value {
    var number: Double? { if case .number(let v) = self { v } else { nil } }
    var count: Int? { if case .count(let v) = self { v } else { nil } }
    var text: String? { if case .text(let v) = self { v } else { nil } }
    var numbers: [Double]? { if case .numbers(let v) = self { v } else { nil } }
    var repeatMode: SessionPlan.Repeat? { if case .repeatMode(let v) = self { v } else { nil } }
}

extension SessionPlan.Repeat {
    /// Parses the one spelling of a repeat mode, the CLI's and the protocol's alike: `once`, `forever`, a count `N`,
    /// or `until=H:MM[:SS]` (hours and minutes of one or two digits, as ``ClockTime/init(parsing:)``).
    ///
    /// - Throws: ``PlanValidationError`` for `repeat` saying which spellings there are.
    public static func parse(_ text: String) throws(PlanValidationError) -> SessionPlan.Repeat {
        switch text {
        case "once": return .once
        case "forever": return .untilStopped
        default: break
        }
        if text.hasPrefix("until=") {
            let clock = String(text.dropFirst("until=".count))
            guard let t = ClockTime(parsing: clock) else {
                throw PlanValidationError(
                    field: .repeatCount,
                    problem: "'\(clock.prefix(64))' is not a clock time (until=HH:MM or until=HH:MM:SS)")
            }
            return .until(t)
        }
        guard let n = Int(text) else {
            throw PlanValidationError(
                field: .repeatCount, problem: "'\(text.prefix(64))' is not once, forever, a count or until=HH:MM[:SS]")
        }
        return .times(n)
    }
}
