import AudioCore
import JSONText

extension SessionPlan {
    /// Raw, unchecked plan values as a front end received them. `nil` means "not given: keep the default".
    ///
    /// Durations are seconds. Both front ends fill this through the table of plan fields (``SessionPlan/fields``)
    /// and then call ``SessionPlan/validated(_:)``, so the two reject the same input for the same reason, each
    /// naming the field its own way (``PlanValidationError/message(_:)``).
    public struct RawValues: Sendable, Hashable {
        public var sitting: Double?
        public var bell: String?
        public var strikes: Int?
        public var strikeSpacing: Double?
        public var breath: Double?
        /// The ambient theme id; `"none"` selects no ambient (``AssetName``; an empty string is refused).
        public var ambient: String?
        public var ambientVolume: Double?
        public var bellVolume: Double?
        public var masterVolume: Double?
        public var fadeIn: Double?
        public var fadeOut: Double?
        /// The repeat count for ``SessionPlan/Repeat/times(_:)``; ignored when ``repeatMode`` is set.
        public var times: Int?
        /// The repeat mode; a `.times(n)` here is range-checked like ``times``.
        public var repeatMode: Repeat?
        /// Interval bells every this many seconds of each sitting.
        public var interval: Double?
        /// Interval bells at these seconds of each sitting.
        public var intervalAt: [Double]?
        /// The interval bell's asset id (`nil`: the session bell).
        public var intervalBell: String?
        public var intervalStrikes: Int?
        public var intervalVolume: Double?

        public init(
            sitting: Double? = nil, bell: String? = nil, strikes: Int? = nil, strikeSpacing: Double? = nil,
            breath: Double? = nil, ambient: String? = nil, ambientVolume: Double? = nil,
            bellVolume: Double? = nil, masterVolume: Double? = nil, fadeIn: Double? = nil,
            fadeOut: Double? = nil, times: Int? = nil, repeatMode: Repeat? = nil
        ) {
            self.sitting = sitting
            self.bell = bell
            self.strikes = strikes
            self.strikeSpacing = strikeSpacing
            self.breath = breath
            self.ambient = ambient
            self.ambientVolume = ambientVolume
            self.bellVolume = bellVolume
            self.masterVolume = masterVolume
            self.fadeIn = fadeIn
            self.fadeOut = fadeOut
            self.times = times
            self.repeatMode = repeatMode
        }
    }

