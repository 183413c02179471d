import AssetPipeline
import Foundation

extension BellReport {
    /// What the report shows of one audition result: verdict, class, score and its terms (none for a reject),
    /// defects with severity and fix, reasons, notes, and the headline measurements.
    struct Card {
        var rank: Int
        var file: String
        var verdict: BellAuditionVerdict
        var bellClass: String?
        var score: Double?
        var terms: [BellScore.Term]
        var defects: [BellDefect]
        var reasons: [String]
        var notes: [String]
        var error: String?
        var loudness: Double?
        var truePeak: Double?
        var decay40: Double?
        var t20: Double?
        var attack: Double?
        var duration: Double?
        /// The file's integrated loudness as a listener hears it played (a mono file on both speakers).
        var playedLoudness: Double?

        init(_ r: BellAuditionResult) {
            rank = r.rank
            file = r.file
            verdict = r.verdict
            bellClass = r.bellClass?.rawValue
            score = r.score
            terms = r.scoreTerms
            defects = r.defectDetails.sorted { $0.severity > $1.severity }
            // The defects are listed once, with severity and fix, above the reasons: drop their lines from the reasons.
            let defectLines = Set(r.defectDetails.map { "\($0.severity.rawValue) \($0.kind.rawValue): \($0.evidence)" })
            reasons = r.reasons.filter { !defectLines.contains($0) }
            notes = r.notes
            error = r.error?.message
            loudness = r.metrics?.loudness.integrated
            truePeak = r.metrics?.loudness.truePeak
            decay40 = r.metrics?.decay40
            t20 = r.metrics?.t20
            attack = r.metrics?.attack
            duration = r.metrics?.duration
            playedLoudness = r.metrics.flatMap {
                ReportAudio.asPlayed(integrated: $0.loudness.integrated, channels: $0.channels)
            }
        }

        /// Whether the card carries a headline score: not for a reject or an error.
        var scored: Bool { score != nil && verdict != .reject && verdict != .error }
    }
}
