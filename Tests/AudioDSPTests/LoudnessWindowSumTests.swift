import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// The loudness scan's fast path (one `ebur128_loudness_window` read per hop, momentary and short-term as
/// means of hop energies) against libebur128's own momentary and short-term reads.
@Suite struct LoudnessWindowSumTests {
    /// Both paths sum the same frames in a different order and round-trip through log10/pow:
    /// 1e-9 LU is far above that rounding (~1e-13) and far below any meaningful loudness difference.
    static let lu = 1e-9

    /// A 2.3 s struck tone decaying 60 dB, with seeded noise, starting 0.3 s in.
    func bell(rate: Int, channels: Int) -> AudioBuffer {
        var rng = SeededRandom(seed: 7)
        let n = rate * 23 / 10
        let data = (0..<channels).map { ch in
            (0..<n).map { i -> Float in
                let t = Double(i) / Double(rate) - 0.3
                guard t >= 0 else { return 0 }
                let tone = 0.5 * sin(2 * .pi * (440 + 3 * Double(ch)) * t) * pow(10, -3 * t)
                return Float(tone) + 0.001 * rng.nextSigned()
            }
        }
        return AudioBuffer(channelData: data, sampleRate: SampleRate(rate)!)
    }

    func expectSame(_ a: [Double], _ b: [Double]) {
        #expect(a.count == b.count)
        for (x, y) in zip(a, b) {
            if x.isFinite || y.isFinite { #expect(abs(x - y) <= Self.lu, "\(x) vs \(y)") }
        }
    }

    @Test(arguments: [(48000, 2), (44100, 1), (96000, 1)])
    func windowSumsMatchDirectReads(rate: Int, channels: Int) throws {
        let b = bell(rate: rate, channels: channels)
        for hop in [0.01, 0.1] {
            let meter = try LoudnessMeter(channels: b.channelCount, sampleRate: b.sampleRate)
            let frames = Int(b.sampleRate.frames(seconds: hop))
            #expect(LoudnessAnalysis.hopTiling(meter: meter, hop: frames, hopSeconds: hop) != nil)
            let fast = try LoudnessAnalysis.scan(
                b, hopSeconds: hop, shortTermEvery: 0.1, padSeconds: 0.4, wantMomentary: true)
            let slow = try LoudnessAnalysis.scan(
                b, hopSeconds: hop, shortTermEvery: 0.1, padSeconds: 0.4, wantMomentary: true, windowSums: false)
            expectSame(fast.momentary, slow.momentary)
            expectSame(fast.shortTerm, slow.shortTerm)
            #expect(fast.momentary.contains { $0.isFinite })
        }
    }

    /// 7.3 s of a tone stepping through levels a second at a time (so its loudness range is not 0), with
    /// seeded noise.
    func steps(rate: Int, channels: Int) -> AudioBuffer {
        var rng = SeededRandom(seed: 11)
        let levels = [-6.0, -20, -12, -30, -9, -40, -15, -25]
        let n = rate * 73 / 10
        let data = (0..<channels).map { ch in
            (0..<n).map { i -> Float in
                let t = Double(i) / Double(rate)
                let gain = pow(10, levels[min(levels.count - 1, Int(t))] / 20)
                return Float(0.5 * gain * sin(2 * .pi * (330 + 5 * Double(ch)) * t)) + 0.0005 * rng.nextSigned()
            }
        }
        return AudioBuffer(channelData: data, sampleRate: SampleRate(rate)!)
    }

    @Test(arguments: [(48000, 2), (44100, 1), (96000, 1)])
    func gatingFromHopEnergiesMatchesTheMetersBlocks(rate: Int, channels: Int) throws {
        for b in [steps(rate: rate, channels: channels), bell(rate: rate, channels: channels)] {
            let fast = try LoudnessAnalysis.scan(
                b, hopSeconds: 0.01, shortTermEvery: 0.1, padSeconds: 0.4, wantMomentary: true)
            let slow = try LoudnessAnalysis.scan(
                b, hopSeconds: 0.01, shortTermEvery: 0.1, padSeconds: 0.4, wantMomentary: true, windowSums: false)
            let gated = try #require(fast.gated)
            #expect(slow.gated == nil)
            #expect(abs(gated.integrated - slow.meter.integrated) <= Self.lu)
            #expect(abs(gated.range - slow.meter.range) <= Self.lu, "\(gated.range) vs \(slow.meter.range)")
            expectSame(fast.shortTerm, slow.shortTerm)
        }
        // The stepped tone's range is real (its six 3 s blocks span about 3.2 LU, computed from the steps' powers):
        // the test compares percentiles, not two zeros.
        let s = try LoudnessAnalysis.scan(
            steps(rate: rate, channels: channels), hopSeconds: 0.01, shortTermEvery: 0.1, padSeconds: 0.4,
            wantMomentary: true)
        #expect(try #require(s.gated).range > 2)
    }

    @Test func hopsThatDoNotTileTheWindowsUseDirectReads() throws {
        let meter = try LoudnessMeter(channels: .mono, sampleRate: SampleRate(22050)!)
        #expect(LoudnessAnalysis.hopTiling(meter: meter, hop: 221, hopSeconds: 0.01) == nil)
        let m48 = try LoudnessMeter(channels: .mono, sampleRate: SampleRate(48000)!)
        #expect(LoudnessAnalysis.hopTiling(meter: m48, hop: 336, hopSeconds: 0.007) == nil)
    }
}
