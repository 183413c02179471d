import AudioDSP
import Foundation

/// One seam metric's pass/warn/fail rule as a value: what it measures and in what unit, which way it gets worse, its
/// two limits, what it needs to be measured, its principle in one sentence, and the pure function from a measure
/// (``SeamMetrics/Measure``) to the judged metric with its evidence in words.
///
/// ``SeamRules`` lists them; `JudgmentRuleTests` judges each on hand-built measures on both sides of both limits,
/// and `JudgmentDocsTests` checks docs/loops.md's table against their rows.
public struct SeamRule: Sendable {
    /// The limits one measure is judged against: pass up to `pass`, warn up to `fail`, fail beyond (the other way
    /// round for a lower-is-worse metric).
    public typealias Limits = (pass: Double, fail: Double)

    public var name: SeamMetrics.Name
    /// The unit of the value and the limits ("ratio", "dB", "%", "fraction").
    public var unit: String
    /// Which way the value gets worse.
    public var direction: SeamRules.Direction
    /// The fixed limits (the level's lowest: they rise with the file's own steps, ``limitsOf``).
    public var pass: Double
    public var fail: Double
    /// What the value is (docs/loops.md's "value" column).
    public var value: String
    /// The pass and fail cells of the docs table, when they say more than the fixed limits (the level's rise with
    /// the file's own steps; the DC offset's never failing).
    public var passCell: String?
    public var failCell: String?
    /// What the metric needs to be measured at all.
    public var needs: String
    /// Why, in one sentence a listener would accept.
    public var principle: String
    /// Evidence typical of the metric, which the probes of ``thresholds`` carry (with limits at the fixed ones).
    var typical: SeamMetrics.Evidence
    /// The limits a measure with this evidence is judged against; by default the fixed ones.
    var limitsOf: @Sendable (SeamMetrics.Evidence) -> Limits
    /// What was measured, in words: from the value, its evidence, the limits it was judged against and the period of
    /// the loop's own pattern when its places set the reference (``SeamMetrics/Measure/pattern``).
    var says: @Sendable (Double, SeamMetrics.Evidence, Limits, Double?) -> String

    init(
        _ name: SeamMetrics.Name, unit: String, direction: SeamRules.Direction = .higherIsWorse, pass: Double,
        fail: Double, value: String, passCell: String? = nil, failCell: String? = nil, needs: String,
        principle: String, typical: SeamMetrics.Evidence,
        limitsOf: (@Sendable (SeamMetrics.Evidence) -> Limits)? = nil,
        says: @escaping @Sendable (Double, SeamMetrics.Evidence, Limits, Double?) -> String
    ) {
        (self.name, self.unit, self.direction, self.pass, self.fail) = (name, unit, direction, pass, fail)
        (self.value, self.passCell, self.failCell, self.needs, self.principle) = (
            value, passCell, failCell, needs, principle
        )
        self.typical = typical
        self.limitsOf = limitsOf ?? { _ in (pass, fail) }
        self.says = says
    }

    /// The fixed limits with the direction and unit.
    public var limits: (pass: Double, fail: Double, direction: SeamRules.Direction, unit: String) {
        (pass, fail, direction, unit)
    }

    /// The status of `value` against `pass` and `fail`: past `fail` it fails, past `pass` it warns, else it passes
    /// ("past" is above for a higher-is-worse metric, below for a lower-is-worse one; a limit itself is not past).
    public static func status(
        of value: Double, pass: Double, fail: Double, direction: SeamRules.Direction
    ) -> SeamRules.Status {
        let past: (Double, Double) -> Bool = direction == .higherIsWorse ? { $0 > $1 } : { $0 < $1 }
        return past(value, fail) ? .fail : past(value, pass) ? .warn : .pass
    }

    /// The judged metric of `measure` (which must be this rule's metric): its value against its limits, its status
    /// and its sentence; or, when it was not measured, why, and whether the loop or the material was the cause.
    public func judge(_ measure: SeamMetrics.Measure) -> SeamRules.Metric {
        precondition(measure.name == name, "the \(measure.name.rawValue) measure judged by the \(name.rawValue) rule")
        switch measure.reading {
        case .value(let v, let evidence):
            let l = limitsOf(evidence)
            return SeamRules.Metric(
                name: name, value: v, threshold: l.pass, failThreshold: l.fail, direction: direction, unit: unit,
                note: says(v, evidence, l, measure.pattern))
        case .unmeasured(let cause):
            return notMeasured(because: SeamRules.because(cause), by: cause.byLoop ? .loop : .material)
        }
    }

    /// This metric, not measured, and why.
    func notMeasured(because: String, by cause: SeamRules.Unmeasured) -> SeamRules.Metric {
        .notMeasured(
            name, threshold: pass, failThreshold: fail, direction: direction, unit: unit, because: because, by: cause)
    }

    /// Its two limits, each probed on both sides with the ``typical`` evidence: past `pass` it warns (or fails), past
    /// `fail` it fails.
    public var thresholds: [RuleThreshold<SeamMetrics.Measure>] {
        let worseAbove = direction == .higherIsWorse
        let (name, typical) = (name, typical)
        let probe: @Sendable (Double) -> SeamMetrics.Measure = { SeamMetrics.Measure(name, .value($0, typical)) }
        // A step well under the limits' precision (they have two decimals) and over a Double's rounding of them.
        return [
            RuleThreshold(
                "\(name.rawValue) (warn)", unit, limit: pass, firesAbove: worseAbove, step: 1e-6, probe: probe),
            RuleThreshold(
                "\(name.rawValue) (fail)", unit, limit: fail, firesAbove: worseAbove, step: 1e-6, probe: probe),
        ]
    }

    /// The docs table's row: `| # | name | value | pass ≤ | fail > | needs | why |`.
    func docsRow(_ number: Int) -> String {
        let lower = direction == .lowerIsWorse
        let passText = passCell ?? (lower ? "≥ " : "") + BellDefectRules.limit(pass)
        let failText = failCell ?? (lower ? "< " : "") + BellDefectRules.limit(fail)
        return "| \(number) | `\(name.rawValue)` | \(value) | \(passText) | \(failText) | \(needs) | \(principle) |"
    }
}
