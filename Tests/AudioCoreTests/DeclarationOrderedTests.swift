import AudioCore
import Testing

@Suite struct DeclarationOrderedTests {
    /// A raw-valued enumeration: Swift synthesises no `Comparable` for it, so the order is the protocol's.
    enum Verdict: String, DeclarationOrdered {
        case good = "z"
        case fair = "a"
        case poor = "m"
    }

    @Test func casesCompareAsTheyAreDeclaredNotByRawValue() {
        #expect(Verdict.good < .fair && Verdict.fair < .poor && !(Verdict.poor < .good) && !(Verdict.fair < .fair))
        #expect([Verdict.poor, .good, .fair].sorted() == [.good, .fair, .poor])
        #expect([Verdict.fair, .poor, .good].max() == .poor)
    }
}
