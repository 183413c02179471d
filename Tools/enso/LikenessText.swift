/// How the near-duplicate groups of a batch (`bells audition`, `loops verify`) read in a terminal table.
enum LikenessText {
    /// The table's GROUP cell: the group's number for its best file, then `#2`, `#3`… for the others in rank order
    /// (`3 #2`: the second best of group 3), as docs/similarity.md explains.
    static func groupCell(_ group: Int, _ groupRank: Int) -> String {
        groupRank <= 1 ? String(group) : "\(group) #\(groupRank)"
    }
}
