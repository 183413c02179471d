import AudioCore
import AudioDSP
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
    /// The file's near-duplicate group in the batch (``grouped(_:)``): files a listener comparing them at matched
    /// loudness would not tell apart share one (docs/similarity.md). Groups are numbered from 1 in rank order (group
    /// 1 holds the best-ranked file); 0 before grouping.
    public var group: Int = 0
    /// The file's place in its group in rank order: 1 for the best of the group (the one `--unique` keeps).
    public var groupRank: Int = 0
    /// The likeness signature the group was found from (``LikenessSignature``, measured from the audition's own
    /// analysis, rounded by ``LikenessSignature/rounded()``), so rows written apart (shards) can be grouped again
    /// with the very figures the batch grouped: `null` for an `error` row.
    @Nullable public var likeness: LikenessSignature?

    enum CodingKeys: String, CodingKey {
        case file, bellClass = "class", verdict, defects, defectDetails, score, scoreTerms, reasons, notes, metrics,
            error, rank, group, groupRank, likeness
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

    /// Makes the row a `reject` because the pack it was judged for would refuse it (``BellAudition/judgeForPack(_:decoded:)``):
    /// no score, and each of the pack's reasons first, as "pack CHECK: evidence", since they decided the verdict.
    public mutating func refuseForPack(_ refusals: [String]) {
        verdict = .reject
        score = nil
        scoreTerms = []
        reasons = refusals.map { "pack " + $0 } + reasons
    }

    /// Whether this candidate is worth keeping (``BellAuditionVerdict/passes``).
    public var passes: Bool { verdict.passes }

    /// Rank order: keep, fix, listen, reject, error; higher score first within a verdict (to ``scoreResolution``);
    /// then file name. Each row gets its `rank`, then its near-duplicate `group` and `groupRank` (``grouped(_:)``).
    public static func ranked(_ results: [BellAuditionResult]) -> [BellAuditionResult] {
        var sorted = results.sorted { ranksBefore(($0.verdict, $0.score, $0.file), ($1.verdict, $1.score, $1.file)) }
        for i in sorted.indices { sorted[i].rank = i + 1 }
        return grouped(sorted)
    }

    /// Scores that round to the same hundredth are equal in rank: copies of one sound at other gains or rates
    /// score alike but for the last digits of the arithmetic (75.017847 and 75.017848), and a rank drawn from those
    /// digits is no judgment (the −3 dB copy ranked before the untouched file). Equal scores rank by file name.
    public static let scoreResolution = 0.01

    /// The rank order of two rows by their `verdict`, `score` and `file`: keep, fix, listen, reject, error; higher
    /// score first within a verdict (to ``scoreResolution``); then file name. The one rule: ``ranked(_:)`` sorts by
    /// it, and so does `bells rank`, which holds only these keys of each row.
    public static func ranksBefore(
        _ a: (verdict: BellAuditionVerdict, score: Double?, file: String),
        _ b: (verdict: BellAuditionVerdict, score: Double?, file: String)
    ) -> Bool {
        if a.verdict != b.verdict { return a.verdict.rank < b.verdict.rank }
        func step(_ score: Double?) -> Double { ((score ?? -1) / scoreResolution).rounded() }
        if step(a.score) != step(b.score) { return step(a.score) > step(b.score) }
        return a.file < b.file
    }

    /// `rows` (in rank order) with `group` and `groupRank` set from their `likeness` (``LikenessGroups``): the
    /// union of near-duplicate pairs, numbered in rank order, each group's first row its best (`groupRank` 1). A row
    /// without a signature (an `error`) is a group of its own. Rows from several runs (shards' JSON rows, decoded)
    /// group exactly as one run would once ranked together: ``ranked(_:)`` calls this.
    public static func grouped(_ rows: [BellAuditionResult]) -> [BellAuditionResult] {
        var out = rows
        for (i, g) in LikenessGroups.group(rows.map(\.likeness)).enumerated() {
            (out[i].group, out[i].groupRank) = (g.group, g.groupRank)
        }
        return out
    }

    /// Only the best of each near-duplicate group (`groupRank` 1), in the order given (`--unique`).
    public static func unique(_ rows: [BellAuditionResult]) -> [BellAuditionResult] {
        rows.filter { $0.groupRank == 1 }
    }
}
