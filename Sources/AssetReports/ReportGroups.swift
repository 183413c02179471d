import AssetPipeline
import AudioDSP
import Foundation

/// A report's near-duplicate groups (issue #45): candidates a listener comparing them at matched loudness would not
/// tell apart (``LikenessGroups``, ``LikenessDistance``: at most 1 JND). The bell report and the loop report both
/// show them this way; each says which group a candidate is in (the rows' `group` and `groupRank`, or the groups
/// of the candidates' signatures) and this type reads that, never grouping again.
///
/// The page shows each group collapsed: its best (`groupRank` 1) in the table and as a card; the others behind a
/// disclosure, in the table under their best's row and as cards after its card; and the group's spread: how far
/// each other member lies from the best, in JNDs, on a strip with the 1 JND line.
struct ReportGroups {
    /// What the page calls a candidate: its label (`#3`), the id of its card (`bell-3`) and its file's name.
    struct Item {
        var label: String
        var anchor: String
        var name: String
    }

    /// Per candidate (page order): its group number.
    var group: [Int]
    /// Per group number: its members, the best first, then by their place in the group.
    private var members: [Int: [Int]]
    /// Per candidate: its distance from its group's best, in JNDs (nil for a best, or without a signature).
    var distance: [Double?]
    /// Per group number: the largest distance between two of its members, in JNDs.
    var spread: [Int: Double]
    /// Per candidate: what the page calls it.
    var items: [Item]

