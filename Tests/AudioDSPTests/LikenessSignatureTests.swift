import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// The likeness signature measures what is heard at matched level: partial pitches, band decay and envelope of a
/// struck sound; band levels and modulation of a texture (docs/similarity.md).
@Suite struct LikenessSignatureTests {
    static func struck(_ b: AudioBuffer) -> LikenessSignature {
        let mono = b.finiteMonoMix()
        let rate = b.sampleRate.double
        let spec = Spectrogram(mono: mono, sampleRate: rate)
        let decay = DecayAnalysis(b, mono: mono, spectrogram: spec)!
        let partials = PartialAnalysis(mono: mono, sampleRate: rate, peakTime: decay.peakTime, spectrogram: spec)
        return .struck(
            spectrogram: spec, peakTime: decay.peakTime, partials: partials,
            attack: OnsetAnalysis(b, mono: mono).attack,
            duration: b.duration)
    }

    @Test func erbBandsSpanFiftyHertzToSixteenKilohertzTwoERBsWide() {
        #expect(PerceptualBands.maximumCount == 18)
        #expect(abs(PerceptualBands.edges(0).low - 50) < 1e-9)
        #expect(PerceptualBands.edges(17).high <= 16_000)
        // A file at 22.05 kHz holds only the bands under 95 % of 11 025 Hz.
        #expect(PerceptualBands.edges(PerceptualBands.count(nyquist: 11_025) - 1).high <= 0.95 * 11_025)
        #expect(PerceptualBands.count(nyquist: 11_025) < 18)
    }

    @Test func struckSignatureReadsPartialsInCentsAndDecayPerBand() {
        // Temple bell: lowest partial 310 Hz, every partial T60 = 6 s.
        let s = Self.struck(BellSignals.bell(seconds: 4))
        #expect(s.kind == .struck)
        let lowest = 1200 * log2(310.0 / 440)
        #expect(abs(s.partials.first!.cents - lowest) < 1)  // 1 cent: a fifth of the pitch JND
        #expect(s.partials.count == 5)
        #expect(s.partials.contains { $0.level == 0 })
        let decays = s.decay.compactMap { $0 }
        #expect(!decays.isEmpty)
        // Every band's decay is the partials' 6 s within 10 % (a band's level also holds the window's leakage).
        #expect(decays.allSatisfy { abs($0 - 6) < 0.6 }, "\(decays)")
        #expect(s.envelope.count == LikenessSignature.slices.count)
        #expect(s.envelope.flatMap { $0 }.max() == 0)
    }

    @Test func levelAndPaddingLeaveTheStruckSignatureAlmostUnchanged() {
        let base = BellSignals.bell(seconds: 3)
        let a = Self.struck(base)
        let b = Self.struck(BellSignals.scaled(BellSignals.bell(seconds: 3, strike: 0.02), decibels: -12))
        for (p, q) in zip(a.partials, b.partials) {
            #expect(abs(p.cents - q.cents) < 0.5)
            #expect(abs(p.level - q.level) < 0.2)
        }
        for (x, y) in zip(a.envelope.flatMap { $0 }, b.envelope.flatMap { $0 }) where x > -40 {
            #expect(abs(x - y) < 0.5, "\(x) vs \(y)")
        }
    }

    @Test func textureSignatureReadsBandLevelsAndModulation() {
        let rate = 48_000
        let steady = LoopSignals.brownNoise(frames: 6 * rate, channels: 1, seed: 5)
        let pulsing = LoopSignals.tremolo(steady, hz: 3, depth: 0.8)
        func sig(_ b: AudioBuffer) -> LikenessSignature { .texture(b)! }
        let a = sig(steady)
        let b = sig(pulsing)
        #expect(a.bandLevels.max() == 0)
        #expect(a.modulation.count == LikenessSignature.modulationGroups)
        // A 3 Hz tremolo raises the 2-4 Hz modulation depth of the loud low bands far above the steady noise's.
        #expect(b.modulation[0][2] > a.modulation[0][2] + 10, "\(a.modulation[0]) vs \(b.modulation[0])")
        // Brown noise falls with frequency: its lowest band is its loudest.
        #expect(a.bandLevels.first == 0)
    }

    /// A loop's envelope repeats with the loop, so its modulation lies on the DFT's bins, the loop's harmonics: a
    /// 2-bar loop's twelfth (the sixth of its bar) is 2 Hz at 80 bpm, an edge of the modulation rates
    /// (``LikenessSignature/modulationRates``). Each bin stands for the rates within half a bin of its own, shared by
    /// the bands it spans,
    /// so loops a little faster or slower read a little more in one band or the other: taking whole bins on either
    /// side of the edge moved the whole modulation at once, and 80 and 80.5 bpm read 5 dB apart.
    @Test func aLoopHarmonicCrossingARateEdgeMovesGradually() {
        let frameRate = 48_000.0 / 512  // frames half a 1024-sample frame apart
        var previous: Double?
        var largestStep = 0.0
        // 5.92 to 6.08 s: the twelfth harmonic from 2.03 to 1.97 Hz.
        for frames in 555...570 {
            let m = (0..<frames).map { k in 0.5 * sin(2 * Double.pi * 12 * Double(k) / Double(frames)) }
            let depths = LikenessSignature.modulationDepths([m], frameRate: frameRate)[0]
            // The share of the modulation's power read in the 1–2 Hz band (depths are 10·log10 of twice a variance).
            let (below, above) = (pow(10, depths[1] / 10), pow(10, depths[2] / 10))
            let share = below / (below + above)
            if let p = previous { largestStep = max(largestStep, abs(share - p)) }
            previous = share
            // The power is all read, in one band or the other: 0.5² is −6 dB.
            #expect(abs(10 * log10(below + above) - 20 * log10(0.5)) < 0.1, "\(frames) frames: \(depths)")
        }
        // One frame more is 0.3 % slower: the share moves by about 0.02 (twice the harmonic's move in bins).
        #expect(largestStep < 0.1, "largest step \(largestStep)")
    }
}
