import AssetPipeline
import AudioDSP
import Foundation

extension BellReport {
    /// The page's near-duplicate groups (issue #45): candidates a listener comparing them at matched loudness would
    /// not tell apart (``LikenessGroups``, ``LikenessDistance``: at most 1 JND), from each candidate's likeness
    /// signature (made from its one analysis by ``sketch(_:)``).
    ///
    /// The page shows each group collapsed: its best (the first in rank order) in the table and as a card; the
    /// others behind a disclosure, in the table under their best's row and as cards after its card; and the group's
    /// spread: how far each other member lies from the best, in JNDs, on a strip with the 1 JND line.
    struct Groups {
        /// Per candidate (rank order): its group number (1 = the group of the first candidate).
        var group: [Int]
        /// Per candidate: its group's members in rank order, the best first.
        private var members: [Int: [Int]]
        /// Per candidate: its distance from its group's best, in JNDs (nil for a best).
        var distance: [Double?]
        /// Per group number: the largest distance between two of its members, in JNDs.
        var spread: [Int: Double]

        /// Groups candidates given in rank order by their signatures (nil: a group of its own).
        init(_ signatures: [LikenessSignature?]) {
            let found = LikenessGroups.group(signatures)
            group = found.map(\.group)
            members = [:]
            for (i, g) in group.enumerated() { members[g, default: []].append(i) }
            distance = Array(repeating: nil, count: signatures.count)
            spread = [:]
            for (g, list) in members where list.count > 1 {
                var widest = 0.0
                for (a, i) in list.enumerated() {
                    for j in list[(a + 1)...] {
                        guard let x = signatures[i], let y = signatures[j] else { continue }
                        let d = LikenessDistance(x, y).distance
                        if a == 0 { distance[j] = d }
                        widest = max(widest, d)
                    }
                }
                spread[g] = widest
            }
        }

        /// Whether candidate `i` is the best of its group (or alone).
        func isLead(_ i: Int) -> Bool { members[group[i]]?.first == i }
        /// The other members of `i`'s group, when `i` leads it.
        func others(_ i: Int) -> [Int] { isLead(i) ? Array(members[group[i]]!.dropFirst()) : [] }
        /// The best of `i`'s group.
        func lead(_ i: Int) -> Int { members[group[i]]!.first! }
        /// How many groups have more than one member.
        var collapsed: Int { members.values.filter { $0.count > 1 }.count }

        /// The summary's words: how many distinct sounds the candidates are.
        func summary(_ count: Int) -> String {
            let folded = members.values.filter { $0.count > 1 }
            guard !folded.isEmpty else { return "" }
            let distinct = members.count
            return " · <b>\(distinct) distinct sound\(distinct == 1 ? "" : "s")</b>: \(folded.count) group"
                + "\(folded.count == 1 ? "" : "s") of near-duplicates (\(folded.map(\.count).reduce(0, +)) "
                + "candidates a listener would not tell apart at matched loudness), each shown under its best"
        }

        /// The disclosure's words for the group `i` leads.
        func disclosureText(_ i: Int, _ cards: [Card]) -> String {
            let n = others(i).count
            return
                "\(n) near-duplicate\(n == 1 ? "" : "s") of #\(cards[i].rank) \(ReportPage.fileName(name(cards[i].file)))"
                + " (within \(ReportPage.number(spread[group[i]] ?? 0, digits: 2)) JND of each other)"
        }

        /// The card's line on its group: for a best, the spread picture; for another member, its best and distance.
        func cardLine(_ i: Int, _ cards: [Card]) -> String {
            if let d = distance[i] {
                let l = lead(i)
                return "<p class=\"muted\">A near-duplicate of <a href=\"#bell-\(cards[l].rank)\">#\(cards[l].rank) "
                    + "\(ReportPage.fileName(name(cards[l].file)))</a>: \(ReportPage.number(d, digits: 2)) JND from it.</p>"
            }
            let list = others(i)
            guard !list.isEmpty else { return "" }
            return "<figure>" + spreadSVG(i, cards) + "<figcaption>Its \(list.count) near-duplicate"
                + "\(list.count == 1 ? "" : "s") (below this card) by distance from it in JNDs; at 1 JND a listener "
                + "just tells two apart at matched loudness. Farthest pair: "
                + "\(ReportPage.number(spread[group[i]] ?? 0, digits: 2)) JND.</figcaption></figure>\n"
        }

        /// The group's spread: its best at 0 and each other member at its distance from it, on a JND axis with the
        /// near-duplicate line (1 JND).
        func spreadSVG(_ i: Int, _ cards: [Card]) -> String {
            let list = others(i)
            let far = max(LikenessDistance.nearDuplicateThreshold, list.compactMap { distance[$0] }.max() ?? 0) * 1.1
            let (w, left, right) = (420.0, 14.0, 14.0)
            func x(_ d: Double) -> String { String(format: "%.1f", left + d / far * (w - left - right)) }
            var s = "<svg class=\"spread\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 420 54\" role=\"img\">"
            s += "<title>distance of each near-duplicate from #\(cards[i].rank), in JNDs</title>"
            s += "<line class=\"axis\" x1=\"\(x(0))\" y1=\"34\" x2=\"\(x(far))\" y2=\"34\" stroke=\"currentColor\"/>"
            let threshold = LikenessDistance.nearDuplicateThreshold
            s += "<line x1=\"\(x(threshold))\" y1=\"8\" x2=\"\(x(threshold))\" y2=\"38\" stroke=\"var(--seam)\" "
            s += "stroke-dasharray=\"3 3\"/>"
            for t in stride(from: 0.0, through: far, by: far > 2.2 ? 1 : 0.5) {
                s += "<text x=\"\(x(t))\" y=\"50\" text-anchor=\"middle\">\(ReportPage.number(t, digits: 1))</text>"
            }
            s += "<text x=\"\(x(far))\" y=\"12\" text-anchor=\"end\">JND</text>"
            s += "<circle class=\"lead\" cx=\"\(x(0))\" cy=\"26\" r=\"4.5\"><title>#\(cards[i].rank) "
            s += "\(ReportPage.escape(name(cards[i].file))): the best</title></circle>"
            for (k, j) in list.enumerated() {
                let d = distance[j] ?? 0
                s += "<circle cx=\"\(x(d))\" cy=\"\(26 - 6 * (k % 3))\" r=\"4\"><title>#\(cards[j].rank) "
                s +=
                    "\(ReportPage.escape(name(cards[j].file))): \(ReportPage.number(d, digits: 2)) JND</title></circle>"
            }
            return s + "</svg>"
        }
    }
}
