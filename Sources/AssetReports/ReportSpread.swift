import AssetPipeline
import AudioDSP
import Foundation

/// A set's spread (issue #45): how far apart, for a listener at matched loudness, the candidates worth keeping are
/// from each other, as a matrix of their likeness distances in page order, and in words: how many distinct sounds
/// they are and how close the two nearest distinct ones lie. A set of near-copies shows as bright blocks along the
/// diagonal; a varied set is dark away from it. The bell report draws its `keep` and `fix` candidates, the loop
/// report its loops that do not fail.
enum ReportSpread {
    /// At most this many candidates are drawn (the first in page order, the best first): past it a pixel per pair
    /// stops being readable, and the set's first candidates are the ones a curator keeps.
    static let limit = 150
    /// Distances from 0 to this (JNDs) are shaded, brightest at 0; farther ones are dark. Four JNDs: a difference
    /// every listener hears at once.
    static let range = 4.0

    /// The section for the candidates worth keeping, in page order, or "" when fewer than two are given.
    ///
    /// - Parameters:
    ///   - kept: for each, its label on the page (`#3`), its signature and its near-duplicate group (the page's
    ///     groups, ``ReportGroups``: counted, never found again).
    ///   - noun: what they are, plural ("candidates worth keeping").
    static func section(_ kept: [(label: String, signature: LikenessSignature, group: Int)], noun: String) -> String {
        let shown = Array(kept.prefix(limit))
        guard shown.count >= 2 else { return "" }
        let n = shown.count
        var distance = [Double](repeating: 0, count: n * n)
        for a in 0..<n {
            for b in (a + 1)..<n {
                let d = LikenessDistance(shown[a].signature, shown[b].signature).distance
                (distance[a * n + b], distance[b * n + a]) = (d, d)
            }
        }
        let distinct = Set(shown.map(\.group)).count
        // The nearest two candidates of different groups: how close the set's distinct sounds come.
        var nearest: (Double, Int, Int)?
        for a in 0..<n {
            for b in (a + 1)..<n where shown[a].group != shown[b].group {
                if nearest == nil || distance[a * n + b] < nearest!.0 { nearest = (distance[a * n + b], a, b) }
            }
        }
        let pixels = distance.map { d in UInt8(max(0, min(255, (1 - d / range) * 255))) }
        let png = Data(LoopReport.PNG.encode(width: n, height: n, pixels: pixels, palette: LoopReport.palette))
        var s = "<h2 id=\"spread\">The kept set's spread</h2>\n<p>"
        s += "\(n) \(noun)"
        s += kept.count > n ? " (the first \(n) of \(kept.count))" : ""
        s += ": <b>\(distinct) distinct sound\(distinct == 1 ? "" : "s")</b>"
        if let (d, a, b) = nearest {
            s += "; the two nearest distinct ones, \(shown[a].label) and \(shown[b].label), "
            s += "lie \(ReportPage.number(d, digits: 1)) JND apart"
        }
        s += ".</p>\n<img class=\"spread-matrix\" width=\"\(n)\" height=\"\(n)\" alt=\"likeness distances between "
        s += "the \(n) \(ReportPage.escape(noun)), in page order: bright is alike, dark is \(Int(range)) JND or more "
        s += "apart\" src=\"data:image/png;base64,\(png.base64EncodedString())\">\n"
        s += "<p class=\"muted\">Row and column i are the i-th of them in page order; a pixel is "
        s += "the likeness distance of two at matched loudness (docs/similarity.md): bright at 0, dark "
        s += "from \(Int(range)) JND. Bright squares on the diagonal are near-copies; a set of distinct sounds is "
        s += "dark away from it.</p>\n"
        return s
    }
}

extension BellReport {
    /// The bell page's spread: its `keep` and `fix` candidates with a signature, in rank order.
    static func spread(_ candidates: [Card], signatures: [LikenessSignature?], groups: ReportGroups) -> String {
        let kept = candidates.indices.compactMap { i -> (label: String, signature: LikenessSignature, group: Int)? in
            guard candidates[i].verdict == .keep || candidates[i].verdict == .fix, let s = signatures[i] else {
                return nil
            }
            return (groups.items[i].label, s, groups.group[i])
        }
        return ReportSpread.section(kept, noun: "candidates worth keeping")
    }
}
