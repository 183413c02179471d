import AssetPipeline
import AudioDSP
import Foundation

extension BellReport {
    /// The kept set's spread (issue #45): how far apart, for a listener at matched loudness, the candidates worth
    /// keeping (`keep` and `fix`) are from each other, as a matrix of their likeness distances in rank order, and
    /// in words: how many distinct sounds they are and how close the two nearest distinct ones lie. A set of
    /// near-copies shows as bright blocks along the diagonal; a varied set is dark away from it.
    enum Spread {
        /// At most this many candidates are drawn (the best, in rank order): past it a pixel per pair stops being
        /// readable, and the set's first candidates are the ones a curator keeps.
        static let limit = 150
        /// Distances from 0 to this (JNDs) are shaded, brightest at 0; farther ones are dark. Four JNDs: a
        /// difference every listener hears at once.
        static let range = 4.0

        /// The section, or "" when fewer than two candidates worth keeping have a signature.
        static func section(_ candidates: [Card], signatures: [LikenessSignature?]) -> String {
            let kept = candidates.indices.filter {
                (candidates[$0].verdict == .keep || candidates[$0].verdict == .fix) && signatures[$0] != nil
            }
            let shown = Array(kept.prefix(limit))
            guard shown.count >= 2 else { return "" }
            let n = shown.count
            var distance = [Double](repeating: 0, count: n * n)
            for a in 0..<n {
                for b in (a + 1)..<n {
                    let d = LikenessDistance(signatures[shown[a]]!, signatures[shown[b]]!).distance
                    (distance[a * n + b], distance[b * n + a]) = (d, d)
                }
            }
            let groups = LikenessGroups.group(shown.map { signatures[$0] })
            let distinct = Set(groups.map(\.group)).count
            // The nearest two candidates of different groups: how close the set's distinct sounds come.
            var nearest: (Double, Int, Int)?
            for a in 0..<n {
                for b in (a + 1)..<n where groups[a].group != groups[b].group {
                    if nearest == nil || distance[a * n + b] < nearest!.0 { nearest = (distance[a * n + b], a, b) }
                }
            }
            let pixels = distance.map { d in UInt8(max(0, min(255, (1 - d / range) * 255))) }
            let png = Data(LoopReport.PNG.encode(width: n, height: n, pixels: pixels, palette: LoopReport.palette))
            var s = "<h2 id=\"spread\">The kept set's spread</h2>\n<p>"
            s += "\(n) candidate\(n == 1 ? "" : "s") worth keeping"
            s += kept.count > n ? " (the best \(n) of \(kept.count))" : ""
            s += ": <b>\(distinct) distinct sound\(distinct == 1 ? "" : "s")</b>"
            if let (d, a, b) = nearest {
                s +=
                    "; the two nearest distinct ones, #\(candidates[shown[a]].rank) and #\(candidates[shown[b]].rank), "
                s += "lie \(ReportPage.number(d, digits: 1)) JND apart"
            }
            s += ".</p>\n<img class=\"spread-matrix\" width=\"\(n)\" height=\"\(n)\" alt=\"likeness distances between "
            s += "the \(n) candidates worth keeping, in rank order: bright is alike, dark is \(Int(range)) JND or more "
            s += "apart\" src=\"data:image/png;base64,\(png.base64EncodedString())\">\n"
            s += "<p class=\"muted\">Row and column i are the i-th candidate worth keeping in rank order; a pixel is "
            s += "the likeness distance of two candidates at matched loudness (docs/similarity.md): bright at 0, dark "
            s += "from \(Int(range)) JND. Bright squares on the diagonal are near-copies; a set of distinct sounds is "
            s += "dark away from it.</p>\n"
            return s
        }
    }
}
