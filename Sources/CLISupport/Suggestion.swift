/// "Did you mean ...?" for a mistyped option or command: the known name closest to what was typed.
public enum Suggestion {
    /// The candidate nearest to `typed` by edit distance, when it is near enough to be a typo: at most one edit
    /// for names of up to four letters, two for longer ones, and never the whole word. Ties go to the first
    /// candidate.
    ///
    ///     Suggestion.closest(to: "jsno", among: ["json", "csv"])   // "json"
    ///
    /// - Complexity: O(*n* × *m*) per candidate.
    public static func closest(to typed: String, among candidates: [String]) -> String? {
        let allowed = typed.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != typed {
            let d = distance(typed, candidate)
            guard d <= allowed, d < max(typed.count, candidate.count) else { continue }
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        return best?.name
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbouring letters each cost one (a swap is the commonest typo, `--jsno`).
    public static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a), t = Array(b)
        if s.isEmpty || t.isEmpty { return max(s.count, t.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: t.count + 1), count: s.count + 1)
        for i in 0...s.count { rows[i][0] = i }
        for j in 0...t.count { rows[0][j] = j }
        for i in 1...s.count {
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                var d = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] { d = min(d, rows[i - 2][j - 2] + 1) }
                rows[i][j] = d
            }
        }
        return rows[s.count][t.count]
    }
}
