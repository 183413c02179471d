import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

@Suite struct DecayAnalysisTests {
    @Test func levelDropsAndSchroederTimesMatchTheSynthesisedDecay() throws {
        for t60 in [2.0, 6.0] {
            let partials = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: t60) }
            let b = BellSignals.bell(partials, seconds: t60 * 1.3, attack: 0.005)
            let d = try #require(DecayAnalysis(b))
            // d40 and T20 within 5 % of the synthesised decay (every partial decays at T60).
            let d40 = try #require(d.d40)
            let t20 = try #require(d.t20)
            #expect(abs(d40 - t60 * 40 / 60) <= 0.05 * t60 * 40 / 60, "d40 \(d40) for T60 \(t60)")
            #expect(abs(t20 - t60) <= 0.05 * t60, "T20 \(t20) for T60 \(t60)")
            #expect(abs(try #require(d.t30) - t60) <= 0.05 * t60)
            #expect(abs(try #require(d.edt) - t60) <= 0.05 * t60)
            #expect(!d.ringingAtEnd)
        }
    }

    @Test func noiseFloorIsFoundAndKeptOutOfT20() throws {
        let partials = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 3) }
        let b = BellSignals.noisy(BellSignals.bell(partials, seconds: 6), dbfs: -60)
        let d = try #require(DecayAnalysis(b))
        // The noise is −60 dBFS RMS; the median of a 10 ms RMS envelope of Gaussian noise sits within 1 dB.
        #expect(abs(try #require(d.noiseFloor) + 60) <= 1)
        #expect(abs(try #require(d.t20) - 3) <= 0.05 * 3)
        #expect(d.d60 == nil, "−60 dB below the peak is under the floor")
        #expect(!d.ringingAtEnd)
    }

    /// A ring that fades into a steady noise and sinks under it before the file ends (T60 6 s over noise at −50 dBFS,
    /// 36 dB under its peak): the tail is carried by the ring's partials on the whole, but its last half is the noise,
    /// and the file ends on its floor, not on a cut. Before, only a tail that was noise on the whole read a floor, and
    /// such a file read as a sound stopped 35 dB under its peak. A ring still over the noise to the end (T60 8 s) is
    /// the sound, cut.
    @Test func aRingSinkingIntoASteadyNoiseEndsOnItsFloor() throws {
        func ring(t60: Double) -> (AudioBuffer, tail: Double?, end: Double?) {
            let partials = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: t60) }
            let b = BellSignals.noisy(BellSignals.bell(partials, seconds: 4), dbfs: -50)
            let s = Spectrogram(b)
            let inside = s.frameCount - 2
            let tail = (inside * 4 / 5)..<inside
            let end = (inside - tail.count / 2)..<inside
            return (b, TonalityAnalysis.tonality(s, frames: tail), TonalityAnalysis.tonality(s, frames: end))
        }
        let (sinking, tail, end) = ring(t60: 6)
        #expect(try #require(tail) >= TonalityAnalysis.tonalShare && (try #require(end)) < TonalityAnalysis.tonalShare)
        let d = try #require(DecayAnalysis(sinking))
        // The floor is the level of the tail's last half: the noise, and the ring's last partials with under half of
        // the power there (the half is noise-like), so at most 3 dB over the noise alone.
        let floor = try #require(d.noiseFloor)
        #expect(floor >= -50.5 && floor <= -47, "\(floor)")
        #expect(!d.ringingAtEnd, "ends \(d.endLevel) dB, \(d.endSlope) dB/s")
        let (over, _, overEnd) = ring(t60: 8)
        #expect(try #require(overEnd) >= TonalityAnalysis.tonalShare)
        let cut = try #require(DecayAnalysis(over))
        #expect(cut.noiseFloor == nil && cut.ringingAtEnd, "\(String(describing: cut.noiseFloor))")
    }

    @Test func truncatedTailIsRingingAtEndWithAndWithoutFade() throws {
        let b = BellSignals.bell(seconds: 8)
        let cut = try #require(DecayAnalysis(BellSignals.cutTail(b, below: 20)))
        #expect(cut.ringingAtEnd && !cut.endsWithFade)
        let faded = try #require(DecayAnalysis(BellSignals.cutTail(b, below: 20, fade: 0.1)))
        #expect(faded.ringingAtEnd && faded.endsWithFade)
        #expect(cut.d40 == nil)
    }

    /// A slow bell cut off while it rings falls through its last second almost as steadily as a floor lies flat
    /// (4-5 dB/s against ±5 dB/s of noise-floor tolerance): its tail is no noise floor, it is a cut, with or without
    /// beating. A slow bell that does settle on a floor keeps it.
    @Test func slowBellCutWhileRingingHasNoNoiseFloor() throws {
        for beat: Double? in [nil, 0.9] {
            let partials = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 13) }
            let cut = try #require(DecayAnalysis(BellSignals.bell(partials, seconds: 4, beat: beat)))
            #expect(cut.noiseFloor == nil, "beat \(String(describing: beat)): floor \(cut.noiseFloor ?? 0)")
            #expect(cut.ringingAtEnd, "beat \(String(describing: beat)): ends \(cut.endLevel) dB, \(cut.endSlope) dB/s")
        }
        let slow = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 8) }
        let settled = try #require(DecayAnalysis(BellSignals.noisy(BellSignals.bell(slow, seconds: 12), dbfs: -55)))
        #expect(abs(try #require(settled.noiseFloor) + 55) <= 1.5)
        #expect(!settled.ringingAtEnd)
    }

    /// A tone that never decays and stops while sounding is cut off, however short: the stop itself is heard. Steady
    /// noise is a noise floor (stationary, no partials), not a cut; a tail resting on a noise floor is not cut.
    @Test func sustainedSoundCutOffIsRingingAtEnd() throws {
        let rate = 48_000
        let tone = SignalGenerator.buffer(
            SignalGenerator.sine(frequency: 1000, amplitude: 0.3, frames: 4 * rate, sampleRate: rate), sampleRate: rate)
        let d = try #require(DecayAnalysis(tone))
        #expect(d.ringingAtEnd && !d.endsWithFade && d.endSlope >= -1 && abs(d.cutLevel) < 1)
        let noise = SignalGenerator.buffer(
            SignalGenerator.whiteNoise(frames: 3 * rate, amplitude: 0.2, seed: 5), sampleRate: rate)
        let n = try #require(DecayAnalysis(noise))
        #expect(n.noiseFloor != nil && !n.ringingAtEnd, "steady noise is a floor")
        let beep = SignalGenerator.buffer(
            SignalGenerator.sine(frequency: 1000, amplitude: 0.3, frames: rate / 2, sampleRate: rate), sampleRate: rate)
        #expect(try #require(DecayAnalysis(beep)).ringingAtEnd, "a 0.5 s beep stopped at full level")
        let partials = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 1) }
        let settled = BellSignals.noisy(BellSignals.bell(partials, seconds: 4), dbfs: -55)
        #expect(!(try #require(DecayAnalysis(settled)).ringingAtEnd), "a tail resting on its noise floor")
    }

    /// A final fade is not the sound's decay: a bell (40 dB in 4 s) cut 20 dB down with a 100 ms fade has no
    /// measured d40, and its decay is extrapolated from what precedes the fade.
    @Test func aFinalFadeIsNotTheDecay() throws {
        let d = try #require(DecayAnalysis(BellSignals.cutTail(BellSignals.bell(seconds: 8), below: 20, fade: 0.1)))
        #expect(d.endsWithFade && d.d40 == nil)
        let x = try #require(d.d40Extrapolated)
        #expect(abs(x - 4) < 0.4, "\(x)")
        #expect(d.cutLevel > -25 && d.ringingAtEnd, "\(d.cutLevel)")
    }

    /// A decay that meets a noise floor 30–34 dB under its peak is extrapolated from the sound's own level (the
    /// floor's power taken out) at the rate it fell where last seen, not from the noise that holds the level up: a bell
    /// falling 40 dB in 2.67 s over white noise, and a ring whose bright partials die first (fast, then slow: 40 dB in
    /// 4.2 s), read within 10 % of their clean d40. The line from −3 dB through the noise-lifted levels read the
    /// second 24 % long (5.2 s).
    @Test func aDecayMeetingItsFloorIsExtrapolatedFromTheSoundAlone() throws {
        let twoRates = [
            BellSignals.Partial(310, 0.10, t60: 8), BellSignals.Partial(592, 0.20, t60: 1),
            BellSignals.Partial(845, 0.15, t60: 0.8), BellSignals.Partial(1273, 0.10, t60: 0.6),
        ]
        let even = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 4) }
        for (name, partials) in [("one rate", even), ("bright partials first", twoRates)] {
            let clean = try #require(DecayAnalysis(BellSignals.bell(partials, seconds: 8)))
            let truth = try #require(clean.d40, "\(name)")
            for dbfs in [-44.0, -48] {
                let d = try #require(
                    DecayAnalysis(BellSignals.noisy(BellSignals.bell(partials, seconds: 8), dbfs: dbfs)))
                #expect(d.noiseFloor != nil && d.d40 == nil, "\(name), \(dbfs) dBFS: floor \(d.noiseFloor ?? 0)")
                let x = try #require(d.d40Extrapolated, "\(name), \(dbfs) dBFS")
                #expect(abs(x / truth - 1) < 0.1, "\(name), \(dbfs) dBFS: \(x) s against \(truth) s")
            }
        }
    }

    /// A ring whose bright partials die first falls fast at its start and slower as it goes: cut 25 dB down with a
    /// 50 ms fade (the corpus's `cut30fade` construction), it was still ringing under the fade, though its rate over the
    /// last second, from the peak, is faster than a bell's. The fade hides a cut; the level it hides is its
    /// `cutLevel`, and the rate it was ringing at there its `endSlope`. Read over the last second alone, the fade was
    /// "more of a fast decay" and the cut passed.
    @Test func aFadeOverARingStillFallingSlowerThanItsStartHidesACut() throws {
        let partials = [
            BellSignals.Partial(310, 0.06, t60: 4), BellSignals.Partial(592, 0.20, t60: 1.2),
            BellSignals.Partial(845, 0.15, t60: 1), BellSignals.Partial(1273, 0.10, t60: 0.8),
        ]
        let ring = BellSignals.bell(partials, seconds: 4)
        let d = try #require(DecayAnalysis(BellSignals.cutTail(ring, below: 25, fade: 0.05)))
        #expect(d.endsWithFade && d.ringingAtEnd, "end \(d.endLevel) dB, cut \(d.cutLevel) dB, \(d.endSlope) dB/s")
        #expect(d.cutLevel > -30 && d.cutLevel < -20, "\(d.cutLevel)")
        #expect(-d.endSlope <= DecayAnalysis.ringingRate, "\(d.endSlope)")
        #expect(d.d40 == nil, "the fade is no part of the decay: \(d.d40 ?? 0)")
        // Over the last second the same ring, uncut, falls faster than a bell: the reading the fade was judged by.
        let whole = try #require(DecayAnalysis(ring.slice(frames: 0..<Int(0.9 * 48_000))))
        #expect(-whole.endSlope > DecayAnalysis.ringingRate, "\(whole.endSlope)")
    }

    /// Where a decay was last seen: its last 10 dB (all of a fall of less, at least four values), after the last top
    /// it climbed to by 6 dB.
    @Test func theLastFallIsReadFromItsLastRiseOverItsLastTenDecibels() {
        #expect(Array(DecayAnalysis.lastTenDecibels([0, -2, -5, -9, -11, -14, -20])) == [-9, -11, -14, -20])
        #expect(Array(DecayAnalysis.lastTenDecibels([0, -1, -2, -3, -4])) == [0, -1, -2, -3, -4])
        #expect(Array(DecayAnalysis.lastTenDecibels([-3, -4])) == [-3, -4])
        // A note after a quieter one's decay (a 7 dB climb) starts the fall again; a 3 dB ripple does not.
        #expect(Array(DecayAnalysis.sinceLastRise([0, -10, -12, -5, -8, -20])) == [-5, -8, -20])
        #expect(Array(DecayAnalysis.sinceLastRise([0, -10, -12, -9, -14, -20])) == [0, -10, -12, -9, -14, -20])
    }

    @Test func edgesArePaddedWithEdgeValuesNotZeros() {
        let tone = SignalGenerator.buffer(
            SignalGenerator.sine(frequency: 1000, frames: 4800, sampleRate: 48_000), sampleRate: 48_000)
        let env = AmplitudeEnvelope(tone, windowSeconds: 0.01, hopSeconds: 0.001)
        let db = env.decibels()
        // A steady sine of 0.5 peak is −9.03 dBFS RMS at both ends; zero padding would read 3 dB low there.
        #expect(abs(db.first! + 9.03) < 0.1 && abs(db.last! + 9.03) < 0.1)
    }

    /// A 660 Hz ring falling 40 dB in 1.5 s whose level wobbles every 60 ms (tops at 0.04 s, 0.10 s, …), the part
    /// from 0.07 s on raised so that the second top lies `second` dB over the first.
    static func twoTops(second: Double) -> AudioBuffer {
        let rate = 48_000
        let fall = DecayAnalysis.ringingRate * log(10) / 20
        let raise = pow(10, (second + DecayAnalysis.ringingRate * 0.06) / 20)
        let samples = (0..<(2 * rate)).map { i -> Float in
            let t = Double(i) / Double(rate)
            let wobble = 1 + 0.5 * cos(2 * Double.pi * (t - 0.04) / 0.06)
            let level = min(1, t / 0.005) * exp(-fall * t) * wobble * (t < 0.07 ? 1 : raise)
            return Float(0.2 * level * sin(2 * Double.pi * 660 * t))
        }
        return SignalGenerator.buffer(samples, sampleRate: rate)
    }

    /// Read under a clipping, tops of the envelope closer than ``ClippedTops/peakTolerance`` are one peak and the
    /// decay is measured from the first: with the second top 0.3 dB over the first the peak is the first (0.04 s)
    /// and the sound falls 40 dB 0.06 s later from it, its level still the loudest; a second top 1 dB over the first
    /// is the peak; and a sound read as it is (no tolerance) takes its loudest value, as before.
    @Test func underTheClippingTopsCloserThanTheReadingCanOrderAreOnePeak() throws {
        let close = Self.twoTops(second: 0.3)
        let asItIs = try #require(DecayAnalysis(close))
        let clipped = try #require(DecayAnalysis(close, peakTolerance: ClippedTops.peakTolerance))
        // The envelope's 5 ms hop: a top lands within one hop of where it was made.
        #expect(abs(asItIs.peakTime - 0.10) <= 0.005, "\(asItIs.peakTime)")
        #expect(abs(clipped.peakTime - 0.04) <= 0.005, "\(clipped.peakTime)")
        #expect(clipped.peakLevel == asItIs.peakLevel)
        let (d, c) = (try #require(asItIs.d40), try #require(clipped.d40))
        #expect(abs(c - d - 0.06) <= 0.005, "d40 \(c) s from the first top, \(d) s from the second")
        let apart = try #require(DecayAnalysis(Self.twoTops(second: 1), peakTolerance: ClippedTops.peakTolerance))
        #expect(abs(apart.peakTime - 0.10) <= 0.005, "\(apart.peakTime)")
    }

    /// A ring tone of four equal beeps (150 ms at full level, 50 ms at −16 dB between them) ending on a note 3.5 dB
    /// under them that dies at 250 dB/s (40 dB in 0.16 s, a notification's decay) for 0.25 s and fades out over the
    /// last 10 ms, with beep `loudest` 0.1 dB over the others: tops closer than that are heard as equal, and which one the
    /// envelope takes as its peak moves with a resample or a codec.
    static func beepsAndALastNote(loudest: Int) -> AudioBuffer {
        let rate = 48_000
        let fall = 250.0 * log(10.0) / 20
        func level(_ t: Double) -> Double {
            if t < 0.8 {
                let beep = Int(t / 0.2)
                let inBeep = t - Double(beep) * 0.2
                let top: Double = beep == loudest ? pow(10, 0.1 / 20) : 1
                let ramp = min(1, inBeep / 0.005, max(0, 0.15 - inBeep) / 0.005)
                return 0.16 + (top - 0.16) * ramp
            }
            let note = t - 0.8
            let peak: Double = pow(10, -3.5 / 20)
            if note < 0.02 { return 0.16 + (peak - 0.16) * note / 0.02 }
            if note < 0.04 { return peak }
            let decayed = peak * exp(-fall * (note - 0.04))
            return note < 0.29 ? decayed : decayed * max(0, 1 - (note - 0.29) / 0.01)
        }
        let samples = (0..<Int(1.1 * Double(rate))).map { i -> Float in
            let t = Double(i) / Double(rate)
            return Float(0.3 * level(t) * sin(2 * Double.pi * 1000 * t))
        }
        return SignalGenerator.buffer(samples, sampleRate: rate)
    }

    /// The sound's final decay is read from its last restart, wherever among equal tops the loudest lies: a ring tone
    /// of equal beeps whose last note dies fast is not cut off while ringing. Read from the first beep, a line across
    /// the beeps fell a few dB a second and took the last note's own fall for a fade over a ringing sound.
    @Test func aSequenceOfEqualTopsDecaysFromItsLastRestart() throws {
        for loudest in 0..<4 {
            let d = try #require(DecayAnalysis(Self.beepsAndALastNote(loudest: loudest)))
            // The last note falls 250 dB/s; the 10 ms window rounds the start of the fall, hence the margin.
            #expect(d.endSlope < -150, "loudest beep \(loudest): \(d.endSlope) dB/s")
            #expect(!d.ringingAtEnd, "loudest beep \(loudest): cut at \(d.cutLevel) dB, \(d.endSlope) dB/s")
            #expect(d.d40 != nil, "loudest beep \(loudest)")
        }
    }

    /// The extrapolation reads the decay up to a final fade's start: a 0.56 s ring falling 40 dB in 1.6 s (25 dB/s,
    /// still a bell's rate) faded out over its last 60 ms has fallen 10 dB before the fade, and its decay is read from
    /// that. Read only up to 100 ms before the fade's start, it had fallen 9 dB there and its decay was unknown.
    @Test func theExtrapolationReadsTheDecayUpToAFinalFade() throws {
        let rate = 48_000
        let fall = 25.0 * log(10.0) / 20
        let frames = Int(0.56 * Double(rate))
        let fade = Int(0.06 * Double(rate))
        let samples = (0..<frames).map { i -> Float in
            let t = Double(i) / Double(rate)
            let ring = 0.2 * sin(2 * Double.pi * 310 * t) + 0.14 * sin(2 * Double.pi * 592 * t)
            let gain = min(1, t / 0.005) * exp(-fall * t) * min(1, Double(frames - i) / Double(fade))
            return Float(ring * gain)
        }
        let d = try #require(DecayAnalysis(SignalGenerator.buffer(samples, sampleRate: rate)))
        #expect(d.endsWithFade && d.ringingAtEnd && d.d40 == nil)
        // The line through 10 dB of a clean exponential decay: within 5 % of the 1.6 s it was made with.
        let x = try #require(d.d40Extrapolated, "fell \(d.cutLevel) dB before the fade")
        #expect(abs(x - 1.6) < 0.08, "\(x)")
    }

    /// A cut followed by silence is still a cut: a squeak rising 6 dB over 0.2 s and held 50 ms, cut at its loudest,
    /// reads the same with 40 ms of digital zeros after the cut (an MP3's padding) as without: cut off while it
    /// sounds, its decay unknown. Read at the file's end, the silence made the cut a fall of 40 dB in 48 ms. A click
    /// that dies by itself at 2700 dB/s before the same silence is no cut: it was falling faster than any ring.
    @Test func aCutFollowedBySilenceIsStillACut() throws {
        let rate = 48_000
        let squeak = (0..<(rate / 4)).map { i -> Float in
            let t = Double(i) / Double(rate)
            let level = t < 0.2 ? -6 + 6 * t / 0.2 : 0
            return Float(0.2 * pow(10, level / 20) * min(1, t / 0.005) * sin(2 * Double.pi * 1500 * t))
        }
        let silence = [Float](repeating: 0, count: rate / 25)
        let asCut = try #require(DecayAnalysis(SignalGenerator.buffer(squeak, sampleRate: rate)))
        let padded = try #require(DecayAnalysis(SignalGenerator.buffer(squeak + silence, sampleRate: rate)))
        for d in [asCut, padded] {
            #expect(d.ringingAtEnd && d.d40 == nil, "cut at \(d.cutLevel) dB, d40 \(d.d40 ?? 0) s")
        }
        // Both read the last 10 ms before the cut.
        #expect(abs(padded.cutLevel - asCut.cutLevel) < 0.5, "\(padded.cutLevel) against \(asCut.cutLevel)")
        let fall = 2700.0 * log(10.0) / 20
        let click = (0..<(rate / 25)).map { i -> Float in
            let t = Double(i) / Double(rate)
            return Float(0.5 * exp(-fall * t) * min(1, t / 0.001) * sin(2 * Double.pi * 1000 * t))
        }
        let dies = try #require(DecayAnalysis(SignalGenerator.buffer(silence + click + silence, sampleRate: rate)))
        #expect(!dies.ringingAtEnd && dies.d40 != nil, "a click that dies by itself: \(dies.cutLevel) dB")
    }

    /// A cut followed by a silence shorter than the envelope's 10 ms window (an MP3's padding of its last granule,
    /// 277 samples here, as `dp-screen-capture`'s) reads the level where the sound stops, as the cut alone does: the
    /// windows that straddle the cut are left out. Before, the silence filled most of the last window and the end read
    /// 4 dB lower.
    @Test func aCutFollowedByASilenceShorterThanAWindowIsReadAtTheCut() throws {
        let rate = 44_100
        let ring = (0..<(rate * 26 / 100)).map { i -> Float in
            let t = Double(i) / Double(rate)
            return Float(0.3 * pow(10, -20 * t / 20) * min(1, t / 0.002) * sin(2 * Double.pi * 780 * t))
        }
        // The padding: near silence 45 dB under the ring's start (a codec's residue), not digital zeros.
        var seed: UInt32 = 1
        let padding = (0..<277).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Float(0.3 * pow(10, -45.0 / 20)) * (Float(seed >> 8) / Float(1 << 24) * 2 - 1)
        }
        let asCut = try #require(DecayAnalysis(SignalGenerator.buffer(ring, sampleRate: rate)))
        let padded = try #require(DecayAnalysis(SignalGenerator.buffer(ring + padding, sampleRate: rate)))
        #expect(abs(padded.endLevel - asCut.endLevel) < 0.5, "\(padded.endLevel) against \(asCut.endLevel) dB")
        #expect(abs(padded.endSlope - asCut.endSlope) < 2, "\(padded.endSlope) against \(asCut.endSlope) dB/s")
        #expect(padded.ringingAtEnd && padded.d40 == nil)
        // A sound that ends in its own fall, however fast, is not cut by the blocks: its silence is its decay.
        let fall = 2700.0 * log(10.0) / 20
        let click = (0..<(rate / 25)).map { i -> Float in
            let t = Double(i) / Double(rate)
            return Float(0.5 * exp(-fall * t) * min(1, t / 0.001) * sin(2 * Double.pi * 1000 * t))
        }
        let lead = [Float](repeating: 0, count: rate / 25)
        let zeros = [Float](repeating: 0, count: padding.count)
        let dies = try #require(DecayAnalysis(SignalGenerator.buffer(lead + click + zeros, sampleRate: rate)))
        #expect(!dies.ringingAtEnd && dies.d40 != nil, "a click that dies by itself: \(dies.cutLevel) dB")
    }

    /// A stereo file and its fold to mono (the mix itself) decay alike: every reading is of the one signal, the mono
    /// mix, so a wide stereo bell whose channels' mean power puts the peak on its first strike (hard left) and whose
    /// mix puts it on its second (in the centre) reads its peak, level drops and decay times where its fold does.
    @Test func aWideStereoBellDecaysAsItsFoldToMono() throws {
        let stereo = BellSignals.wideStereo()
        let fold = AudioBuffer(planarSamples: stereo.monoMix(), channels: .mono, sampleRate: stereo.sampleRate)
        let d = try #require(DecayAnalysis(stereo))
        let folded = try #require(DecayAnalysis(fold))
        #expect(abs(d.peakTime - 2) < 0.05, "the peak on the mix's loudest strike, in the centre: \(d.peakTime) s")
        #expect(
            d == folded, "peak at \(d.peakTime) and \(folded.peakTime) s, d40 \(d.d40 ?? 0) and \(folded.d40 ?? 0) s")
        #expect(d.curve == folded.curve)
    }
}
