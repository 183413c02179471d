import AudioCore
import AudioDSP
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

@Suite struct BellAuditionTests {
    static let bell = BellSignals.bell(seconds: 8, attack: 0.005, channels: 2)

    func audition(_ b: AudioBuffer, _ name: String = "x.wav") -> BellAuditionResult {
        BellAudition.audition(b, file: name, profile: .temple)
    }

    /// Scales `b` so its padded integrated loudness (what `too-quiet` reads) is `target` LUFS (iterated: the gate
    /// moves with the gain).
    func atLoudness(_ b: AudioBuffer, _ target: Double) throws -> AudioBuffer {
        var out = b
        for _ in 0..<6 {
            let i = try #require(try LoudnessAnalysis.measure(out, momentaryHopSeconds: 0.1).integratedPadded)
            out = BellSignals.scaled(out, decibels: target - i)
        }
        return out
    }

    @Test func cleanOriginalsHaveNoDefectAndAreKept() {
        let r = audition(Self.bell)
        #expect(r.defectDetails.isEmpty, "\(r.defectDetails)")
        #expect(r.bellClass == .bellLike && r.verdict == .keep, "\(r.reasons)")
        #expect((r.score ?? 0) > 50)
        let beating = audition(BellSignals.bell(seconds: 8, beat: 1.2, channels: 1))
        #expect(beating.defectDetails.isEmpty && beating.verdict == .keep)
    }

