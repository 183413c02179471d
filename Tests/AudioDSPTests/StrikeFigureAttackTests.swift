import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// Where a strike starts (`StrikeFigure.attack(near:energy:sampleRate:)`): within its 1 ms rise, wherever its onset falls
/// within a flux hop of it, and to the sample with the sound when silence is put in front.
@Suite struct StrikeFigureAttackTests {
    typealias P = BellSignals.Partial

    /// A bell struck 0.6 s in, over the ring of a first strike (or over digital silence, `ring: false`).
    static func signal(rate: Int, ring: Bool) -> [Float] {
        let bell = [P(523, 0.3, t60: 2), P(1410, 0.2, t60: 1.2), P(2620, 0.1, t60: 0.8)]
        let second = BellSignals.strikes(bell, at: [0.6], seconds: 1.5, attack: 0.001, sampleRate: rate)
        guard ring else { return second }
        let first = BellSignals.strikes(bell, at: [0.05], seconds: 1.5, attack: 0.001, sampleRate: rate)
        return zip(first, second).map { $0 + $1 }
    }

    @Test(arguments: [(22_050, true), (44_100, true), (48_000, true), (96_000, true), (48_000, false)])
    func aStrikeStartsWhereItStartsWhereverItsOnsetFalls(rate: Int, ring: Bool) {
        let x = Self.signal(rate: rate, ring: ring)
        let strike = Int(0.6 * Double(rate))
        let hop = Double(OnsetAnalysis.frameSize(Double(rate)) / 2) / Double(rate)
        for k in -4...4 {
            let onset = 0.6 + hop * Double(k) / 4
            let attack = StrikeFigure.attack(
                near: onset, energy: CrossCorrelation.energyPrefix(x), sampleRate: Double(rate))
            let error = Double(attack - strike) / Double(rate)
            #expect(abs(error) <= 0.001, "onset \(onset) s: attack read \(error * 1000) ms from the strike")
        }
    }

    /// Silence in front moves the attack with the sound, to the sample.
    @Test func silenceInFrontMovesTheAttackWithTheSound() {
        let rate = 44_100
        let x = Self.signal(rate: rate, ring: true)
        let plain = StrikeFigure.attack(near: 0.6, energy: CrossCorrelation.energyPrefix(x), sampleRate: Double(rate))
        for pad in [1_323, 4_410] {
            let padded = [Float](repeating: 0, count: pad) + x
            let onset = 0.6 + Double(pad) / Double(rate)
            for shift in [-0.005, 0, 0.005] {
                #expect(
                    StrikeFigure.attack(
                        near: onset + shift, energy: CrossCorrelation.energyPrefix(padded), sampleRate: Double(rate))
                        == plain + pad)
            }
        }
    }
}
