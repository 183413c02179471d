import AudioCore
import AudioDSP
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

@Suite struct BellAuditionTests {
    static let bell = BellSignals.bell(seconds: 8, attack: 0.005, channels: 2)

    func audition(_ b: AudioBuffer, _ name: String = "x.wav") -> BellAuditionResult {
        BellAudition.audition(b, file: name, profile: .temple).0
    }

    /// Scales `b` so its integrated loudness is `target` LUFS (iterated: the gate moves with the gain).
    func atLoudness(_ b: AudioBuffer, _ target: Double) throws -> AudioBuffer {
        var out = b
        for _ in 0..<6 {
            let i = try #require(try LoudnessAnalysis.measure(out, momentaryHopSeconds: 0.1).integrated)
            out = BellSignals.scaled(out, decibels: target - i)
        }
        return out
    }

    @Test func cleanOriginalsHaveNoDefectAndAreBellLike() {
        let r = audition(Self.bell)
        #expect(r.defectDetails.isEmpty, "\(r.defectDetails)")
        #expect(r.verdict == .bellLike, "\(r.reasons)")
        #expect(r.score > 50)
        let beating = audition(BellSignals.bell(seconds: 8, beat: 1.2, channels: 1))
        #expect(beating.defectDetails.isEmpty && beating.verdict == .bellLike)
    }

    @Test func everyInjectedDefectIsDetected() throws {
        let cases: [(AudioBuffer, BellDefect.Kind)] = [
            (BellSignals.clipped(Self.bell, gain: 12), .clipping),
            (BellSignals.clipped(Self.bell, gain: 12), .truePeak),
            (BellSignals.cutTail(Self.bell, below: 20), .truncatedTail),
            (BellSignals.cutTail(Self.bell, below: 20, fade: 0.1), .truncatedTail),
            (BellSignals.preRoll(Self.bell, seconds: 1.5), .leadingSilence),
            (BellSignals.dcOffset(Self.bell, 0.02), .dcOffset),
            (BellSignals.noisy(Self.bell, dbfs: -45), .noiseFloor),
            (try atLoudness(Self.bell, -40), .tooQuiet),
        ]
        for (b, kind) in cases {
            let r = audition(b)
            #expect(r.defects.contains(kind.rawValue), "\(kind): \(r.defectDetails)")
            #expect(r.verdict == .defective, "\(kind): \(r.verdict)")
        }
    }

    @Test func channelProblemsAreDefects() {
        var inverted = Self.bell
        inverted.withMutableChannel(1) { p in for i in p.indices { p[i] = -p[i] } }
        let r = audition(inverted)
        #expect(r.defects == ["channel"])
        #expect(r.defectDetails.first?.evidence.contains("inverted copies (correlation -1.00): the mono mix cancels out") == true)
        var quiet = Self.bell
        quiet.withMutableChannel(1) { p in for i in p.indices { p[i] *= 0.01 } }
        #expect(audition(quiet).defects == ["channel"])
    }

    /// A channel that is partly the other inverted (a spaced pair, a phase-flipped mic) is named out of phase, not
    /// an inverted copy, with what the mono mix loses: the loss read from correlation and balance is the mix's own.
    @Test func outOfPhaseChannelsSayWhatTheMonoMixLoses() throws {
        let left = BellSignals.bell(seconds: 8, attack: 0.005, channels: 1)
        let other = BellSignals.bell([BellSignals.Partial(523, 0.2, t60: 6), BellSignals.Partial(1187, 0.1, t60: 4)], seconds: 8)
        let l = left.withChannel(0) { Array($0) }
        let o = other.withChannel(0) { Array($0) }
        let right = zip(l, o).map { -0.8 * $0 + 0.5 * $1 }
        let b = AudioBuffer(channelData: [l, right], sampleRate: left.sampleRate)
        let r = audition(b)
        #expect(r.defects == ["channel"], "\(r.defectDetails)")
        let evidence = try #require(r.defectDetails.first?.evidence)
        #expect(evidence.contains("channels are largely out of phase"), "\(evidence)")
        // The mono mix measured directly.
        var mix = 0.0
        var channels = 0.0
        for i in l.indices {
            let (x, y) = (Double(l[i]), Double(right[i]))
            mix += (x + y) * (x + y) / 4
            channels += (x * x + y * y) / 2
        }
        let loss = 10 * log10(mix / channels)
        #expect(evidence.contains("the mono mix is \(String(format: "%.1f", -loss)) dB quieter"), "\(evidence) vs \(loss)")
        #expect(BellDefect.monoMixLoss(correlation: 1, balance: 0) == 0)
        #expect(BellDefect.monoMixLoss(correlation: -1, balance: 0) == -.infinity)
    }

