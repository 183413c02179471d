import AudioCore
import AudioDSP
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// The judgment holds on what a listener hears, not on how the file was made: each rule that once moved with a change
/// nobody hears (gain, sample rate, a few ms of silence before the sound, an offset's start) on both sides of its line,
/// and a few corpus-like cases judged alike at 22.05, 48 and 96 kHz and 20 dB down (docs/bells.md, "Invariance").
@Suite struct BellJudgmentInvarianceTests {
    typealias P = BellSignals.Partial

    func audition(_ b: AudioBuffer) -> BellAuditionResult {
        BellAudition.audition(b, file: "x.wav", profile: .temple)
    }

    /// A singing bowl struck with a soft mallet: the fundamental split into a beating pair (0.7 Hz apart), its
    /// inharmonic upper modes (2.71×, 5.13×) 28 and 33 dB down: a single strong partial, yet a struck body. The same
    /// shape with harmonic upper partials and no beating is one periodic tone, a synthesised ding.
    @Test func aSoftStruckBowlIsAStruckBodyAndOnePeriodicToneIsNot() {
        func db(_ x: Double) -> Double { 0.3 * pow(10, x / 20) }
        let modes = [P(220, 0.3, t60: 12), P(596.2, db(-28), t60: 8), P(1128.6, db(-33), t60: 5)]
        let bowl = audition(BellSignals.bell(modes, seconds: 8, attack: 0.02, beat: 0.7))
        #expect((bowl.metrics?.beatDepth ?? 0) >= BellClass.splitModeBeat)
        #expect(bowl.bellClass == .bellLike, "\(bowl.reasons)")
        // Without the beating: one strong partial (the rule before called it a synthesised tone), yet its inharmonic
        // modes, heard within 40 dB, make it a struck body.
        let still = audition(BellSignals.bell(modes, seconds: 8, attack: 0.02))
        #expect(still.metrics?.strongPartials == 1, "\(still.metrics?.partials ?? [])")
        #expect(still.bellClass == .bellLike, "\(still.reasons)")
        #expect((still.metrics?.beatDepth ?? 9) < BellClass.splitModeBeat)
        // The same levels on harmonics (2×, 3×), no beating: a periodic tone.
        let harmonic = [P(220, 0.3, t60: 12), P(440, db(-28), t60: 8), P(660, db(-33), t60: 5)]
        let tone = audition(BellSignals.bell(harmonic, seconds: 8, attack: 0.02))
        #expect(tone.bellClass == .notificationLike, "\(tone.reasons)")
        #expect(tone.reasons.first?.contains("one periodic tone") == true, "\(tone.reasons)")
        // An inharmonic partial 45 dB down is not heard in the ring: still one tone; 35 dB down it is heard.
        let faint = audition(BellSignals.bell([P(220, 0.3, t60: 12), P(596.2, db(-45), t60: 8)], seconds: 8))
        #expect(faint.bellClass == .notificationLike, "\(faint.reasons)")
        let heard = audition(BellSignals.bell([P(220, 0.3, t60: 12), P(596.2, db(-35), t60: 8)], seconds: 8))
        #expect(heard.bellClass == .bellLike, "\(heard.reasons)")
        #expect(BellClass.heardPartial == -40 && BellClass.harmonicReach == 0.06 && BellClass.splitModeBeat == 1)
    }

    /// A blip that dies at 100 dB/s and ends in a 150 ms fade has a decay (the fade only hastens what was already
    /// dying faster than a bell): it is measured through the fade, where it used to stop at the fade's start. A ringing
    /// bell faded 8 dB down is a cut whose decay is unknown.
    @Test func aFadeOverAFastDecayIsPartOfTheDecay() {
        let blip = [P(1425, 0.4, t60: 0.6), P(2890, 0.1, t60: 0.5)]
        let faded = BellSignals.cutTail(BellSignals.bell(blip, seconds: 1), below: 35, fade: 0.15)
        let fast = audition(BellSignals.preRoll(faded, seconds: 0.1))
        #expect(fast.metrics?.endsWithFade == true)
        #expect(fast.metrics?.d40 != nil && fast.bellClass == .notificationLike, "\(fast.reasons)")
        #expect(!fast.defects.contains(.truncatedTail), "\(fast.defectDetails)")
        let ring = audition(BellSignals.cutTail(BellSignals.bell(seconds: 8), below: 8, fade: 0.1))
        #expect(ring.metrics?.d40 == nil && ring.bellClass == .ambiguous, "\(ring.reasons)")
        #expect(ring.defects.contains(.truncatedTail), "\(ring.defectDetails)")
    }

    /// A bell with a 10 % offset that starts 50 ms into the file (its pre-roll is zeros): the offset is a defect,
    /// but the silence after the ring stays silent for the analyses (removing the file's mean used to leave 0.2 % of
    /// offset over the tail, read as a sound still going). The same bell with its offset from the first sample.
    @Test func anOffsetThatStartsLateLeavesTheTailSilent() {
        let bell = BellSignals.bell(seconds: 8)
        for lead in [0.0, 0.05] {
            let r = audition(BellSignals.preRoll(BellSignals.dcOffset(bell, 0.1), seconds: lead))
            #expect(r.defects == [.dcOffset], "lead \(lead): \(r.defectDetails)")
            #expect(r.bellClass == .bellLike && r.metrics?.d40 != nil, "lead \(lead): \(r.reasons)")
        }
        #expect(BellAudition.dcBlockerHertz == 4)
    }

