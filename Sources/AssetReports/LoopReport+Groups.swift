import AssetPipeline
import AudioDSP
import Foundation

extension LoopReport {
    /// The page's near-duplicate groups: the rows' own `group` and `groupRank` (``LoopVerifier/grouped(_:)``, or
    /// `enso loops report`'s regrouping across runs), read, never found again. A row without a group (0: results
    /// not grouped) is alone. Each loop is called by its place on the page (`#3`, its card `loop-3`).
    ///
    /// A group is a sound, not a seam: its members' verdicts may differ (a clean loop and its copy with a click). The
    /// page leads each group with its worst verdict (``reportOrder``; the rows' own order within it), so that every
    /// failure shows in the table's first rows ("failures first") and none hides behind a passing row's disclosure.
    static func groups(_ ordered: [LoopVerifier.Result]) -> ReportGroups {
        // Rows without a group get numbers of their own past every real group.
        let top = ordered.map(\.group).max() ?? 0
        let group = ordered.enumerated().map { $0.element.group > 0 ? $0.element.group : top + 1 + $0.offset }
        return ReportGroups(
            group: group,
            place: ordered.map { r in
                (reportOrder.firstIndex(of: r.verdict) ?? reportOrder.count) * (ordered.count + 1) + max(r.groupRank, 1)
            },
            signatures: ordered.map(\.likeness),
            items: ordered.enumerated().map {
                .init(label: "#\($0.offset + 1)", anchor: "loop-\($0.offset + 1)", name: name($0.element.file))
            })
    }

    /// The loop page's spread: its loops that do not fail (pass and warn), with a signature, in page order.
    static func spread(_ ordered: [LoopVerifier.Result], groups: ReportGroups) -> String {
        let kept = ordered.indices.compactMap { i -> (label: String, signature: LikenessSignature, group: Int)? in
            guard ordered[i].verdict == .pass || ordered[i].verdict == .warn, let s = ordered[i].likeness else {
                return nil
            }
            return (groups.items[i].label, s, groups.group[i])
        }
        return ReportSpread.section(kept, noun: "loops that do not fail")
    }

    /// The page order: each group's best in ``order(_:)``'s order (failures first), each followed by the others of
    /// its group.
    static func pageOrder(_ groups: ReportGroups, count: Int) -> [Int] {
        (0..<count).filter { groups.isLead($0) }.flatMap { [$0] + groups.others($0) }
    }

    static func name(_ file: String) -> String { (file as NSString).lastPathComponent }
}
