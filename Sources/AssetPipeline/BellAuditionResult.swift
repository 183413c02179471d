import Foundation

/// One candidate's audition: its class, defects, score with breakdown, reasons and measurements; or the
/// error that kept it from being auditioned. Encodes as the JSON object `enso bells audition --json` prints.
public struct BellAuditionResult: Sendable, Codable {
    public var file: String
    public var verdict: BellAuditionVerdict
    /// Defect kinds (`"clipping"`, `"true-peak"`, …), as the JSON summary lists them.
    public var defects: [String]
    /// Every defect with severity and evidence.
    public var defectDetails: [BellDefect]
    /// 0…100; 0 for errors.
    public var score: Double
    public var scoreTerms: [BellScore.Term]
    public var reasons: [String]
    public var metrics: BellAuditionMetrics?
    /// The error message for `verdict == .error`.
    public var error: String?
    /// 1-based rank after sorting (0 before).
    public var rank: Int = 0

    public init(
        file: String, verdict: BellAuditionVerdict, defects: [BellDefect], score: BellScore?, reasons: [String],
        metrics: BellAuditionMetrics?, error: String? = nil
    ) {
        self.file = file
        self.verdict = verdict
        self.defects = defects.map(\.kind.rawValue)
        self.defectDetails = defects
        self.score = score?.total ?? 0
        self.scoreTerms = score?.terms ?? []
        self.reasons = reasons
        self.metrics = metrics
        self.error = error
    }

    /// Whether this candidate passes: bell-like.
    public var passes: Bool { verdict == .bellLike }

    /// Rank order: bell-like, notification-like, defective, error; higher score first; then file name.
    public static func ranked(_ results: [BellAuditionResult]) -> [BellAuditionResult] {
        let order: [BellAuditionVerdict: Int] = [.bellLike: 0, .notificationLike: 1, .defective: 2, .error: 3]
        var sorted = results.sorted {
            let a = order[$0.verdict]!
            let b = order[$1.verdict]!
            if a != b { return a < b }
            if $0.score != $1.score { return $0.score > $1.score }
            return $0.file < $1.file
        }
        for i in sorted.indices { sorted[i].rank = i + 1 }
        return sorted
    }
}
