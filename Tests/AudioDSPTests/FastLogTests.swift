import Foundation
import Testing

@testable import AudioDSP

@Suite struct FastLogTests {
    @Test func withinTwoMillionthsOfLog2AndTheSameInEightLanes() {
        var worst: Float = 0
        var x: Float = 1
        var lanes: [Float] = []
        while x < 1e12 {
            let fast = FastLog.log2(x)
            worst = max(worst, abs(fast - Float(Foundation.log2(Double(x)))))
            lanes.append(x)
            x *= 1.0173
        }
        #expect(worst < 2e-5, "worst error \(worst)")
        for i in stride(from: 0, to: lanes.count - 8, by: 8) {
            let v = SIMD8<Float>(lanes[i..<(i + 8)])
            let simd = FastLog.log2(v)
            for k in 0..<8 { #expect(simd[k] == FastLog.log2(lanes[i + k])) }
        }
    }
}