    /// A defective candidate says what it is underneath its defects, and whether `enso bells normalize` mends them:
    /// a bell with 1.5 s of pre-roll and a 2 % DC offset is mended (and after `BellTrim.normalize` it is bell-like
    /// with no defect); a cut tail is not, nor a true peak that −20 LUFS would leave above −1 dBTP.
    @Test func defectiveCandidatesSayWhatTheyAreUnderneathAndWhetherNormalizeMendsThem() throws {
        let loud = BellSignals.dcOffset(BellSignals.preRoll(Self.bell, seconds: 1.5), 0.02)
        let r = audition(loud)
        #expect(r.verdict == .defective && Set(r.defects) == ["dc-offset", "leading-silence"], "\(r.defectDetails)")
        #expect(r.reasons.contains { $0.hasPrefix("underneath its defects, as measured, bell-like: rings") }, "\(r.reasons)")
        #expect(r.reasons.last?.hasPrefix("`enso bells normalize` can mend this") == true, "\(r.reasons)")
        let mended = audition(try BellTrim.normalize(loud, target: BellTrim.defaultTarget).0)
        #expect(mended.verdict == .bellLike && mended.defectDetails.isEmpty, "\(mended.defectDetails)")
        let cut = audition(BellSignals.cutTail(Self.bell, below: 20))
        #expect(cut.verdict == .defective)
        #expect(cut.reasons.contains { $0.hasPrefix("underneath its defects, as measured,") }, "\(cut.reasons)")
        #expect(!cut.reasons.contains { $0.contains("can mend") }, "\(cut.reasons)")
        let clipped = audition(BellSignals.clipped(Self.bell, gain: 12))
        #expect(clipped.verdict == .defective && !clipped.reasons.contains { $0.contains("can mend") }, "\(clipped.reasons)")
    }

    @Test func fastTwoNoteChimeIsNotificationLikeAndSlowBellIsBellLike() {
        let chime = audition(BellSignals.twoNoteChime())
        #expect(chime.verdict == .notificationLike, "\(chime.reasons)")
        #expect(chime.reasons.contains { $0.contains("falls 40 dB in") })
        #expect(chime.reasons.contains { $0.contains("2 strikes") })
        let bell = audition(BellSignals.bell(seconds: 10))
        #expect(bell.verdict == .bellLike)
        #expect(bell.reasons.first?.contains("rings") == true)
    }

    @Test func singlePureShortToneIsNotificationLike() {
        let beep = BellSignals.bell([BellSignals.Partial(880, 0.3, t60: 0.5)], seconds: 0.6)
        let r = audition(beep)
        #expect(r.verdict == .notificationLike)
        #expect(r.reasons.contains { $0.contains("single pure partial") })
    }

    /// A steady tone or steady noise stopped while sounding "falls 40 dB" only at its cut: that is a truncated
    /// tail, not a bell ringing (it was bell-like before).
    @Test func sustainedSoundsCutOffAreDefectiveNotBellLike() {
        let rate = 48_000
        let tone = SignalGenerator.buffer(SignalGenerator.sine(frequency: 1000, amplitude: 0.1, frames: 4 * rate, sampleRate: rate), sampleRate: rate)
        let noise = SignalGenerator.buffer(SignalGenerator.whiteNoise(frames: 3 * rate, amplitude: 0.05, seed: 2), sampleRate: rate)
        for (name, sound) in [("tone", tone), ("noise", noise)] {
            let r = audition(sound)
            #expect(r.verdict == .defective && r.defects.contains("truncated-tail"), "\(name): \(r.verdict) \(r.reasons)")
            #expect(r.reasons.contains { $0.contains("sustained sound cut off") }, "\(name): \(r.reasons)")
        }
    }

    /// A slow bell (T60 13 s) cut at 4 s, 20 dB down and still falling 4-5 dB/s, is a truncated tail; it was
    /// reported as a noise floor at the level where it was cut.
    @Test func slowBellCutWhileRingingIsATruncatedTailNotANoiseFloor() {
        let partials = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 13) }
        let r = audition(BellSignals.bell(partials, seconds: 4))
        #expect(r.verdict == .defective && r.defects == ["truncated-tail"], "\(r.verdict) \(r.defects) \(r.reasons)")
        #expect(r.reasons.contains { $0.contains("still decaying") }, "\(r.reasons)")
    }

    @Test func badBuffersGetErrorRows() {
        let silent = AudioBuffer(channels: .stereo, frameCount: 48_000, sampleRate: .hz48000)
        #expect(audition(silent).verdict == .error)
        let tiny = Self.bell.slice(frames: 0..<240)
        #expect(audition(tiny).error?.contains("5 ms") == true)
        var nan = Self.bell
        nan[0, 1000] = .nan
        let r = audition(nan)
        #expect(r.verdict == .error && r.defects == ["non-finite"])
        let eight = AudioBuffer(channelData: Array(repeating: Array(Self.bell.channel(0)), count: 8), sampleRate: .hz48000)
        #expect(audition(eight).error?.contains("8 channels") == true)
    }

    @Test func rankingPutsBellsFirstAndProfilesShiftScores() {
        let long = audition(BellSignals.bell(seconds: 10), "long.wav")
        let chime = audition(BellSignals.twoNoteChime(), "chime.wav")
        let ranked = BellAuditionResult.ranked([chime, long])
        #expect(ranked.map(\.file) == ["long.wav", "chime.wav"] && ranked[0].rank == 1)
        let short = BellSignals.bell(BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 3) }, seconds: 4)
        let bowl = BellAudition.audition(short, file: "s", profile: .bowl).0
        let chimeProfile = BellAudition.audition(short, file: "s", profile: .chime).0
        // A 2 s decay40 earns 2/8 of the bowl's decay target but 2/2.5 of the chime's.
        #expect(chimeProfile.score > bowl.score)
        let decayTerm = bowl.scoreTerms.first { $0.name == "decay" }!
        #expect(abs(decayTerm.value - 2.0 / 8) < 0.05 * 2 / 8 + 0.01)
        #expect(abs(bowl.scoreTerms.map(\.points).reduce(0, +) - bowl.score) < 1e-9)
    }
}
