import AudioCore
import Foundation

/// One candidate's audition: its class, verdict, defects, score with breakdown, reasons and measurements; or the
/// error that kept it from being auditioned. Encodes as the JSON object `enso bells audition --json` prints
/// (docs/bells.md), every key present (`null` where there is no value).
public struct BellAuditionResult: Sendable, Codable {
    public var file: String
    /// What the sound is; nil only for an `error` (the file could not be measured).
    @Nullable public var bellClass: BellClass?
    public var verdict: BellAuditionVerdict
    /// Defect kinds (`"clipping"`, `"true-peak"`, …), as the JSON summary lists them.
    public var defects: [BellDefect.Kind]
    /// Every defect with severity, evidence and (fixable ones) the command that mends it.
    public var defectDetails: [BellDefect]
    /// 0…100, ranking candidates within a verdict; nil for `reject` and `error`.
    @Nullable public var score: Double?
    public var scoreTerms: [BellScore.Term]
    public var reasons: [String]
    /// Worth a listen but no defect (a cut between −40 and −50 dB re peak).
    public var notes: [String]
    @Nullable public var metrics: BellAuditionMetrics?
    /// Why the file could not be auditioned (`verdict == .error`): `{code, message, file}`, as docs/cli.md.
    @Nullable public var error: RowError?
    /// 1-based rank after sorting (0 before).
    public var rank: Int = 0

    enum CodingKeys: String, CodingKey {
        case file, bellClass = "class", verdict, defects, defectDetails, score, scoreTerms, reasons, notes, metrics,
            error, rank
    }

    public init(
        file: String, bellClass: BellClass?, defects: [BellDefect], score: BellScore?, reasons: [String],
        notes: [String] = [], metrics: BellAuditionMetrics?, error: RowError? = nil
    ) {
        self.file = file
        self.bellClass = bellClass
        self.verdict = error != nil || bellClass == nil ? .error : BellAuditionVerdict.of(bellClass!, defects: defects)
        self.defects = defects.map(\.kind)
        self.defectDetails = defects
        let scored = verdict != .reject && verdict != .error
        self.score = scored ? score?.total : nil
        self.scoreTerms = scored ? score?.terms ?? [] : []
        self.reasons = reasons
        self.notes = notes
        self.metrics = metrics
        self.error = error
    }

    /// Whether this candidate is worth keeping: `keep` or `fix` (a bell-like sound without a spoiling defect).
    public var passes: Bool { verdict == .keep || verdict == .fix }

    /// Rank order: keep, fix, listen, reject, error; higher score first within a verdict; then file name.
    public static func ranked(_ results: [BellAuditionResult]) -> [BellAuditionResult] {
        var sorted = results.sorted {
            if $0.verdict != $1.verdict { return $0.verdict.rank < $1.verdict.rank }
            if ($0.score ?? -1) != ($1.score ?? -1) { return ($0.score ?? -1) > ($1.score ?? -1) }
            return $0.file < $1.file
        }
        for i in sorted.indices { sorted[i].rank = i + 1 }
        return sorted
    }
}
