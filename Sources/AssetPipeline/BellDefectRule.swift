import Foundation

/// One kind of bell defect as a value: what it measures, its thresholds, its severity, the command that mends it,
/// its principle in one sentence (docs/bells.md's "why"), and the pure function from the measures to the defect with
/// its evidence. ``BellDefectRules`` lists them; ``BellDefect/detect(_:)`` walks that list.
public struct BellDefectRule: Sendable {
    /// What the rule finds in one candidate: a defect, or a note worth a listen that is no defect.
    public enum Finding: Sendable, Equatable {
        case defect(BellDefect)
        case note(String)

        /// The defect, when the finding is one.
        public var defect: BellDefect? {
            if case .defect(let d) = self { return d }
            return nil
        }
    }

    /// What the rules read: the audition's metrics, and the samples that are not numbers (counted before the metrics
    /// are measured, with those samples set to 0).
    public struct Measures: Sendable, Equatable {
        public var metrics: BellAuditionMetrics
        /// NaN or infinite samples in the file.
        public var nonFiniteSamples: Int
        /// When the first of them comes (s).
        public var firstNonFinite: Double?

        public init(_ metrics: BellAuditionMetrics, nonFiniteSamples: Int = 0, firstNonFinite: Double? = nil) {
            self.metrics = metrics
            self.nonFiniteSamples = nonFiniteSamples
            self.firstNonFinite = firstNonFinite
        }

        /// A clean, bell-like candidate (``BellAuditionMetrics/reference``) with `change` applied: the measures the
        /// rules' probes start from.
        static func probe(_ change: (inout BellAuditionMetrics) -> Void) -> Measures {
            var m = BellAuditionMetrics.reference
            change(&m)
            return Measures(m)
        }
    }

    /// A row of the docs table besides the rule's own: a finding of the rule that is no defect (a note).
    public struct NoteRow: Sendable {
        public var when: String
        public var why: String
    }

    public var kind: BellDefect.Kind
    /// `reject`: the recording itself is spoilt; `fixable`: ``fix`` mends it.
    public var severity: BellDefect.Severity
    /// The command that mends a fixable defect (`enso bells normalize IN OUT`); nil for a reject.
    public var fix: String?
    /// The commands a defect of this rule carries instead of ``fix`` when the file decides which (the channel to use
    /// or to invert); ``fix`` then says it in general (docs/bells.md's table).
    public var fixes: [String] = []
    /// When it is a defect, in the words of docs/bells.md's table (markdown).
    public var when: String
    /// Why, in one sentence a listener would accept (docs/bells.md's table).
    public var principle: String
    /// A finding of the rule that is a note rather than a defect, when it has one.
    public var note: NoteRow?
    /// Its thresholds, each with a probe on both sides of it (`JudgmentRuleTests`).
    public var thresholds: [RuleThreshold<Measures>]
    /// The defect, or a note, that the measures show; nil when they show neither.
    public var judge: @Sendable (Measures) -> Finding?

    /// The docs table's rows for this rule: `| kind | severity | when | why |` (a fixable one's why ends with its fix),
    /// then its note's row.
    public var docsRows: [String] {
        let why = fix.map { "\(principle); `\($0)`" } ?? principle
        var rows = ["| `\(kind.rawValue)` | \(severity.rawValue) | \(when) | \(why) |"]
        if let note { rows.append("| (note) | – | \(note.when) | \(note.why) |") }
        return rows
    }
}