    @Test func everyInjectedDefectIsDetectedWithItsSeverity() throws {
        let cases: [(AudioBuffer, BellDefect.Kind, BellDefect.Severity)] = [
            (BellSignals.clipped(Self.bell, gain: 12), .clipping, .reject),
            (BellSignals.clipped(Self.bell, gain: 12), .truePeak, .fixable),
            (BellSignals.cutTail(Self.bell, below: 20), .truncatedTail, .reject),
            (BellSignals.cutTail(Self.bell, below: 20, fade: 0.1), .truncatedTail, .reject),
            (BellSignals.preRoll(Self.bell, seconds: 1.5), .leadingSilence, .fixable),
            (BellSignals.dcOffset(Self.bell, 0.02), .dcOffset, .fixable),
            (BellSignals.noisy(Self.bell, dbfs: -45), .noiseFloor, .reject),
            (try atLoudness(Self.bell, -40), .tooQuiet, .fixable),
        ]
        for (b, kind, severity) in cases {
            let r = audition(b)
            let d = r.defectDetails.first { $0.kind == kind }
            #expect(d?.severity == severity, "\(kind): \(r.defectDetails)")
            #expect(r.bellClass == .bellLike, "\(kind): \(r.reasons)")
            let rejected = r.defectDetails.contains { $0.severity == .reject }
            #expect(r.verdict == (rejected ? .reject : .fix), "\(kind): \(r.verdict)")
            if severity == .fixable { #expect(d?.fix?.hasPrefix("mkdir -p fixed && enso bells ") == true, "\(kind)") }
        }
    }

    /// A dead or inverted channel is `fixable`: the verdict is `fix`, and the defect names the command that mends
    /// this file (the live channel by its number, the channel to invert).
    @Test func channelProblemsAreFixableDefectsAndTheClassIsReadFromAChannel() throws {
        var inverted = Self.bell
        inverted.withMutableChannel(1) { p in for i in p.indices { p[i] = -p[i] } }
        let r = audition(inverted)
        #expect(r.defects == [.channel] && r.verdict == .fix)
        #expect(r.bellClass == .bellLike, "\(r.reasons)")
        let d = try #require(r.defectDetails.first)
        #expect(d.evidence.contains("inverted copies (correlation -1.00): the mono mix cancels out"))
        #expect(
            d.severity == .fixable && d.fix == "mkdir -p fixed && enso convert x.wav fixed/x.wav --invert-channel 2",
            "\(d)")
        for dead in [0, 1] {
            var quiet = Self.bell
            quiet.withMutableChannel(dead) { p in for i in p.indices { p[i] *= 0.01 } }
            let q = audition(quiet)
            #expect(q.defects == [.channel] && q.verdict == .fix)
            let side = dead == 0 ? "the left" : "the right"
            #expect(q.defectDetails.first?.evidence.hasPrefix("\(side) channel is 40 dB quieter") == true)
            #expect(
                q.defectDetails.first?.fix
                    == "mkdir -p fixed && enso convert x.wav fixed/x.wav --use-channel \(2 - dead)",
                "\(q.defectDetails)")
        }
        // Out of phase and one channel 30 dB down: inverting would leave it dead, so the live one is the fix.
        var both = inverted
        both.withMutableChannel(1) { p in for i in p.indices { p[i] *= 0.03 } }
        #expect(
            audition(both).defectDetails.first?.fix
                == "mkdir -p fixed && enso convert x.wav fixed/x.wav --use-channel 1")
    }

    /// A channel that is partly the other inverted (a spaced pair, a phase-flipped mic) is named out of phase, not
    /// an inverted copy, with what the mono mix loses: the loss read from correlation and balance is the mix's own.
    @Test func outOfPhaseChannelsSayWhatTheMonoMixLoses() throws {
        let left = BellSignals.bell(seconds: 8, attack: 0.005, channels: 1)
        let other = BellSignals.bell(
            [BellSignals.Partial(523, 0.2, t60: 6), BellSignals.Partial(1187, 0.1, t60: 4)], seconds: 8)
        let l = left.withChannel(0) { Array($0) }
        let o = other.withChannel(0) { Array($0) }
        let right = zip(l, o).map { -0.8 * $0 + 0.5 * $1 }
        let b = AudioBuffer(channelData: [l, right], sampleRate: left.sampleRate)
        let r = audition(b)
        #expect(r.defects == [.channel], "\(r.defectDetails)")
        #expect(r.defectDetails.first?.fix == "mkdir -p fixed && enso convert x.wav fixed/x.wav --invert-channel 2")
        let evidence = try #require(r.defectDetails.first?.evidence)
        #expect(evidence.contains("channels are largely out of phase"), "\(evidence)")
        var mix = 0.0
        var channels = 0.0
        for i in l.indices {
            let (x, y) = (Double(l[i]), Double(right[i]))
            mix += (x + y) * (x + y) / 4
            channels += (x * x + y * y) / 2
        }
        let loss = 10 * log10(mix / channels)
        #expect(
            evidence.contains("the mono mix is \(String(format: "%.1f", -loss)) dB quieter"), "\(evidence) vs \(loss)")
        #expect(BellDefect.monoMixLoss(correlation: 1, balance: 0) == 0)
        #expect(BellDefect.monoMixLoss(correlation: -1, balance: 0) == -.infinity)
    }

    /// Pre-roll and DC are fixable: the verdict is `fix`, each defect names the command, and after
    /// `BellTrim.normalize` the bell is kept; a cut tail or clipping is a reject whose class is still bell-like.
    @Test func fixableDefectsNameTheirCommandAndNormalizeMendsThem() throws {
        let loud = BellSignals.dcOffset(BellSignals.preRoll(Self.bell, seconds: 1.5), 0.02)
        let r = audition(loud)
        #expect(r.verdict == .fix && Set(r.defects) == [.dcOffset, .leadingSilence], "\(r.defectDetails)")
        // The command names the file itself (issue #48 §1: no `IN OUT` to fill in).
        #expect(
            r.defectDetails.allSatisfy { $0.fix == "mkdir -p fixed && enso bells trim x.wav fixed/x.wav" },
            "\(r.defectDetails)")
        #expect(BellDefect.shellWord("my bell's.wav") == #"'my bell'\''s.wav'"#)
        let mended = audition(try BellTrim.normalize(loud, target: BellTrim.defaultTarget).0)
        #expect(mended.verdict == .keep && mended.defectDetails.isEmpty, "\(mended.defectDetails)")
        for bad in [BellSignals.cutTail(Self.bell, below: 20), BellSignals.clipped(Self.bell, gain: 12)] {
            let x = audition(bad)
            #expect(x.verdict == .reject && x.bellClass == .bellLike && x.score == nil, "\(x.reasons)")
        }
    }

    /// The thresholds of docs/bells.md, each on both sides: leading silence 185 ms (BT.1359), DC 1 % (−40 dBFS),
    /// padded loudness −35 LUFS, true peak −1 dBTP.
    /// The pre-roll is cut at the level the file is written at: a bell made quieter lost more of its slow attack
    /// under −60 dBFS, and a second normalize to the same target cut it (0.7 ms here).
    @Test func normalizeTwiceChangesNothingTheSecondTime() throws {
        let slow = BellSignals.preRoll(BellSignals.bell(seconds: 6, attack: 0.3), seconds: 0.5)
        let (once, first) = try BellTrim.normalize(slow, target: -26)
        try #require(first.gain < -3, "the case needs a bell made quieter: gain \(first.gain) dB")
        let (twice, second) = try BellTrim.normalize(once, target: -26)
        #expect(second.removedSeconds == 0)
        #expect(abs(second.gain) < 0.05 && second.iterations == 0, "\(second.gain) dB in \(second.iterations)")
        #expect(twice.frameCount == once.frameCount)
    }

    /// A bell after 0.8 s of room tone (50 dB or more under its loudest 10 ms, its samples past −60 dBFS) comes late
    /// as a bell after 0.8 s of silence does: `leading-silence` (it read none: the room tone's first sample started the
    /// sound); `trim` cuts the room tone to 10 ms, the trimmed bell is kept, and a second trim cuts nothing.
    @Test func roomToneBeforeTheStrikeIsLeadingSilenceAndTrimCutsIt() throws {
        let late = BellSignals.afterRoomTone(Self.bell, seconds: 0.8, under: 53)
        let r = audition(late)
        let evidence = r.defectDetails.first { $0.kind == .leadingSilence }?.evidence ?? ""
        #expect(
            ["0.79", "0.80"].contains { evidence == "\($0) s of silence or room tone before the strike" },
            "\(r.defectDetails)")
        #expect(r.verdict == .fix, "\(r.reasons)")
        // Up to 10 ms before the strike the sound rises over the room; 10 ms more are kept.
        let (once, first) = try BellTrim.trim(late)
        #expect(first.removedSeconds >= 0.7795 && first.removedSeconds <= 0.7905, "\(first.removedSeconds)")
        #expect(audition(once).verdict == .keep, "\(audition(once).reasons)")
        let (_, second) = try BellTrim.trim(once)
        #expect(second.removedSeconds == 0)
    }

    @Test func fixableThresholdsAreTheDocumentedOnes() throws {
        #expect(!audition(BellSignals.preRoll(Self.bell, seconds: 0.15)).defects.contains(.leadingSilence))
        #expect(audition(BellSignals.preRoll(Self.bell, seconds: 0.25)).defects.contains(.leadingSilence))
        #expect(!audition(BellSignals.dcOffset(Self.bell, 0.007)).defects.contains(.dcOffset))
        #expect(audition(BellSignals.dcOffset(Self.bell, 0.013)).defects.contains(.dcOffset))
        #expect(!audition(try atLoudness(Self.bell, -33)).defects.contains(.tooQuiet))
        #expect(audition(try atLoudness(Self.bell, -37)).defects.contains(.tooQuiet))
        #expect(BellDefect.leadingSilenceLimit == 0.185 && SignalDefectScan.audibleDCOffset == 0.01)
        #expect(BellDefect.quietLoudness == -35 && BellDefect.truePeakLimit == -1 && BellDefect.loudLoudness == -10)
    }

    /// A cut is a reject only where a listener hears it: at −30 dB re peak (reject), at −45 dB (a note, no defect),
    /// at −60 dB (nothing).
    @Test func aTruncatedTailIsARejectOnlyWhenTheCutIsAudible() {
        let loud = audition(BellSignals.cutTail(Self.bell, below: 30))
        #expect(loud.defects.contains(.truncatedTail) && loud.verdict == .reject, "\(loud.defectDetails)")
        let borderline = audition(BellSignals.cutTail(Self.bell, below: 45))
        #expect(!borderline.defects.contains(.truncatedTail), "\(borderline.defectDetails)")
        #expect(borderline.notes.contains { $0.hasPrefix("tail:") }, "\(borderline.notes)")
        let quiet = audition(BellSignals.cutTail(Self.bell, below: 60))
        #expect(
            !quiet.defects.contains(.truncatedTail) && quiet.notes.isEmpty, "\(quiet.defectDetails) \(quiet.notes)")
        #expect(BellDefect.cutAudible == -40 && BellDefect.cutNoted == -50)
    }

    /// A fast notification (T60 0.5 s, 120 dB/s) faded out over 100 ms, cut 20 dB down, loses nothing a listener would
    /// hear: it was dying faster than any ring, and its last 10 ms are faded under −40 dB. The same fade over a
    /// bell's ring (10 dB/s) is a truncated tail.
    @Test func aFadeTruncatesOnlyARingingSound() {
        let ding = BellSignals.bell(
            [BellSignals.Partial(1200, 0.4, t60: 0.5), BellSignals.Partial(2650, 0.2, t60: 0.4)], seconds: 1)
        let fast = audition(BellSignals.cutTail(ding, below: 20, fade: 0.1))
        #expect(!fast.defects.contains(.truncatedTail), "\(fast.defectDetails)")
        #expect((fast.metrics?.endLevel ?? 0) < BellDefect.cutAudible && fast.metrics?.endsWithFade == true)
        let ring = audition(BellSignals.cutTail(Self.bell, below: 20, fade: 0.1))
        #expect(ring.defects.contains(.truncatedTail), "\(ring.defectDetails)")
        #expect(ring.defectDetails.first { $0.kind == .truncatedTail }?.evidence.contains("faded out") == true)
    }

    /// A cut-off bell is classed by the decay it shows, extended to −40 dB and said so.
    @Test func aCutBellIsClassedByItsExtrapolatedDecay() throws {
        let r = audition(BellSignals.cutTail(Self.bell, below: 20))
        #expect(r.bellClass == .bellLike && r.metrics?.d40 == nil, "\(r.reasons)")
        let x = try #require(r.metrics?.d40Extrapolated)
        // Every partial has T60 6 s: 40 dB in 4 s.
        #expect(abs(x - 4) < 0.4, "\(x)")
        // The cut decided the verdict and leads; the class's reason follows it (issue #48 §3).
        #expect(r.reasons.first?.hasPrefix("reject truncated-tail") == true, "\(r.reasons)")
        #expect(r.reasons.dropFirst().first?.contains("extrapolated") == true, "\(r.reasons)")
    }

    @Test func fastTwoNoteChimeIsNotificationLikeAndSlowBellIsBellLike() {
        let chime = audition(BellSignals.twoNoteChime())
        #expect(chime.bellClass == .notificationLike && chime.verdict == .reject, "\(chime.reasons)")
        #expect(chime.reasons.first?.contains("falls 40 dB in") == true)
        let bell = audition(BellSignals.bell(seconds: 10))
        #expect(bell.bellClass == .bellLike && bell.verdict == .keep)
        #expect(bell.reasons.first?.contains("as a bell rings") == true)
    }

    /// The figure decides a long-ringing sound: three notes rising (each ringing 4 s) are a notification; the same
    /// bell struck three times is still a bell.
    @Test func aRisingFigureIsANotificationAndRepeatedStrikesAreABell() {
        let figure = audition(BellSignals.figure())
        #expect(figure.bellClass == .notificationLike, "\(figure.reasons) \(figure.metrics?.strikes ?? -1)")
        #expect(figure.reasons.first?.contains("new note") == true, "\(figure.reasons)")
        let x = BellSignals.strikes(
            BellSignals.templePartials, at: [0, 1, 2], seconds: 8, attack: 0.005, sampleRate: 48_000)
        let repeated = audition(SignalGenerator.buffer(x, sampleRate: 48_000))
        #expect(repeated.bellClass == .bellLike, "\(repeated.reasons)")
        #expect((repeated.metrics?.strikes ?? 0) >= 2 && repeated.metrics?.newNotes == 0)
    }

    /// A long decay carried by one partial is a synthesised tone, not a struck body.
    @Test func singlePureToneIsNotificationLikeHoweverLong() {
        for t60 in [0.5, 6.0] {
            let beep = BellSignals.bell([BellSignals.Partial(880, 0.3, t60: t60)], seconds: t60 < 1 ? 0.6 : 6)
            let r = audition(beep)
            #expect(r.bellClass == .notificationLike, "\(t60): \(r.reasons)")
        }
        let r = audition(BellSignals.bell([BellSignals.Partial(880, 0.3, t60: 6)], seconds: 6))
        #expect(r.reasons.first?.contains("one periodic tone") == true, "\(r.reasons)")
        // Faded out linearly over 3 s instead of decaying (sox's `fade t`): its level bows once in dB, the fade's curve
        // and no beat, so it is still one periodic tone (it read bell-like, "beating" 10.6 dB).
        let n = 3 * 48_000
        let faded = (0..<n).map { i in
            Float(0.4 * (1 - Double(i) / Double(n)) * sin(2 * Double.pi * 1318 * Double(i) / 48_000))
        }
        let tone = audition(SignalGenerator.buffer(faded, sampleRate: 48_000))
        #expect(tone.bellClass == .notificationLike, "\(tone.reasons)")
        #expect(tone.reasons.contains { $0.contains("one periodic tone") }, "\(tone.reasons)")
    }

    /// A beep held to the end of its file, cut there or faded out over 30 ms, does not fall 10 dB, so its decay cannot
    /// be told (`decay-unknown`; under 0.4 s, `decay-cut`); one periodic tone is synthesised whatever its decay, so it
    /// is notification-like all the same, not ambiguous. A held pair of inharmonic partials (a free bar's 1 : 2.76) is
    /// no tone, and its class stays the listener's; so does a click of a few milliseconds, in which no partial is read.
    @Test func aHeldBeepIsNotificationLikeThoughItsDecayCannotBeTold() {
        let rate = 48_000
        func held(_ partials: [(hertz: Double, amplitude: Double)], seconds: Double, fade: Double) -> AudioBuffer {
            let n = Int(seconds * Double(rate))
            let fadeFrames = Int(fade * Double(rate))
            return SignalGenerator.buffer(
                (0..<n).map { i in
                    let t = Double(i) / Double(rate)
                    let onset = min(1, t / 0.005)
                    let release = fadeFrames > 0 ? min(1, Double(n - i) / Double(fadeFrames)) : 1
                    let sum = partials.reduce(0.0) { $0 + $1.amplitude * sin(2 * Double.pi * $1.hertz * t) }
                    return Float(onset * release * sum)
                }, sampleRate: rate)
        }
        let tone: [(hertz: Double, amplitude: Double)] = [(880, 0.4), (1760, 0.013)]
        for (seconds, fade) in [(0.3, 0.0), (0.5, 0.0), (0.5, 0.03), (3.0, 0.03)] {
            let r = audition(held(tone, seconds: seconds, fade: fade))
            #expect(r.bellClass == .notificationLike, "\(seconds) s, fade \(fade) s: \(r.reasons)")
            #expect(r.reasons.first?.hasPrefix("one periodic tone") == true, "\(seconds) s: \(r.reasons)")
            #expect(r.defects.contains(.truncatedTail), "\(seconds) s: \(r.reasons)")
        }
        let pair = audition(held([(440, 0.3), (440 * 2.76, 0.2)], seconds: 3, fade: 0.03))
        #expect(pair.bellClass == .ambiguous, "\(pair.reasons)")
        let click = audition(held(tone, seconds: 0.006, fade: 0))
        #expect(click.bellClass == .ambiguous, "\(click.reasons)")
        // One partial read with no tonality to back it (half a second of brown noise swelling to its end: no ringing
        // to read a tonality from, a chance peak at 874 Hz) or under the `noise` rule's line is no tone: the rule
        // itself, on the reference bell's measures held to the end with that one partial.
        for tonality in [nil, 0.3, 0.99] as [Double?] {
            var m = BellAuditionMetrics.reference
            (m.decay.d20, m.decay.d40, m.decay.d40Extrapolated, m.decay.d60) = (nil, nil, nil, nil)
            m.sound.partials = [PartialAnalysis.Partial(frequency: 874, level: 0, t60: nil)]
            (m.sound.strongPartials, m.sound.beatDepth, m.sound.tonality) = (1, 0, tonality)
            let decided = BellClassRules.decayUnknown.decide(m)
            #expect(
                decided?.0 == (tonality == 0.99 ? .notificationLike : .ambiguous),
                "\(tonality ?? -1): \(decided?.1 ?? [])")
        }
    }

    /// Noise is never bell-like: white or pink, steady or decaying as slowly as a bell.
    @Test func noiseIsNeverBellLike() throws {
        for pink in [false, true] {
            for t60 in [nil, 6.0] as [Double?] {
                let r = audition(BellSignals.noiseBurst(t60: t60, pink: pink))
                #expect(r.bellClass != .bellLike && r.verdict == .reject, "pink \(pink) t60 \(t60 ?? 0): \(r.reasons)")
                #expect((r.metrics?.tonality ?? 1) < TonalityAnalysis.tonalShare)
            }
        }
        // Steady noise reads a floor right under its own peak, but that floor is the sound itself, not hiss under
        // it: the sound never rises 10 dB over it (`DecayAnalysis.overFloor`), so it is no `noise-floor` defect.
        let steady = audition(BellSignals.noiseBurst(t60: nil, pink: true))
        let floor = try #require(steady.metrics?.noiseFloor)
        #expect(try #require(steady.metrics?.peakLevel) - floor < DecayAnalysis.overFloor)
        #expect(!steady.defects.contains(.noiseFloor), "\(steady.defectDetails)")
    }

    /// A noise floor is a reject within 50 dB of the peak, and none further down; a slow bell cut while it rings
    /// keeps its partials to the end, so it is a cut tail, not a floor.
    @Test func noiseFloorIsJudgedAgainstThePeakAndNeverReadFromARingingTail() {
        #expect(audition(BellSignals.noisy(Self.bell, dbfs: -45)).defects.contains(.noiseFloor))
        #expect(!audition(BellSignals.noisy(Self.bell, dbfs: -80)).defects.contains(.noiseFloor))
        let partials = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 13) }
        let r = audition(BellSignals.bell(partials, seconds: 4))
        #expect(r.defects == [.truncatedTail], "\(r.defects) \(r.reasons)")
        #expect(r.bellClass == .bellLike)
    }

    /// A smooth 100 Hz peak that just reaches full scale is not clipping (it stays within one 16-bit step of it for
    /// under 2 samples); flattening it is.
    @Test func clippingIsAFlattenedTopNotAPeakThatTouchesFullScale() {
        let rate = 48_000
        let tone = SignalGenerator.sine(frequency: 100, amplitude: 1, frames: rate, sampleRate: rate)
        let decaying = tone.enumerated().map { $0.element * Float(exp(-Double($0.offset) / Double(rate))) }
        #expect(SignalDefectScan(SignalGenerator.buffer(decaying, sampleRate: rate)).clipRuns == 0)
        let flattened = decaying.map { min(0.8, max(-0.8, $0)) / 0.8 }
        #expect(SignalDefectScan(SignalGenerator.buffer(flattened, sampleRate: rate)).clipRuns > 0)
    }

    /// Any decodable sound gets a class: a 60 ms blip (that dies within it: 60 dB in 30 ms) is a notification, not an
    /// error.
    @Test func shortSoundsGetAVerdictNotAnError() {
        let blip = BellSignals.bell([BellSignals.Partial(1500, 0.3, t60: 0.03)], seconds: 0.06)
        let r = audition(blip)
        #expect(r.bellClass == .notificationLike && r.verdict == .reject && r.error == nil, "\(r.reasons)")
        #expect(r.reasons.first == "only 60 ms long: far too short for a bell", "\(r.reasons)")
        let tiny = audition(Self.bell.slice(frames: 0..<240))
        #expect(tiny.bellClass == .notificationLike && tiny.error == nil)
    }

    @Test func badBuffersGetErrorRowsAndNonFiniteSamplesAReject() {
        let silent = AudioBuffer(channels: .stereo, frameCount: 48_000, sampleRate: .hz48000)
        #expect(audition(silent).verdict == .error && audition(silent).bellClass == nil)
        var nan = Self.bell
        nan[0, 1000] = .nan
        let r = audition(nan)
        #expect(r.verdict == .reject && r.defects == [.nonFinite] && r.bellClass == .bellLike, "\(r.defectDetails)")
        let eight = AudioBuffer(
            channelData: Array(repeating: Array(Self.bell.channel(0)), count: 8), sampleRate: .hz48000)
        #expect(audition(eight).error?.message.contains("8 channels") == true)
    }

    /// A file whose every sample is NaN or infinite, or whose finite samples are silent, is `non-finite` as a file
    /// with a few NaN is (it was called "silent: no sample above −60 dBFS"): an error row, with no sound to measure,
    /// that names the defect.
    @Test func allNonFiniteSamplesAreNonFiniteNotSilent() {
        let all = AudioBuffer(channelData: [[Float](repeating: .nan, count: 48_000)], sampleRate: .hz48000)
        let r = audition(all)
        #expect(r.verdict == .error && r.defects == [.nonFinite] && r.bellClass == nil, "\(r.reasons)")
        #expect(r.reasons == ["non-finite: all 48000 samples are NaN or infinite: no sound to measure"], "\(r.reasons)")
        #expect(r.error?.message.contains("non-finite: all 48000 samples") == true, "\(String(describing: r.error))")
        var one = [Float](repeating: 0, count: 48_000)
        one[96] = .infinity
        let s = audition(AudioBuffer(channelData: [one], sampleRate: .hz48000))
        #expect(s.verdict == .error && s.defects == [.nonFinite], "\(s.reasons)")
        #expect(
            s.reasons.first
                == "non-finite: 1 NaN or infinite sample, the first at 0.002 s, and no other sample above −60 dBFS: "
                + "no sound to measure", "\(s.reasons)")
        // Digital silence is still silent.
        let silent = AudioBuffer(channelData: [[Float](repeating: 0, count: 48_000)], sampleRate: .hz48000)
        #expect(audition(silent).reasons == ["silent: no sample above −60 dBFS"])
    }

    /// A file the single-file commands refuse to read (NaN or infinite samples: `trim` and `normalize` exit 1; a
    /// damaged stream: exit 2) gets no fix command for its fixable defects: it is a reject, and a command that fails
    /// is no fix. The same sound whole names its command.
    @Test func aFileNoCommandReadsGetsNoFixCommand() throws {
        let loud = BellSignals.scaled(Self.bell, decibels: 6)
        let whole = audition(loud)
        let peak = try #require(whole.defectDetails.first { $0.kind == .truePeak }, "\(whole.defectDetails)")
        #expect(peak.fix?.hasPrefix("mkdir -p fixed && enso bells normalize --target -20 x.wav fixed/x.wav") == true)
        var nan = loud
        nan[0, 1000] = .nan
        let n = audition(nan)
        #expect(n.verdict == .reject && n.defects.contains(.truePeak) && n.defects.contains(.nonFinite))
        #expect(n.defectDetails.allSatisfy { $0.fix == nil }, "\(n.defectDetails)")
        let cut = BellAudition.audition(loud, file: "x.wav", profile: .temple, truncatedStream: true)
        #expect(cut.defects.contains(.truePeak) && cut.defects.contains(.damagedStream), "\(cut.defects)")
        #expect(cut.defectDetails.allSatisfy { $0.fix == nil }, "\(cut.defectDetails)")
    }

    /// A bell whose true peak the default target would put over −1 dBTP gets a normalize to the loudest level it can
    /// reach (``BellTrim/commandTarget(_:target:)``, the level `bells fix` reaches), which succeeds; the plain
    /// target would be refused.
    @Test func aPeakyBellsFixNamesTheTargetItCanReach() throws {
        let peaky = Self.peaky
        let r = audition(peaky)
        let d = try #require(r.defectDetails.first { $0.kind == .truePeak }, "\(r.defectDetails)")
        let target = try #require(BellTrim.commandTarget(peaky, target: BellTrim.defaultTarget))
        #expect(target < BellTrim.defaultTarget - 1, "\(target)")
        #expect(
            d.fix
                == "mkdir -p fixed && enso bells normalize --target \(String(format: "%g", target)) x.wav fixed/x.wav",
            "\(d)")
        #expect(throws: EnsoError.self) { try BellTrim.normalize(peaky, target: BellTrim.defaultTarget) }
        let mended = try BellTrim.normalize(peaky, target: target).1
        #expect((mended.truePeak ?? 0) <= BellTrim.defaultMaxTruePeak, "\(mended)")
        // Judged for a pack, the pack's target is the one capped.
        let pack = AssetPack.Kind.bell.loudnessTarget
        let packs = BellAudition.audition(peaky, file: "x.wav", profile: .temple, normalizeTarget: pack)
        let packTarget = try #require(BellTrim.commandTarget(peaky, target: pack))
        let packFix = packs.defectDetails.first { $0.kind == .truePeak }?.fix
        #expect(
            packFix?.contains("--target \(String(format: "%g", packTarget)) ") == true, "\(String(describing: packFix))"
        )
    }

    /// A quiet bell with a sharp strike: a 1 ms pulse on its crest up to −0.2 dBFS, the bell 20 dB down, so its true
    /// peak is some 25 dB over its loudness (a struck body's crest is 15–20 dB).
    static let peaky: AudioBuffer = {
        var samples = Array(BellSignals.scaled(BellSignals.bell(seconds: 8), decibels: -20).channel(0))
        let crest = samples.indices.max { samples[$0] < samples[$1] }!
        for k in 0..<48 where crest - 24 + k >= 0 {
            samples[crest - 24 + k] += 0.9 * Float(sin(Double.pi * Double(k) / 48))
        }
        return AudioBuffer(channelData: [samples], sampleRate: .hz48000)
    }()

    /// Rank order keep, fix, listen, reject, error; a clipped or truncated bell never scores above a clean one (a
    /// reject has no score), and its JSON score is null.
    @Test func rankingFollowsTheVerdictsAndRejectsHaveNoScore() throws {
        let keep = audition(BellSignals.bell(seconds: 10), "keep.wav")
        let fix = audition(BellSignals.preRoll(BellSignals.bell(seconds: 10), seconds: 1), "fix.wav")
        let clipped = audition(BellSignals.clipped(BellSignals.bell(seconds: 10), gain: 12), "clipped.wav")
        let cut = audition(BellSignals.cutTail(BellSignals.bell(seconds: 10), below: 20), "cut.wav")
        let chime = audition(BellSignals.twoNoteChime(), "chime.wav")
        let error = BellAudition.errorResult("missing.wav", "missing.wav: No such file or directory")
        let ranked = BellAuditionResult.ranked([error, chime, cut, clipped, fix, keep])
        #expect(ranked.map(\.verdict) == [.keep, .fix, .reject, .reject, .reject, .error], "\(ranked.map(\.verdict))")
        #expect(ranked.first?.file == "keep.wav" && ranked[1].file == "fix.wav")
        #expect(clipped.score == nil && cut.score == nil && clipped.scoreTerms.isEmpty)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(clipped)) as! [String: Any]
        #expect(
            json["score"] is NSNull && json["class"] as? String == "bell-like" && json["verdict"] as? String == "reject"
        )
    }

    /// Copies of one sound at other gains score alike but for the arithmetic's last digits: they rank as equals, by
    /// file name, not by those digits; a hundredth of a point still ranks.
    @Test func scoresEqualToAHundredthRankByFileName() {
        var rows = ["c.wav", "a.wav", "b.wav", "d.wav"].map { BellAudition.errorResult($0, "") }
        for (i, score) in [75.017_848, 75.017_847, 75.017_849, 75.03].enumerated() {
            (rows[i].verdict, rows[i].score, rows[i].error) = (.keep, score, nil)
        }
        #expect(BellAuditionResult.ranked(rows).map(\.file) == ["d.wav", "a.wav", "b.wav", "c.wav"])
    }

    @Test func profilesShiftScores() {
        let short = BellSignals.bell(
            BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 3) }, seconds: 4)
        let bowl = BellAudition.audition(short, file: "s", profile: .bowl)
        let chimeProfile = BellAudition.audition(short, file: "s", profile: .chime)
        // A 2 s decay40 earns 2/8 of the bowl's decay target but 2/2.5 of the chime's.
        #expect((chimeProfile.score ?? 0) > (bowl.score ?? 0))
        let decayTerm = bowl.scoreTerms.first { $0.name == "decay" }!
        #expect(abs(decayTerm.value - 2.0 / 8) < 0.05 * 2 / 8 + 0.01)
        #expect(abs(bowl.scoreTerms.map(\.points).reduce(0, +) - (bowl.score ?? -1)) < 1e-9)
    }

    /// The class thresholds of docs/bells.md on both sides: 0.4 s shortest; 10 dB of decay before extrapolating;
    /// 1.5 s to fall 40 dB.
    @Test func classThresholdsAreTheDocumentedOnes() {
        let bell = BellSignals.bell(seconds: 8)
        func cut(_ seconds: Double) -> AudioBuffer { bell.slice(frames: 0..<Int(seconds * 48_000)) }
        // 0.39 s of a sound that dies within it is too short; 0.39 s of a bell cut while it rings is a cut
        // (`BellCutAndHumTests`).
        let quick = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 0.1) }
        #expect(audition(BellSignals.bell(quick, seconds: 0.39)).reasons.first?.contains("far too short") == true)
        #expect(audition(cut(0.41)).reasons.first?.contains("far too short") != true)
        // 0.5 s of a bell falling 10 dB/s: about 5 dB seen, too little to extrapolate.
        let half = audition(cut(0.5))
        #expect(half.bellClass == .ambiguous && half.verdict == .reject, "\(half.reasons)")
        // 2 s: about 20 dB seen, extrapolated to 4 s.
        #expect(audition(cut(2)).bellClass == .bellLike)
        let partials = { (t60: Double) in
            BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: t60) }
        }
        // T60 1.8 s: 40 dB in 1.2 s; T60 3 s: 40 dB in 2 s.
        #expect(audition(BellSignals.bell(partials(1.8), seconds: 4)).bellClass == .notificationLike)
        #expect(audition(BellSignals.bell(partials(3), seconds: 4)).bellClass == .bellLike)
        #expect(BellClass.shortest == 0.4 && BellClass.ringing == 1.5 && TonalityAnalysis.tonalShare == 0.5)
        #expect(StrikeFigure.noteLevel == -10)
    }

    /// Too loud above −10 LUFS (padded), true peak above −1 dBTP: both fixable by `normalize`.
    @Test func loudnessAndTruePeakThresholds() throws {
        let loud = audition(try atLoudness(Self.bell, -8))
        #expect(loud.defectDetails.first { $0.kind == .tooLoud }?.severity == .fixable, "\(loud.defectDetails)")
        #expect(!audition(try atLoudness(Self.bell, -12)).defects.contains(.tooLoud))
        let tp = try #require(try LoudnessAnalysis.measure(Self.bell).truePeak)
        #expect(audition(BellSignals.scaled(Self.bell, decibels: -0.5 - tp)).defects.contains(.truePeak))
        #expect(!audition(BellSignals.scaled(Self.bell, decibels: -1.5 - tp)).defects.contains(.truePeak))
    }
}
