/// An enumeration whose cases are ordered as they are declared: `<` compares their places in `allCases`.
///
/// For verdicts ranked from best to worst (a seam metric's status, an asset check's): the declaration is the one
/// place their order is written.
///
/// - Thread safety: value types, any thread.
public protocol DeclarationOrdered: CaseIterable, Comparable {}

extension DeclarationOrdered {
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
