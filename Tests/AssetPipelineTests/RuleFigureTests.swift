import Foundation
import Testing

@testable import AssetPipeline

/// A figure printed beside its rule's limit never reads on the other side of it (issue #48 §1: "falls 20 dB in
/// 3.00 s (must ring at least 3 s)").
@Suite struct RuleFigureTests {
    @Test func aFigureIsNeverRoundedAcrossItsLimit() {
        #expect(RuleFigure.text(2.996, limit: 3, passes: false, passesAbove: true) == "2.996")
        #expect(RuleFigure.text(2.99999, limit: 3, passes: false, passesAbove: true) == "2.9999")
        #expect(RuleFigure.text(2.37, limit: 3, passes: false, passesAbove: true) == "2.37")
        #expect(RuleFigure.text(3.004, limit: 3, passes: true, passesAbove: true) == "3.00")
        // A maximum: 1.54 LU over a 1.5 LU tolerance reads 1.54, not 1.5.
        #expect(RuleFigure.text(1.54, limit: 1.5, passes: false, passesAbove: false, decimals: 1) == "1.54")
        #expect(RuleFigure.text(1.46, limit: 1.5, passes: true, passesAbove: false, decimals: 1) == "1.5")
    }

    @Test func theBellDecayFindingSaysWhatFailedIt() throws {
        var p = PackRules.referenceBell
        p.decay?.d20 = 2.996
        let finding = try #require(PackRules.bellDecay.judge(p).first)
        #expect(finding.status == .fail)
        #expect(finding.message.contains("falls 20 dB in 2.996 s (must ring at least 3 s"), "\(finding.message)")
        // 0.04 LU over the tolerance: "+1.04 LU" beside "± 1.0", not "+1.0".
        p.loudness = p.entry.loudness.target + AssetPack.loudnessTolerance + 0.04
        let loud = try #require(PackRules.loudness.judge(p).first)
        let over = String(format: "(+%.2f LU)", AssetPack.loudnessTolerance + 0.04)
        #expect(loud.status == .fail && loud.message.contains(over), "\(loud.message)")
    }
}
