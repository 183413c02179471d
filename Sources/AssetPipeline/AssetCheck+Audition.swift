import AudioFile
import Foundation

extension AssetCheck {
    /// The audition profile a bell of the pack is judged with (named next to its score in every report).
    public static let auditionProfile: BellProfile = .bowl

    /// The verdict of `enso bells audition` (``BellAudition``, its analysis of the bell) on a bell of the pack: it must be `keep` (classed
    /// bell-like with no defect at all, fixable ones included), as the bundled bells are.
    static func auditionChecks(_ entry: AssetPack.Entry, _ analysis: BellAnalysis) -> [Finding] {
        let result = analysis.result
        let verdict = Finding(
            check: "bell-audition", status: result.verdict == .keep ? .pass : .fail,
            message: "\(entry.file): \(result.verdict.rawValue), \(result.bellClass?.rawValue ?? "no class"), "
                + (result.score.map { "score \(Int($0.rounded()))" } ?? "no score")
                + " (profile \(auditionProfile.name))"
                + (result.reasons.isEmpty ? "" : " (" + result.reasons.joined(separator: "; ") + ")"),
            value: result.score, unit: "points")
        let defects = Finding(
            check: "bell-defects", status: result.defectDetails.isEmpty ? .pass : .fail,
            message: result.defectDetails.isEmpty
                ? "\(entry.file): no defect found by the audition"
                : "\(entry.file): "
                    + result.defectDetails.map { "\($0.kind.rawValue) (\($0.severity.rawValue)): \($0.evidence)" }
                    .joined(separator: "; "))
        return [verdict, defects]
    }
}