    /// A plan built from raw front-end values, rejecting (never clamping) anything out of range.
    ///
    /// Fields not given keep the defaults of ``init()``. The check order is the field order of
    /// ``RawValues``; the first bad field throws.
    ///
    ///     let plan = try SessionPlan.validated(.init(sitting: 1200, strikes: 3))
    ///
    /// - Parameter raw: the values as received.
    /// - Returns: a plan holding exactly those values.
    /// - Throws: ``PlanValidationError`` naming the field, the value and its range (for example
    ///   `"strikes 4 is outside 1...3"`, `"sitting 0 s is outside 1 s ... 24 h (86400 s)"`, `"bell is empty: …"`:
    ///   an empty asset name, ``AssetName/Refusal``).
    public static func validated(_ raw: RawValues) throws(PlanValidationError) -> SessionPlan {
        var plan = SessionPlan()
        if let v = raw.sitting {
            try check(v, sittingRange, .sitting, unit: " s", rangeText: spec(.sitting).rangeText)
            plan.sitting = v
        }
        if let b = raw.bell {
            plan.bell = try asset(.bell) { () throws(AssetName.Refusal) in try AssetName.bell(b) }
        }
        if let k = raw.strikes { try check(k, strikesRange, .strikes); plan.strikes = k }
        if let v = raw.strikeSpacing {
            try check(v, strikeSpacingRange, .strikeSpacing, unit: " s"); plan.strikeSpacing = v
        }
        if let v = raw.breath { try check(v, breathRange, .breath, unit: " s"); plan.breath = v }
        if let a = raw.ambient {
            plan.ambient = try asset(.ambient) { () throws(AssetName.Refusal) in try AssetName.theme(a) }
        }
        if let v = raw.ambientVolume { try check(v, volumeRange, .ambientVolume); plan.ambientVolume = v }
        if let v = raw.bellVolume { try check(v, volumeRange, .bellVolume); plan.bellVolume = v }
        if let v = raw.masterVolume { try check(v, volumeRange, .masterVolume); plan.masterVolume = v }
        if let v = raw.fadeIn { try check(v, fadeRange, .fadeIn, unit: " s"); plan.fadeIn = v }
        if let v = raw.fadeOut { try check(v, fadeRange, .fadeOut, unit: " s"); plan.fadeOut = v }
        // Across fields: a sitting shorter than its strike group interleaves the opening and closing groups
        // (`--sit 5` with 3 strikes 3 s apart rang 1, 2, 1, 3, 2, 3).
        let shortest = plan.shortestSitting
        if plan.sitting < shortest {
            let k = plan.strikes
            throw PlanValidationError(
                field: .sitting,
                problem: "\(formatted(plan.sitting)) s is shorter than its strike group (\(k) strikes "
                    + "\(formatted(plan.strikeSpacing)) s apart span \(formatted(Double(k - 1) * plan.strikeSpacing)) s); "
                    + "the shortest sitting those strikes allow is \(formatted(shortest)) s")
        }
        if let v = raw.interval {
            try check(v, intervalRange, .interval, unit: " s")
            plan.interval = v
        }
        if let times = raw.intervalAt {
            guard raw.interval == nil else {
                throw PlanValidationError(field: .intervalAt, problem: "cannot be given with", other: .interval)
            }
            guard times.count <= maximumIntervalTimes else {
                throw PlanValidationError(
                    field: .intervalAt, problem: "lists \(times.count) times; at most \(maximumIntervalTimes)")
            }
            for t in times { try check(t, intervalRange, .intervalAt, unit: " s") }
            plan.intervalAt = times
        }
        if let b = raw.intervalBell {
            plan.intervalBell = try asset(.intervalBell) { () throws(AssetName.Refusal) in try AssetName.bell(b) }
        }
        if let k = raw.intervalStrikes { try check(k, strikesRange, .intervalStrikes); plan.intervalStrikes = k }
        if let v = raw.intervalVolume { try check(v, volumeRange, .intervalVolume); plan.intervalVolume = v }
        var mode = raw.repeatMode
        if mode == nil, let n = raw.times { mode = .times(n) }
        if let m = mode {
            if case .times(let n) = m { try check(n, timesRange, .repeatCount) }
            plan.repeatMode = m
        }
        return plan
    }

    /// An asset name read by ``AssetName``, its refusal named as `field`.
    private static func asset<T>(
        _ field: Field, _ read: () throws(AssetName.Refusal) -> T
    ) throws(PlanValidationError) -> T {
        do { return try read() } catch { throw PlanValidationError(field: field, problem: error.problem) }
    }

    private static func check(
        _ v: Double, _ range: ClosedRange<Double>, _ field: Field, unit: String = "", rangeText: String? = nil
    ) throws(PlanValidationError) {
        guard v.isFinite, range.contains(v) else {
            let shown = formatted(v)
            let r = rangeText ?? SessionPlan.range(range, unit)
            throw PlanValidationError(field: field, problem: "\(shown)\(unit) is outside \(r)")
        }
    }

    private static func check(_ k: Int, _ range: ClosedRange<Int>, _ field: Field) throws(PlanValidationError) {
        guard range.contains(k) else {
            throw PlanValidationError(field: field, problem: "\(k) is outside \(SessionPlan.range(range))")
        }
    }

    /// The shortest sitting this plan's strike group allows, seconds: `k·s` (the group's span `(k - 1)·s` plus one
    /// spacing), so the closing group's first strike comes at least a spacing after the opening group's last; for
    /// one strike, the shortest sitting of all (1 s).
    public var shortestSitting: Double {
        strikes < 2 ? Self.sittingRange.lowerBound : max(Self.sittingRange.lowerBound, Double(strikes) * strikeSpacing)
    }

    /// A number as messages write it (`3`, `0.5`, `9e+15`: ``NumberText/plain(_:)``).
    static func formatted(_ v: Double) -> String { NumberText.plain(v) }
}
