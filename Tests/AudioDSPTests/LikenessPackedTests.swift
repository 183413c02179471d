import Foundation
import Testing

@testable import AudioDSP

/// ``LikenessSignature/Packed``: a rounded signature packs into whole numbers and comes back bit for bit (so `bells
/// rank` groups exactly as the rows say); one off its rounding step is kept whole.
@Suite struct LikenessPackedTests {
    /// A struck signature with every field filled, rounded as a row carries it.
    static func struck() -> LikenessSignature {
        var s = LikenessSignature(kind: .struck, duration: 4.32411)
        s.partials = [.init(cents: -1234.5678, level: 0), .init(cents: 1886.3, level: -3.217)]
        s.weakPartials = s.partials + [.init(cents: 3402.99, level: -37.5)]
        s.attack = 0.00213
        s.decay = [nil, 1.09812, 2.5, nil]
        s.envelope = [[0, -12.345, -50], [-3.3, -20.01, -49.99]]
        return s.rounded()
    }

    @Test func aRoundedSignatureComesBackBitForBit() {
        var texture = LikenessSignature(kind: .texture, duration: 30)
        texture.bandLevels = [0, -6.25, -50]
        texture.modulation = [[-30, -12.5], [-29.99, -3]]
        texture.modulationLevels = [0, -7.77]
        for s in [Self.struck(), texture.rounded(), LikenessSignature(kind: .struck, duration: 0)] {
            let back = LikenessSignature.Packed(s).signature
            #expect(back == s)
            // Bit for bit: a distance from them is the distance from the row's figures.
            #expect(back.envelope.joined().map(\.bitPattern) == s.envelope.joined().map(\.bitPattern))
            #expect(back.decay.map { $0?.bitPattern } == s.decay.map { $0?.bitPattern })
        }
    }

    @Test func aSignatureOffItsRoundingStepIsKeptWhole() {
        var s = Self.struck()
        s.partials[0].cents = 1.0 / 3
        #expect(LikenessSignature.Packed(s).signature == s)
        s = Self.struck()
        s.envelope = [[0, -1], [0]]
        #expect(LikenessSignature.Packed(s).signature == s)
        // −0 would come back +0: kept whole.
        s = Self.struck()
        s.envelope[0][0] = -0.0
        #expect(LikenessSignature.Packed(s).signature.envelope[0][0].sign == .minus)
    }
}
