/// One threshold of a judgment rule: the measured quantity, its unit, the limit, which side of it the rule fires on,
/// and a probe that builds measures with the quantity at a chosen value (everything else a clean bell, a clean loop).
///
/// A rule carries its thresholds as values so that the docs, the checks and the tests can walk them (essentia's
/// `declareParameter`): `JudgmentRuleTests` evaluates every rule of every registry just under, at and just over each
/// of its thresholds through the probe, with no audio, and fails on a rule whose outcome does not change there as
/// the threshold says. A rule added without a threshold or a probe fails that test.
public struct RuleThreshold<Measures>: Sendable {
    /// The measured quantity, as the metrics name it (`clipRuns`, `loudness.truePeak`).
    public var quantity: String
    /// The unit of the quantity and the limit (`dBTP`, `s`, `runs`, `% of full scale`).
    public var unit: String
    /// The limit.
    public var limit: Double
    /// Whether values above the limit fire the rule (else values below it do).
    public var firesAbove: Bool
    /// Whether the limit itself fires the rule (`≥`/`≤` rather than `>`/`<`).
    public var inclusive: Bool
    /// The smallest change of the quantity the test steps by on either side of the limit (1 for counts and flags).
    public var step: Double
    /// Whether the probe places the quantity exactly at the limit; false where the quantity is derived from the
    /// probe's value in floating point (then only the two sides of the limit are tested).
    public var exact: Bool
    /// Measures whose `quantity` is the given value and whose other measures reach this rule and pass every other.
    public var probe: @Sendable (Double) -> Measures

    public init(
        _ quantity: String, _ unit: String, limit: Double, firesAbove: Bool, inclusive: Bool = false,
        step: Double, exact: Bool = true, probe: @escaping @Sendable (Double) -> Measures
    ) {
        self.exact = exact
        self.quantity = quantity
        self.unit = unit
        self.limit = limit
        self.firesAbove = firesAbove
        self.inclusive = inclusive
        self.step = step
        self.probe = probe
    }

    /// The values a test evaluates the rule at: one step under the limit, the limit (when ``exact``), one step over.
    public var probedValues: [Double] { exact ? [limit - step, limit, limit + step] : [limit - step, limit + step] }

    /// Whether `value` is on the firing side of the limit.
    public func fires(_ value: Double) -> Bool {
        if value == limit { return inclusive }
        return firesAbove ? value > limit : value < limit
    }
}
