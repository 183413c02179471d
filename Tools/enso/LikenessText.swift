import CLISupport

/// How the near-duplicate groups of a batch (`bells audition`, `loops verify`) read in a terminal table: a GROUP
/// column after the first, shown only when the batch holds near-duplicates (some group has a second file), since
/// otherwise every file is a group of its own and the column says nothing but costs width (a table must fit 100
/// columns; JSON and CSV always carry `group` and `groupRank`).
enum LikenessText {
    /// Whether any row is a second (or later) member of its group.
    static func showsGroups(_ groupRanks: [Int]) -> Bool { groupRanks.contains { $0 > 1 } }

    /// `headers` and `alignments` with the GROUP column inserted after the first.
    static func inserted(
        _ headers: [String], _ alignments: [TextTable.Alignment]
    ) -> ([String], [TextTable.Alignment]) {
        var (h, a) = (headers, alignments)
        h.insert("GROUP", at: 1)
        a.insert(.left, at: 1)
        return (h, a)
    }

    /// The table's GROUP cell: the group's number for its best file, then `#2`, `#3`… for the others in rank order
    /// (`3 #2`: the second best of group 3), as docs/similarity.md explains.
    static func groupCell(_ group: Int, _ groupRank: Int) -> String {
        groupRank <= 1 ? String(group) : "\(group) #\(groupRank)"
    }
}
