import AssetPipeline
import AudioCore
import AudioTestSupport
import Testing

@testable import AudioDSP

/// The seam judged against the file's own robust statistics (p99 over ordinary junctions), gaps of digital
/// silence, DC offsets and steps, and which material the rhythm metric judges: each documented threshold with a
/// synthesized case on both sides of it.
@Suite struct SeamMetricsReferenceTests {
    static let rate = 48_000
    static let period = 24_000

    /// A 220 Hz tone of whole cycles (its seam continues exactly) with a DC ramp from 0 to `step`: at the wrap the
    /// offset steps back by `step`, a DC step across the seam.
    static func toneWithDCStep(_ step: Float) -> AudioBuffer {
        let n = 3 * rate
        let f = LoopSignals.wholeCycleFrequency(near: 220, frames: n, sampleRate: rate)
        return LoopSignals.addingDCRamp(to: LoopSignals.tones(frequencies: [f], frames: n), to: step)
    }

    /// Continuity: a DC step of 0.0005 against the tone's largest step of 0.0058 stays within the file's own steps
    /// (below 1.25 × p99); a step of 0.01 is 2.7 × p99 and fails. One full-scale spike inside the loop excuses
    /// neither (it was the reference when the largest step elsewhere was).
    @Test func dcStepAcrossTheSeamIsAContinuityFailure() {
        let small = SeamCheck.analyze(Self.toneWithDCStep(-0.0005))
        #expect(
            (small.metric(.continuity)?.value ?? 9) < SeamRules.exponentialTail.warn, "\(SeamCheck.describe(small))")
        let large = Self.toneWithDCStep(-0.01)
        let r = SeamCheck.analyze(large)
        #expect((r.metric(.continuity)?.value ?? 0) > SeamRules.exponentialTail.fail, "\(SeamCheck.describe(r))")
        #expect(r.verdict == .fail)
        var spiked = large
        for c in 0..<spiked.channels { spiked[c, spiked.frameCount / 2] = 0.9 }
        #expect(
            SeamCheck.analyze(spiked).metric(.continuity)?.status == .fail,
            "\(SeamCheck.describe(SeamCheck.analyze(spiked)))")
    }

    /// A constant offset does not break a seam: 0.4 % and 0.9 % pass (under the 1 % of every command,
    /// ``SignalDefectScan/audibleDCOffset``); 1.2 % and 5 % warn with their value, and none fails.
    @Test func constantDCWarnsWithItsValueAndNeverFails() {
        let b = LoopSignals.periodicNoise(period: Self.period, frames: 6 * Self.period, seed: 31)
        for offset: Float in [0.004, 0.009] {
            let below = SeamCheck.analyze(LoopSignals.addingDC(to: b, offset: offset))
            #expect(below.metric(.dcOffset)?.status == .pass, "\(offset): \(SeamCheck.describe(below))")
        }
        for (offset, value) in [(0.012, "+1.20 %"), (0.05, "+5.00 %")] {
            let r = SeamCheck.analyze(LoopSignals.addingDC(to: b, offset: Float(offset)))
            #expect(r.metric(.dcOffset)?.status == .warn, "\(SeamCheck.describe(r))")
            #expect(r.verdict == .warn, "\(SeamCheck.describe(r))")
            #expect(r.reasons.contains { $0.contains("DC offset of \(value)") }, "\(r.reasons)")
        }
    }

    /// Gaps: 1 ms of digital silence at the seam of steady noise fails and says so in words; 0.5 ms (below the
    /// 1 ms limit, and too short for a 5 ms window to see) passes; 1 ms at the seam of a loop that holds 2 ms of
    /// silence elsewhere is the file's own.
    @Test func digitalSilenceAtTheSeamFailsDownToOneMillisecond() {
        let b = LoopSignals.periodicNoise(period: Self.period, frames: 6 * Self.period, smoothingHz: 2_000, seed: 32)
        let r = SeamCheck.analyze(LoopSignals.appendingSilence(to: b, frames: Self.rate / 1000))
        #expect(r.metric(.dip)?.status == .fail, "\(SeamCheck.describe(r))")
        #expect(r.reasons.contains { $0.hasPrefix("1.0 ms of digital silence at the seam") }, "\(r.reasons)")
        let short = SeamCheck.analyze(LoopSignals.appendingSilence(to: b, frames: Self.rate / 2000))
        #expect(short.metric(.dip)?.status == .pass, "\(SeamCheck.describe(short))")
        var silentInside = LoopSignals.appendingSilence(to: b, frames: Self.rate / 1000)
        for c in 0..<silentInside.channels { for i in 0..<(Self.rate / 500) { silentInside[c, 60_000 + i] = 0 } }
        #expect(!SeamCheck.analyze(silentInside).reasons.contains { $0.contains("digital silence") })
    }

    /// A loop that stops dead for 8 ms before it starts again from near 0 (as Sonic Pi's `loop_garzul`) fails for its gap, and
    /// says so first: the step out of the silence is judged against the waveform's movement beside it, not against
    /// the silence's steps of 0, which made a step of a few LSB read as 28 times the usual jump and led the reasons.
    @Test func aGapAtTheSeamIsNamedAsAGapNotAsAJump() {
        // A tone at 16 bits (its steps near each peak are 0) that starts from its zero crossing 2 LSB up.
        let n = 3 * Self.rate
        let f = LoopSignals.wholeCycleFrequency(near: 220, frames: n, sampleRate: Self.rate)
        var b = LoopSignals.tones(frequencies: [f], frames: n)
        for i in b.samples.indices { b.samples[i] = (b.samples[i] * 32_768).rounded() / 32_768 }
        for c in 0..<b.channels { b[c, 0] = 2 / 32_768 }
        let r = SeamCheck.analyze(LoopSignals.appendingSilence(to: b, frames: 8 * Self.rate / 1000))
        #expect(r.verdict == .fail, "\(SeamCheck.describe(r))")
        #expect(r.reasons.first?.hasPrefix("8.0 ms of digital silence at the seam") == true, "\(r.reasons)")
        #expect(
            (r.metric(.continuity)?.value ?? 99) < SeamRules.exponentialTail.fail, "\(SeamCheck.describe(r))")
    }

    /// A level collapse that is not digital silence: 5 ms at −60 dB at the seam fails the dip (5 ms windows); the
    /// same collapse over 1 ms (below the gap-detection threshold of about 2–3 ms) passes it.
    @Test func levelCollapseAtTheSeamFails() {
        let b = LoopSignals.periodicNoise(period: Self.period, frames: 6 * Self.period, seed: 33)
        func collapsed(_ frames: Int) -> AudioBuffer {
            var out = b
            for c in 0..<out.channels { for i in 0..<frames { out[c, i] *= 0.001 } }
            return out
        }
        let r = SeamCheck.analyze(collapsed(Self.rate / 200))
        #expect(r.metric(.dip)?.status == .fail, "\(SeamCheck.describe(r))")
        #expect(SeamCheck.analyze(collapsed(Self.rate / 1000)).metric(.dip)?.status == .pass)
    }

    /// Level: a 2 dB step across the seam of steady noise fails even when one loud 5 ms burst inside the loop steps
    /// by many dB (the largest step elsewhere used to excuse it); a 0.3 dB drift (below the 0.5 dB just-noticeable
    /// difference) passes.
    @Test func oneTransientInsideExcusesNoLevelStep() {
        // 30 s: the 5 ms burst reaches the 100 ms windows of 0.7 % of the junctions, fewer than the 1 % above p99.
        let b = LoopSignals.periodicNoise(period: Self.period, frames: 60 * Self.period, seed: 34)
        var burst = LoopSignals.applyingLevelDrift(to: b, decibels: -2)
        for c in 0..<burst.channels { for i in 0..<(Self.rate / 200) { burst[c, 700_000 + i] *= 10 } }
        let r = SeamCheck.analyze(burst)
        #expect(r.metric(.level)?.status == .fail, "\(SeamCheck.describe(r))")
        let slight = SeamCheck.analyze(LoopSignals.applyingLevelDrift(to: b, decibels: -0.3))
        #expect(slight.metric(.level)?.status == .pass, "\(SeamCheck.describe(slight))")
    }

    /// Click: a −40 dBFS click at the seam of a tone fails even with a 10× louder click inside the loop (one moment
    /// is not the p99.9 of thousands); with no click at the seam the same loop passes.
    @Test func oneClickInsideExcusesNoClickAtTheSeam() {
        let n = 3 * Self.rate
        let fs = [220.0, 330.0].map { LoopSignals.wholeCycleFrequency(near: $0, frames: n, sampleRate: Self.rate) }
        let inside = LoopSignals.addingClick(
            to: LoopSignals.tones(frequencies: fs, frames: n), at: n / 2, amplitude: 0.1)
        #expect(
            SeamCheck.analyze(inside).metric(.click)?.status == .pass,
            "\(SeamCheck.describe(SeamCheck.analyze(inside)))")
        let r = SeamCheck.analyze(LoopSignals.addingClick(to: inside, at: 0))
        #expect(r.metric(.click)?.status == .fail, "\(SeamCheck.describe(r))")
    }

    /// Rhythm: a sustained tone with tremolo (a sampled instrument's loop) has a period but no pulse: its seamless
    /// loop is judged on its phase at the pitch period and passes; a tone swelling slowly likewise. Drips (events
    /// 40 dB above the bed, at a period) and frozen noise (a waveform that repeats at 0.5 s and at no lag below
    /// 50 ms) are judged as pulses.
    @Test func rhythmJudgesOnlyEventsAndRepeatingTextures() {
        let n = 2 * Self.rate
        let f = LoopSignals.wholeCycleFrequency(near: 155.6, frames: n, sampleRate: Self.rate)
        let vibrato = LoopSignals.wholeCycleFrequency(near: 5, frames: n, sampleRate: Self.rate)
        let tone = LoopSignals.tremolo(
            LoopSignals.tones(frequencies: [f, 2 * f, 3 * f], frames: n), hz: vibrato, depth: 0.3)
        let r = SeamCheck.analyze(tone)
        #expect(r.metric(.rhythm)?.status == .pass, "\(SeamCheck.describe(r))")
        #expect(r.metric(.rhythm)?.note.hasPrefix("no pulse") == true, "\(r.metric(.rhythm)?.note ?? "")")
        #expect(r.verdict == .pass, "\(SeamCheck.describe(r))")
        let swell = LoopSignals.tremolo(
            tone, hz: LoopSignals.wholeCycleFrequency(near: 0.5, frames: n, sampleRate: Self.rate), depth: 0.8)
        #expect(SeamCheck.analyze(swell).metric(.rhythm)?.note.hasPrefix("no pulse") == true)
        #expect(SeamCheck.analyze(swell).verdict == .pass, "\(SeamCheck.describe(SeamCheck.analyze(swell)))")
        let drips = LoopSignals.drips(period: 19_200, frames: 8 * 19_200, seed: 35)
        #expect(SeamCheck.analyze(drips).metric(.rhythm)?.value != nil)
        let frozen = LoopSignals.periodicNoise(period: Self.period, frames: 6 * Self.period, seed: 36)
        #expect(SeamCheck.analyze(frozen).metric(.rhythm)?.value != nil)
    }

    /// A drone under noise that hides its samples' steps (a hum, a bowl's sustain): whole cycles pass; cut 0.4 of a
    /// cycle short, its phase jumps at every wrap and the rhythm metric (at the pitch period) fails, though the
    /// step and the click are ordinary ones of the noise.
    @Test func aDronesPhaseJumpUnderNoiseFails() {
        let n = 2 * Self.rate
        for (extra, fails) in [(0.0, false), (0.6, true)] {
            let f = LoopSignals.wholeCycleFrequency(near: 220.3, frames: n, sampleRate: Self.rate, extraCycle: extra)
            let b = LoopSignals.addingNoise(
                to: LoopSignals.tones(frequencies: [f], frames: n), amplitude: 0.15, seed: 38)
            let r = SeamCheck.analyze(b)
            #expect((r.metric(.rhythm)?.status == .fail) == fails, "extra \(extra): \(SeamCheck.describe(r))")
            #expect(r.metric(.continuity)?.status == .pass, "extra \(extra): \(SeamCheck.describe(r))")
        }
    }

    /// Brown noise has no pitch: its autocorrelation falls from lag 0 without a peak (0.78 at 2 ms for a 20 Hz
    /// corner), so the strongest lag from 2 to 50 ms is only the edge of the range. Read as a 1.7 ms "period", a
    /// seamless brown loop's phase across the seam was a draw from a wide spread and failed or warned on some
    /// seeds. Its rhythm is not judged (what peaks it has, at 20-50 ms, are the ripple of a finite loop's estimate,
    /// far under 0.3); a drone under the same noise still is (its pitch is a peak).
    @Test func brownNoiseHasNoPitchToJudgeItsSeamBy() {
        let n = 2 * Self.rate
        for seed in UInt64(40)..<48 {
            let brown = LoopSignals.periodicNoise(
                period: n, frames: n, smoothingHz: 20, poles: 1, seed: seed)
            let search = SeamMetrics.pulseSearch(brown.monoMix(), sampleRate: Self.rate)
            #expect(search.pitch.similarity < SeamMetrics.pitchSimilarity, "seed \(seed): pitch \(search.pitch)")
            let r = SeamCheck.analyze(brown)
            #expect(r.metric(.rhythm)?.value == nil, "seed \(seed): \(SeamCheck.describe(r))")
            let f = LoopSignals.wholeCycleFrequency(near: 220.3, frames: n, sampleRate: Self.rate)
            let drone = LoopSignals.tones(frequencies: [f], frames: n, amplitude: 0.2)
            let mixed = AudioBuffer(
                channelData: (0..<2).map { c in zip(drone.channel(c), brown.channel(c)).map { $0 + $1 } },
                sampleRate: brown.sampleRate)
            #expect(SeamCheck.analyze(mixed).metric(.rhythm)?.value != nil, "seed \(seed): the drone's pitch")
        }
    }

    /// A perfect loop of brown noise a fifth of a second long (one period of noise made periodic) holds few
    /// independent values at its low frequencies: the pulse search, picking the best of many lags, finds one that
    /// reads 0.5–0.8 inside without anything repeating, and the seam's one pair reads what chance gives (three of 24
    /// such loops failed or warned: "the 0.055 s pulse breaks at the seam (14 %)"). A texture's repetition must stand
    /// out from chance (four times the RMS of the autocorrelation over the lags searched); a repeating texture
    /// (frozen noise tiled) still does, and is still judged.
    @Test func aShortBrownLoopsChanceLagIsNoPulse() {
        var chance = 0
        for (i, seconds) in [0.2, 0.25, 0.3].enumerated() {
            let n = Int(seconds * Double(Self.rate))
            for seed in UInt64(0)..<12 {
                let brown = LoopSignals.periodicNoise(
                    period: n, frames: n, channels: 1, smoothingHz: 20, poles: 1, highPassHz: 20,
                    seed: 700 + UInt64(i) * 20 + seed)
                let rhythm = SeamCheck.analyze(brown).metric(.rhythm)
                #expect(
                    rhythm?.status != .fail && rhythm?.status != .warn,
                    "\(seconds) s, seed \(seed): \(rhythm?.note ?? "")")
                if rhythm?.note.contains("no more than chance") == true { chance += 1 }
            }
        }
        #expect(chance > 0, "no loop's best lag was read as chance")
        // Frozen noise tiled four times (no pitch, no events): its period stands out from chance, and is judged.
        let clip = Self.rate / 5
        let frozen = LoopSignals.periodicNoise(period: clip, frames: 4 * clip, channels: 1, seed: 9)
        let tiled = SeamCheck.analyze(frozen).metric(.rhythm)
        #expect(tiled?.value != nil, "a tiled texture repeats beyond chance: \(tiled?.note ?? "")")
    }

    /// The events behind a pulse: four or more onsets 10 dB above the floor that recur at the period (drips);
    /// a loop of three drips has too few; drips whose places are shuffled do not recur. The onsets are read as the
    /// loop plays: a drip at its very start is one (a two-bar loop's first downbeat was not, and its pulse was missed).
    @Test func pulseEventsNeedFourOnsetsAtThePeriod() {
        let drips = LoopSignals.drips(period: 19_200, frames: 8 * 19_200, seed: 37)
        let mono = drips.monoMix()
        #expect(SeamMetrics.pulseEvents(mono, period: 19_200, sampleRate: Self.rate) == .pulse)
        let three = LoopSignals.drips(period: 19_200, frames: 3 * 19_200, seed: 37).monoMix()
        if case .tooFew = SeamMetrics.pulseEvents(three, period: 19_200, sampleRate: Self.rate) {
        } else {
            Issue.record("three drips make a pulse")
        }
        if case .unrelated = SeamMetrics.pulseEvents(mono, period: 19_200 * 3 / 7, sampleRate: Self.rate) {
        } else {
            Issue.record("drips recur at 3/7 of their period")
        }
        // Four drips, the first on the loop's first frame: four onsets, a pulse.
        let first = Array(mono[0..<(4 * 19_200)])
        let onset = first.indices.first { abs(first[$0]) > 0.1 } ?? 0
        let fromDrip = Array(first[onset...] + first[..<onset])
        #expect(SeamMetrics.pulseEvents(fromDrip, period: 19_200, sampleRate: Self.rate) == .pulse)
    }

    /// The beat likeness compares (``SeamMetrics/beatPeriod(_:period:sampleRate:)``) is the shortest whole fraction
    /// of the rhythm metric's period that the events keep, whatever multiple of the beat the waveform repeats at.
    @Test func theBeatIsTheShortestFractionOfThePeriodTheEventsKeep() {
        // Three different strokes 0.5 s apart: the waveform repeats every 1.5 s, the events every 0.5 s.
        let three = LoopSignals.strokeFigure(strokes: 3, beat: 0.5, times: 4).monoMix()
        #expect(SeamMetrics.pulsePeriod(three, sampleRate: Self.rate) == .period(72_000))
        #expect(SeamMetrics.beatPeriod(three, period: 72_000, sampleRate: Self.rate) == 24_000)
        // Four strokes 0.75 s apart: 3 s, a beat of 0.75 s (the same modulo an octave as 1.5 s, not as 0.5 s).
        let four = LoopSignals.strokeFigure(strokes: 4, beat: 0.75, times: 2).monoMix()
        #expect(SeamMetrics.beatPeriod(four, period: 144_000, sampleRate: Self.rate) == 36_000)
        // Strokes 0.1 s apart: the shortest beat read is 0.2 s (two strokes), under it the tolerance is too wide.
        let dense = LoopSignals.strokeFigure(strokes: 10, beat: 0.1, times: 4).monoMix()
        #expect(SeamMetrics.beatPeriod(dense, period: 48_000, sampleRate: Self.rate) == 9_600)
    }
}
