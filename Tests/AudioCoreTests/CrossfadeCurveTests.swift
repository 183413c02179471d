import AudioCore
import Foundation
import Testing

@Suite struct CrossfadeCurveTests {
    @Test("quarterSine matches sin(t·π/2) to float precision over 0...1")
    func quarterSine() {
        var worst: Double = 0
        for i in 0...1_000 {
            let t = Float(i) / 1_000
            worst = max(worst, abs(Double(CrossfadeCurve.quarterSine(t)) - sin(Double(t) * .pi / 2)))
        }
        // Float's spacing near 1 is 6e-8: two ulps at most is float precision for a value computed in Double.
        #expect(worst <= 1.2e-7, "worst error \(worst)")
        #expect(CrossfadeCurve.quarterSine(0) == 0)
    }

    @Test("equal power keeps fadeIn² + fadeOut² = 1, equal gain keeps fadeIn + fadeOut = 1")
    func constantSum() {
        for i in 0...100 {
            let x = Float(i) / 100
            let power = CrossfadeCurve.equalPower
            let gain = CrossfadeCurve.equalGain
            // 1e-6: a few float roundings of values ≤ 1.
            #expect(abs(power.fadeIn(x) * power.fadeIn(x) + power.fadeOut(x) * power.fadeOut(x) - 1) < 1e-6)
            #expect(abs(gain.fadeIn(x) + gain.fadeOut(x) - 1) < 1e-6)
        }
    }

    @Test("positions outside 0...1 clamp: silent before the fade, full after it")
    func clamps() {
        for curve in CrossfadeCurve.allCases {
            #expect(curve.fadeIn(-0.5) == 0 && curve.fadeIn(1.5) == curve.fadeIn(1))
            #expect(abs(curve.fadeIn(1) - 1) < 1e-6 && curve.fadeOut(1.5) == 0)
        }
    }

    @Test("the raw values are the CLI's --curve words")
    func names() {
        #expect(CrossfadeCurve.allCases.map(\.rawValue) == ["equal-power", "equal-gain"])
    }
}
