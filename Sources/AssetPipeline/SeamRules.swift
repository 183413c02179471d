import AudioDSP
import Foundation

/// One seam metric's pass/warn/fail rule as a value: what it measures and in what unit, its two limits (from
/// ``SeamMetrics/thresholds(_:)``), what it needs to be measured, its principle in one sentence, and the pure
/// function from a measured value to its status.
public struct SeamRule: Sendable {
    public var name: SeamMetrics.Name
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

    /// The fixed limits: pass up to `pass`, warn up to `fail`, fail beyond (the other way round for a lower-is-worse
    /// metric), in ``unit``.
    public var limits: (pass: Double, fail: Double, direction: SeamMetrics.Direction, unit: String) {
        SeamMetrics.thresholds(name)
    }

    /// The status a measured `value` gets against the fixed limits (the one rule ``SeamMetrics/Metric`` applies).
    public func judge(_ value: Double) -> SeamMetrics.Status {
        let t = limits
        return SeamMetrics.Metric(
            name: name, value: value, threshold: t.pass, failThreshold: t.fail, direction: t.direction, unit: t.unit,
            note: ""
        ).status
    }

    /// Its two thresholds, each probed on both sides: past `pass` it warns (or fails), past `fail` it fails.
    public var thresholds: [RuleThreshold<Double>] {
        let t = limits
        let worseAbove = t.direction == .higherIsWorse
        // A step well under the limits' precision (they have two decimals) and over a Double's rounding of them.
        return [
            RuleThreshold("\(name.rawValue) (warn)", t.unit, limit: t.pass, firesAbove: worseAbove, step: 1e-6) { $0 },
            RuleThreshold("\(name.rawValue) (fail)", t.unit, limit: t.fail, firesAbove: worseAbove, step: 1e-6) { $0 },
        ]
    }

    /// The docs table's row: `| # | name | value | pass ≤ | fail > | needs |`.
    func docsRow(_ number: Int) -> String {
        let t = limits
        let lower = t.direction == .lowerIsWorse
        let pass = passCell ?? (lower ? "≥ " : "") + BellDefectRules.limit(t.pass)
        let fail = failCell ?? (lower ? "< " : "") + BellDefectRules.limit(t.fail)
        return "| \(number) | `\(name.rawValue)` | \(value) | \(pass) | \(fail) | \(needs) |"
    }
}

/// The registry of seam rules, one per ``SeamMetrics/Name``, in the order docs/loops.md numbers them; its table is
/// their rows (`JudgmentDocsTests`), and `JudgmentRuleTests` judges each on both sides of both limits.
public enum SeamRules {
    public static let all: [SeamRule] = SeamMetrics.Name.allCases.map(rule)

    /// The rule of `name`.
    public static func rule(_ name: SeamMetrics.Name) -> SeamRule {
        let level = SeamMetrics.thresholds(.level)
        let tail = SeamMetrics.gaussianTail
        switch name {
        case .continuity:
            return SeamRule(
                name: name, value: "seam step / p99 of the loop's steps", needs: "16 frames",
                principle:
                    "a step at the wrap rarer than one ordinary junction in 300 of the loop (warn) or in 1000 (fail) is heard as a jump"
            )
        case .spectral:
            return SeamRule(
                name: name, value: "seam change / p99 of the loop's changes",
                needs: "0.1 s (20 pairs of adjacent 21 ms frames, a sixteenth of a frame apart under 0.24 s)",
                principle:
                    "a change of timbre across the seam rarer than one moment in 300 of the loop (warn) or in 1000 (fail) is heard as a splice"
            )
        case .level:
            return SeamRule(
                name: name, value: "dB",
                passCell:
                    "max(\(BellDefectRules.limit(level.pass)), \(BellDefectRules.limit(tail.warn)) × p99)",
                failCell:
                    "max(\(BellDefectRules.limit(level.fail)), \(BellDefectRules.limit(tail.fail)) × p99)",
                needs: "0.1 s (an eighth of a loop under 0.8 s)",
                principle:
                    "a level step rarer than the loop's own (one in 300, one in 1000), and never under the just-noticeable difference, is heard as a jump in loudness"
            )
        case .click:
            return SeamRule(
                name: name, value: "dB over the p99.9 window", needs: "~20 ms",
                principle: "high-band energy on the seam 6 dB over what one moment in a thousand reaches is a click")
        case .dcOffset:
            return SeamRule(
                name: name, value: "% of full scale", failCell: "never (100)", needs: "—",
                principle:
                    "starting or stopping the file steps the output by as much: a click as loud as an audible cut; a constant offset never breaks the seam itself"
            )
        case .rhythm:
            return SeamRule(
                name: name, value: "fraction (lower is worse)",
                needs: "a pulse (events at a period, a repeating texture), events at a steady pulse, or a steady pitch",
                principle: "a pulse that loses its self-similarity across the seam skips a beat at every wrap")
        case .dip:
            return SeamRule(
                name: name, value: "dB over the p99 dip",
                needs: "0.1 s (half of a loop under 0.8 s; digital silence: any length)",
                principle: "a dip at the seam deeper than the loop's own is heard as a gap or a fade")
        }
    }
}
