import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// ``BellAudition/analysisSignal(_:mono:scalar:)`` sums the powers eight lanes at a time; its choice (the mix or
/// the loudest channel), and so the signal, must be the one the powers summed in order make.
@Suite struct BellAnalysisSignalTests {
    /// A deterministic generator (SplitMix64), so a failure names a case that can be run again.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// Uniform in −1 ..< 1.
        mutating func sample() -> Float { Float(Double(next() >> 11) * 0x1p-52 - 1) }
    }

    func both(_ channels: [[Float]]) -> (fast: [Float], scalar: [Float]) {
        let b = AudioBuffer(channelData: channels, sampleRate: .hz48000)
        let mono = b.finiteMonoMix()
        return (
            BellAudition.analysisSignal(b, mono: mono), BellAudition.analysisSignal(b, mono: mono, scalar: true)
        )
    }

    @Test func theChoiceIsTheOrderedSumsOnRandomSignals() {
        var r = Random(state: 42)
        for trial in 0..<200 {
            let count = Int(r.next() % 5000) + 1
            let channels = Int(r.next() % 3) + 2
            let left = (0..<count).map { _ in r.sample() }
            // Each other channel: the first one scaled (inverted: the mix cancels) plus some noise of its own.
            var data = [left]
            for _ in 1..<channels {
                let gain = Float(r.sample() * 1.2)
                let noise = Float(pow(10, Double(r.sample()) * 4 - 4))
                data.append(left.map { $0 * gain + r.sample() * noise })
            }
            let (fast, scalar) = both(data)
            #expect(fast == scalar, "trial \(trial): \(count) frames, \(channels) channels")
        }
    }

    /// 99 of every 100 frames inverted (the mix silent there), one in phase: the mix keeps exactly 1 % of the
    /// channels' mean power, the threshold, and every sum is exact either way, so the eight-lane sums land on it and
    /// defer to the ordered ones. Moving the in-phase frame by one step down (under the threshold: a channel) and up
    /// (over it: the mix) must not change the choice either.
    @Test func theChoiceIsTheOrderedSumsAtTheThreshold() {
        for repeats in [1, 7, 480] {
            for inPhase: Float in [1, Float(1).nextDown, Float(1).nextUp, 0.999, 1.001] {
                var left: [Float] = []
                var right: [Float] = []
                for _ in 0..<repeats {
                    left += [Float](repeating: 0.5, count: 99) + [0.5 * inPhase]
                    right += [Float](repeating: -0.5, count: 99) + [0.5 * inPhase]
                }
                let (fast, scalar) = both([left, right])
                #expect(fast == scalar, "\(repeats) × 100 frames, in phase \(inPhase)")
                // On and over the threshold the mix is kept; under it, the first channel (the two are equal).
                #expect(scalar == (inPhase < 1 ? left : left.indices.map { (left[$0] + right[$0]) / 2 }))
            }
        }
    }

    /// Inverted channels of equal power: the first loudest channel, as the ordered sums choose.
    @Test func tiedChannelsChooseTheFirstAsTheOrderedSumsDo() {
        var r = Random(state: 9)
        let left = (0..<1001).map { _ in r.sample() }
        var right = left.map { -$0 }
        right[500] = right[500].nextUp
        let (fast, scalar) = both([left, right])
        #expect(fast == scalar)
        let (same, _) = both([left, left.map { -$0 }])
        #expect(same == left)
    }

    /// Every measure of the audition reads the one analysis signal, the decay's envelope too: a wide stereo bell
    /// (struck hard left, then in the centre: the channels' mean power loudest at the first strike, the mix at the
    /// second) and its fold to mono, the mix itself, get the same class, decay and strike figure.
    @Test func aWideStereoBellAndItsFoldToMonoAreJudgedAlike() throws {
        let stereo = BellSignals.wideStereo()
        let fold = AudioBuffer(planarSamples: stereo.monoMix(), channels: .mono, sampleRate: stereo.sampleRate)
        let wide = BellAudition.audition(stereo, file: "wide.wav", profile: .temple)
        let folded = BellAudition.audition(fold, file: "folded.wav", profile: .temple)
        let (w, f) = (try #require(wide.metrics), try #require(folded.metrics))
        #expect(wide.bellClass == folded.bellClass, "\(wide.reasons) against \(folded.reasons)")
        #expect(w.decay == f.decay, "peak at \(w.decay.peakTime) and \(f.decay.peakTime) s")
        #expect(abs(w.decay.peakTime - 2) < 0.05, "the peak on the mix's loudest strike: \(w.decay.peakTime) s")
        #expect((w.strikes, w.newNotes, w.enteringNotes) == (f.strikes, f.newNotes, f.enteringNotes))
    }
}