    /// The strikes found do not move with the file's gain: the first note of a figure, whose flux is its whole
    /// spectrum against the silence before the file, counts the same at 0, −20 and −40 dB.
    @Test func strikesDoNotMoveWithGain() {
        let cases = [
            BellSignals.figure(),
            BellSignals.twoNoteChime(),
            SignalGenerator.buffer(
                BellSignals.strikes(
                    BellSignals.templePartials, at: [0, 1, 2], seconds: 6, attack: 0.005, sampleRate: 48_000),
                sampleRate: 48_000),
        ]
        for (i, b) in cases.enumerated() {
            let reference = OnsetAnalysis(b).onsetTimes
            for gain in [-20.0, -40.0] {
                let quieter = OnsetAnalysis(BellSignals.scaled(b, decibels: gain)).onsetTimes
                #expect(quieter == reference, "case \(i) at \(gain) dB: \(quieter) against \(reference)")
            }
        }
        #expect(OnsetAnalysis.fluxKneeDecibels == 100)
    }

    /// Two bells a fourth apart, the second the louder (so the main strike): the first, at the file's first sample,
    /// brings a new pitch whether the file starts with it or 50 ms before it (its "before" is the silence before the
    /// file, not the first frame, which already holds it). The same bell struck twice is not a figure.
    @Test func aFigureThatStartsAtTheFirstSampleIsStillAFigure() {
        let rate = 48_000
        let high = BellSignals.templePartials
        let low = high.map { P($0.frequency * 0.75, $0.amplitude * 1.3, t60: $0.t60) }
        let louder = high.map { P($0.frequency, $0.amplitude * 1.3, t60: $0.t60) }
        func pair(_ first: [P], _ second: [P]) -> AudioBuffer {
            let a = BellSignals.strikes(first, at: [0], seconds: 6, attack: 0.002, sampleRate: rate)
            let b = BellSignals.strikes(second, at: [0.6], seconds: 6, attack: 0.002, sampleRate: rate)
            return SignalGenerator.buffer(zip(a, b).map { $0 + $1 }, sampleRate: rate)
        }
        for lead in [0.0, 0.05] {
            let r = audition(BellSignals.preRoll(pair(high, low), seconds: lead))
            #expect(r.metrics?.strikes == 2 && (r.metrics?.newNotes ?? 0) >= 1, "lead \(lead): \(r.reasons)")
            #expect(r.bellClass == .notificationLike, "lead \(lead): \(r.reasons)")
            let same = audition(BellSignals.preRoll(pair(high, louder), seconds: lead))
            #expect(same.metrics?.strikes == 2 && same.metrics?.newNotes == 0, "lead \(lead): \(same.reasons)")
            #expect(same.bellClass == .bellLike, "lead \(lead): \(same.reasons)")
        }
    }

    /// Corpus-like cases judged alike at 22.05, 48 and 96 kHz and 20 dB down: the class, and every defect that does
    /// not depend on the level by definition (too quiet, too loud, true peak, clipping at full scale and the DC
    /// offset's 1 % of full scale do).
    @Test func theJudgmentHoldsAcrossRatesAndGain() {
        let levelDefects: Set<BellDefect.Kind> = [.tooQuiet, .tooLoud, .truePeak, .clipping, .dcOffset]
        let cases: [(String, (Int) -> AudioBuffer)] = [
            ("bell", { BellSignals.bell(seconds: 6, sampleRate: $0) }),
            ("beating bell", { BellSignals.bell(seconds: 6, beat: 0.8, sampleRate: $0) }),
            ("ding-dong", { BellSignals.twoNoteChime(sampleRate: $0) }),
            ("arpeggio", { BellSignals.figure(sampleRate: $0) }),
            ("cut bell", { BellSignals.cutTail(BellSignals.bell(seconds: 6, sampleRate: $0), below: 25) }),
            (
                "late offset",
                {
                    let offset = BellSignals.dcOffset(BellSignals.bell(seconds: 6, sampleRate: $0), 0.05)
                    return BellSignals.preRoll(offset, seconds: 0.05)
                }
            ),
        ]
        for (name, make) in cases {
            let reference = audition(make(48_000))
            let refDefects = Set(reference.defects).subtracting(levelDefects)
            var variants = [("-20 dB", BellSignals.scaled(make(48_000), decibels: -20))]
            for rate in [22_050, 96_000] { variants.append(("\(rate) Hz", make(rate))) }
            for (label, b) in variants {
                let r = audition(b)
                #expect(r.bellClass == reference.bellClass, "\(name), \(label): \(r.reasons), not \(reference.reasons)")
                let defects = Set(r.defects).subtracting(levelDefects)
                #expect(defects == refDefects, "\(name) at \(label): \(r.defects), not \(reference.defects)")
            }
        }
    }
}