    /// The groups of candidates given in page order: each one's `group` number and `place` in it (1 = its best;
    /// ``groupRank`` of a row), with their signatures for the distances shown (nil: none shown).
    init(group: [Int], place: [Int], signatures: [LikenessSignature?], items: [Item]) {
        self.group = group
        self.items = items
        members = [:]
        for i in group.indices { members[group[i], default: []].append(i) }
        for g in members.keys { members[g]!.sort { (place[$0], $0) < (place[$1], $1) } }
        distance = Array(repeating: nil, count: group.count)
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
    /// Whether `i` is a member of a group other than its best.
    func isMember(_ i: Int) -> Bool { !isLead(i) }
    /// How many groups have more than one member.
    var collapsed: Int { members.values.filter { $0.count > 1 }.count }

    /// The summary's words: how many distinct sounds the candidates are.
    func summary(_ noun: String = "candidates") -> String {
        let folded = members.values.filter { $0.count > 1 }
        guard !folded.isEmpty else { return "" }
        let distinct = members.count
        return " · <b>\(distinct) distinct sound\(distinct == 1 ? "" : "s")</b>: \(folded.count) group"
            + "\(folded.count == 1 ? "" : "s") of near-duplicates (\(folded.map(\.count).reduce(0, +)) "
            + "\(noun) a listener would not tell apart at matched loudness), each shown under its best"
    }

    /// The disclosure's words for the group `i` leads.
    func disclosureText(_ i: Int) -> String {
        let n = others(i).count
        return "\(n) near-duplicate\(n == 1 ? "" : "s") of \(items[i].label) \(ReportPage.fileName(items[i].name))"
            + " (within \(ReportPage.number(spread[group[i]] ?? 0, digits: 2)) JND of each other)"
    }

    /// The table's words beside a member's name: its best and its distance from it.
    func rowNote(_ i: Int) -> String {
        guard isMember(i) else { return "" }
        let d = distance[i].map { ", \(ReportPage.number($0, digits: 2)) JND" } ?? ""
        return " <small class=\"muted\">≈ \(items[lead(i)].label)\(d)</small>"
    }

    /// The card's line on its group: for a best, the spread picture; for another member, its best and distance.
    func cardLine(_ i: Int) -> String {
        if isMember(i) {
            let l = items[lead(i)]
            let d = distance[i].map { ": \(ReportPage.number($0, digits: 2)) JND from it" } ?? ""
            return "<p class=\"muted\">A near-duplicate of <a href=\"#\(l.anchor)\">\(l.label) "
                + "\(ReportPage.fileName(l.name))</a>\(d).</p>"
        }
        let list = others(i)
        guard !list.isEmpty else { return "" }
        return "<figure>" + spreadSVG(i) + "<figcaption>Its \(list.count) near-duplicate"
            + "\(list.count == 1 ? "" : "s") (below this card) by distance from it in JNDs; at 1 JND a listener "
            + "just tells two apart at matched loudness. Farthest pair: "
            + "\(ReportPage.number(spread[group[i]] ?? 0, digits: 2)) JND.</figcaption></figure>\n"
    }

    /// The group's spread: its best at 0 and each other member at its distance from it, on a JND axis with the
    /// near-duplicate line (1 JND).
    func spreadSVG(_ i: Int) -> String {
        let list = others(i)
        let far = max(LikenessDistance.nearDuplicateThreshold, list.compactMap { distance[$0] }.max() ?? 0) * 1.1
        let (w, left, right) = (420.0, 14.0, 14.0)
        func x(_ d: Double) -> String { String(format: "%.1f", left + d / far * (w - left - right)) }
        var s = "<svg class=\"spread\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 420 54\" role=\"img\">"
        s += "<title>distance of each near-duplicate from \(items[i].label), in JNDs</title>"
        s += "<line class=\"axis\" x1=\"\(x(0))\" y1=\"34\" x2=\"\(x(far))\" y2=\"34\" stroke=\"currentColor\"/>"
        let threshold = LikenessDistance.nearDuplicateThreshold
        s += "<line x1=\"\(x(threshold))\" y1=\"8\" x2=\"\(x(threshold))\" y2=\"38\" stroke=\"var(--seam)\" "
        s += "stroke-dasharray=\"3 3\"/>"
        for t in stride(from: 0.0, through: far, by: far > 2.2 ? 1 : 0.5) {
            s += "<text x=\"\(x(t))\" y=\"50\" text-anchor=\"middle\">\(ReportPage.number(t, digits: 1))</text>"
        }
        s += "<text x=\"\(x(far))\" y=\"12\" text-anchor=\"end\">JND</text>"
        s += "<circle class=\"lead\" cx=\"\(x(0))\" cy=\"26\" r=\"4.5\"><title>\(items[i].label) "
        s += "\(ReportPage.escape(items[i].name)): the best</title></circle>"
        for (k, j) in list.enumerated() {
            let d = distance[j] ?? 0
            s += "<circle cx=\"\(x(d))\" cy=\"\(26 - 6 * (k % 3))\" r=\"4\"><title>\(items[j].label) "
            s += "\(ReportPage.escape(items[j].name)): \(ReportPage.number(d, digits: 2)) JND</title></circle>"
        }
        return s + "</svg>"
    }

    /// The style of the groups' disclosures and spread pictures (the table's part is ``ReportTable/style``).
    static let style = """
        details.group{margin:-.6em 0 1em 1.5em}details.group>summary{cursor:pointer;color:var(--s0);padding:.2em 0}
        img.spread-matrix{width:100%;max-width:420px;height:auto;image-rendering:pixelated;display:block}\
        svg.spread{width:100%;max-width:420px;height:auto;display:block}svg.spread text{fill:var(--muted);\
        font:11px system-ui,sans-serif}svg.spread circle{fill:var(--s0);opacity:.75}svg.spread circle.lead{fill:var(--fg)}

        """
}

extension BellReport {
    /// The bell page's groups: the near-duplicate groups of the candidates' signatures (rank order; a candidate
    /// without one is alone), each candidate called by its rank.
    static func groups(_ cards: [Card], signatures: [LikenessSignature?]) -> ReportGroups {
        let found = LikenessGroups.group(signatures)
        return ReportGroups(
            group: found.map(\.group), place: found.map(\.groupRank), signatures: signatures,
            items: cards.map { .init(label: "#\($0.rank)", anchor: "bell-\($0.rank)", name: name($0.file)) })
    }
}
