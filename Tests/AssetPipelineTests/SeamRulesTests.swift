import AudioDSP
import Testing

@testable import AssetPipeline

/// The seam rules by themselves, on hand-built measures (no audio): the sentences each gives on either side of its
/// pass limit, the level's limits that rise with the file's own steps, why a metric was not measured, and how the
/// judged metrics add up to a report. The walk over every rule and both limits is
/// `JudgmentRuleTests.seamRuleOnBothSidesOfEachLimit`.
@Suite struct SeamRulesTests {
    static func measure(_ name: SeamMetrics.Name, _ value: Double, _ evidence: SeamMetrics.Evidence)
        -> SeamMetrics.Measure
    { SeamMetrics.Measure(name, .value(value, evidence)) }

    static func judge(_ name: SeamMetrics.Name, _ value: Double, _ evidence: SeamMetrics.Evidence)
        -> SeamRules.Metric
    { SeamRules.rule(name).judge(measure(name, value, evidence)) }

    @Test func continuitySaysSmoothUnderItsLimitAndNamesTheJumpAndChannelOver() {
        let smooth = Self.judge(.continuity, 0.8, .step(jump: 0.001, channel: nil))
        #expect(smooth.status == .pass)
        #expect(
            smooth.note
                == "the waveform continues smoothly across the seam (its step is 0.80× the step 99 % of the loop's junctions stay under)"
        )
        let jump = Self.judge(.continuity, 1.4, .step(jump: -0.25, channel: 1))
        #expect(jump.status == .warn && jump.threshold == 1.25 && jump.failThreshold == 1.5)
        #expect(
            jump.note
                == "the waveform jumps by -0.2500 at the seam on channel 2 (1.4× the step 99 % of the loop's junctions stay under, each against its own ±5 ms)"
        )
    }

    /// A step read at the pattern's period says so.
    @Test func levelNamesThePatternsPeriodWhenItIsTheWindow() {
        let drift = Self.judge(.level, 2.6, .level(step: 2.6, reference: 0.45, window: 1, period: true))
        #expect(drift.status == .fail)
        #expect(
            drift.note
                == "level rises 2.6 dB across the seam (1000 ms each side, its pattern's period; 99 % of the loop's own steps stay under 0.45 dB)"
        )
    }

    /// Where a sound that starts at the seam set the reference, the sentence names its largest step and drops "each
    /// against its own ±5 ms" (the jumps compare directly).
    @Test func continuityNamesTheStartingSoundsStepWhenItSetTheReference() {
        let masked = Self.judge(.continuity, 0.17, .step(jump: 0.1386, channel: nil, sound: 0.8152))
        #expect(masked.status == .pass)
        #expect(
            masked.note
                == "the waveform continues smoothly across the seam (its step is 0.17× the largest step of the sound that starts there, 0.8152)"
        )
        let click = Self.judge(.continuity, 1.6, .step(jump: 1.3, channel: nil, sound: 0.8152))
        #expect(click.status == .fail)
        #expect(
            click.note
                == "the waveform jumps by 1.3000 at the seam (1.6× the largest step of the sound that starts there, 0.8152)"
        )
    }

    /// The level's limits are 1.14 and 1.28 × the loop's own p99 step, never under 0.5 and 0.75 dB: a 1 dB step fails
    /// in a still loop and passes in one whose own steps reach 1 dB.
    @Test func levelLimitsRiseWithTheFilesOwnSteps() {
        let still = Self.judge(.level, 1, .level(step: -1, reference: 0.1, window: 0.4))
        #expect(still.status == .fail && still.threshold == 0.5 && still.failThreshold == 0.75)
        #expect(
            still.note
                == "level drops 1.0 dB across the seam (400 ms each side; 99 % of the loop's own steps stay under 0.10 dB)"
        )
        let lively = Self.judge(.level, 1, .level(step: 1, reference: 1, window: 0.1))
        #expect(lively.status == .pass && lively.threshold == 1.14 && lively.failThreshold == 1.28)
        #expect(
            lively.note
                == "level changes 1.00 dB across the seam (100 ms each side; 99 % of the loop's own steps stay under 1.00 dB)"
        )
        #expect(Self.judge(.level, 1.2, .level(step: 1.2, reference: 1, window: 0.1)).status == .warn)
    }

    @Test func clickSpectralAndDipNameWhatTheyHeard() {
        #expect(Self.judge(.click, 13, .click).note.hasPrefix("a click at the seam: high-band energy 13.0 dB above"))
        #expect(Self.judge(.click, 2, .click).note.hasPrefix("high-band energy at the seam is 2.0 dB relative"))
        // A few hundredths under the reference is level with it (the old note said "-0.0 dB": 185 of the Debian
        // tour's and the test sets' notes).
        #expect(
            Self.judge(.click, -0.04, .click).note
                == "high-band energy at the seam is 0.0 dB relative to what one moment in a thousand of the loop reaches"
        )
        #expect(
            Self.judge(.spectral, 2, .spectrum(change: 9, reference: 4.5)).note
                == "the spectrum changes abruptly at the seam (9.0 dB, 2.00× the change 99 % of the loop's moments stay under)"
        )
        let gap = Self.judge(.dip, 60, .gap(silence: 0.005, elsewhere: 0))
        #expect(gap.status == .fail)
        #expect(
            gap.note == "5.0 ms of digital silence at the seam (a gap: the loop is never digitally silent elsewhere)")
        #expect(
            Self.judge(.dip, 60, .gap(silence: 0.005, elsewhere: 0.002)).note.hasSuffix("elsewhere at most 2.0 ms)"))
        let fade = Self.judge(.dip, 12, .dip(depth: 14, reference: 2, window: 0.005))
        #expect(fade.note.hasPrefix("level dips 14.0 dB at the seam (5 ms windows;"), "\(fade.note)")
        // A passing figure past the loop's own p99 says so (it read "no more than elsewhere" and "no dip" beside a
        // larger figure).
        let spectrum = Self.judge(.spectral, 1.07, .spectrum(change: 9.7, reference: 9.1))
        #expect(spectrum.status == .pass)
        #expect(
            spectrum.note
                == "the spectrum changes by 9.7 dB at the seam, a little more than 99 % of the loop's changes (under 9.1 dB) but not abruptly (1.07×; abrupt from 1.25×)",
            "\(spectrum.note)")
        let dip = Self.judge(.dip, 0.6, .dip(depth: 3.4, reference: 2.8, window: 0.02))
        #expect(dip.status == .pass)
        #expect(
            dip.note
                == "a dip of 3.4 dB at the seam (20 ms windows), 0.6 dB past what 99 % of the loop's own dips reach (2.8 dB): too little to be heard as a gap (from 1.5 dB past)",
            "\(dip.note)")
        #expect(Self.judge(.dip, -0.2, .dip(depth: 2.6, reference: 2.8, window: 0.02)).note.hasPrefix("no dip"))
    }

    /// The DC offset warns past the one DC threshold of every command and never fails.
    @Test func dcOffsetWarnsAndNeverFails() {
        let offset = Self.judge(.dcOffset, 50, .offset(mean: -0.5, channel: 0))
        #expect(offset.status == .warn)
        #expect(offset.note == "DC offset of -50.00 % (-6 dBFS) on channel 1")
        #expect(Self.judge(.dcOffset, 0.5, .offset(mean: 0.005, channel: nil)).status == .pass)
    }

    /// Digital silence elsewhere shorter than a tenth of a millisecond (a sample at zero) is given to the
    /// microsecond: "elsewhere at most 0.0 ms" read as a contradiction of the gap it excuses nothing of.
    @Test func aGapNamesTheSilenceElsewhereToTheSample() {
        #expect(
            Self.judge(.dip, 60, .gap(silence: 0.01, elsewhere: 1.0 / 48_000)).note
                == "10.0 ms of digital silence at the seam (a gap: elsewhere at most 0.021 ms)")
        #expect(
            Self.judge(.dip, 60, .gap(silence: 0.01, elsewhere: 0.002)).note
                == "10.0 ms of digital silence at the seam (a gap: elsewhere at most 2.0 ms)")
    }

    @Test func rhythmSaysWhichPulseBreaksOrCarriesOn() {
        let events = SeamMetrics.Evidence.events(period: 0.25, across: 0.19, beats: 1, offBeat: -24, jitter: 1)
        let skips = Self.judge(.rhythm, 0.2, events)
        #expect(skips.status == .fail)
        #expect(
            skips.note
                == "the events' 0.250 s pulse skips at the seam: the interval across it is 0.190 s, 24 % of a beat short (the loop's own stay within 1 %)"
        )
        let rest = SeamMetrics.Evidence.events(period: 0.25, across: 0.5, beats: 2, offBeat: 0, jitter: 1)
        #expect(Self.judge(.rhythm, 1, rest).note.contains("0.500 s (2 beats), 0 % of a beat long"))
        #expect(
            Self.judge(.rhythm, 0.7, .pulse(period: 0.5)).note.hasPrefix("the 0.500 s pulse breaks at the seam (70 %"))
        #expect(
            Self.judge(.rhythm, 0.95, .phase(period: 0.005, hertz: 200)).note.hasPrefix(
                "no pulse; the waveform's 5.0 ms period (200 Hz) carries on across the seam (95 %"))
    }

    /// A metric the loop kept from being measured is a reason ("name: why"); one the material did (no pulse) is not.
    @Test func unmeasuredByTheLoopIsAReasonByTheMaterialIsNot() {
        let short = SeamRules.rule(.continuity).judge(
            SeamMetrics.Measure(.continuity, .unmeasured(.tooShort(frames: 9))))
        #expect(short.status == .notApplicable && short.value == nil && short.unmeasured == .loop)
        #expect(short.note == "the loop is too short (9 frames) to compare the seam with the rest")
        // A length under a millisecond in milliseconds (a 6-frame Ogg of the Debian tour read "0.000 s").
        #expect(
            SeamRules.because(.tooShortForLevel(seconds: 6 / 44_100.0)).hasPrefix("the loop is too short (0.14 ms) for")
        )
        #expect(SeamRules.because(.tooShortForPulse(seconds: 0.07)).hasPrefix("the loop is too short (0.070 s) to"))
        let why = SeamMetrics.Unmeasured.noPulse(
            .tooFewEvents(1), pitch: SeamMetrics.UnsteadyPitch(similarity: 0.31, period: 0.0042))
        let noPulse = SeamRules.rule(.rhythm).judge(SeamMetrics.Measure(.rhythm, .unmeasured(why)))
        #expect(noPulse.unmeasured == .material)
        #expect(
            noPulse.note
                == "no pulse: 1 event 10 dB above the floor and the waveform has a pitch (a tone's period or a slow swell is not a pulse); no steady pitch (self-similarity 0.31 at 4.2 ms at a quarter of the loop's points)"
        )
        let report = SeamRules.report(
            SeamMetrics.Measures([
                SeamMetrics.Measure(.continuity, .unmeasured(.tooShort(frames: 9))),
                SeamMetrics.Measure(.rhythm, .unmeasured(why)),
            ]))
        #expect(
            report.reasons.first == "continuity: the loop is too short (9 frames) to compare the seam with the rest")
        #expect(!report.reasons.contains { $0.hasPrefix("rhythm") })
    }

    /// The level measured at several scales is judged at the one where it stands out most (the highest severity);
    /// metrics the measuring stopped before (a seam already known not to pass) are said so, without being a reason.
    @Test func reportKeepsTheWorstLevelScaleAndNamesWhatWasNotMeasured() {
        let scales = [
            Self.measure(.level, 0.3, .level(step: 0.3, reference: 0.1, window: 0.1)),
            Self.measure(.level, 0.9, .level(step: 0.9, reference: 0.2, window: 0.4)),
            Self.measure(.level, 1.0, .level(step: 1.0, reference: 1.0, window: 1.6)),
        ]
        let whole = SeamRules.report(SeamMetrics.Measures(scales))
        #expect(whole.metric(.level)?.value == 0.9 && whole.metric(.level)?.status == .fail)
        #expect(whole.verdict == .fail && whole.reasons.first?.hasPrefix("level rises 0.9 dB") == true)
        let stopped = SeamRules.report(
            SeamMetrics.Measures([
                Self.measure(.click, 13, .click), Self.measure(.dip, 0, .dip(depth: 1, reference: 1, window: 0.02)),
            ]))
        #expect(stopped.metric(.spectral)?.note == "not measured: the seam already does not pass")
        #expect(stopped.metric(.spectral)?.unmeasured == .material)
        #expect(stopped.metrics.count == SeamMetrics.Name.allCases.count)
        #expect(stopped.reasons.count == 1 && stopped.verdict == .fail && !stopped.seamPasses)
    }
}
