import AudioDSP
import Foundation
import Testing

@testable import AssetPipeline

/// A sound's length for the class rules is how long it sounds (`soundLength`: from its first sample above −60 dBFS to
/// the end of the file), not how long the file is: silence put in front of a sound is no part of it, and issue 43 §1
/// asks the class to hold under up to 100 ms of it (docs/bells.md, rules `decay-cut` and `too-short`).
@Suite struct BellClassSoundLengthTests {
    /// The measures of a 0.308 s struck sound cut off while it rings 18.5 dB under its peak, its decay not seen (the
    /// shape of a sound-icons cymbal one-shot), with `silence` seconds of digital silence put in front.
    static func cutOneShot(silence: Double) -> BellAuditionMetrics {
        var m = BellAuditionMetrics.reference
        (m.decay.ringingAtEnd, m.decay.cutLevel, m.decay.endLevel) = (true, -18.5, -18.5)
        (m.decay.d20, m.decay.d40, m.decay.d40Extrapolated, m.decay.d60) = (nil, nil, nil, nil)
        m.sound.leadingSilence = 0.001 + silence
        m.sound.duration = 0.308 + silence
        return m
    }

    /// 30 or 100 ms of silence in front does not make the one-shot long enough to be judged by its decay: it stays
    /// too short for a bell (before, 100 ms made the file 0.408 s long, and `decay-unknown` called it ambiguous), and
    /// the reason gives the sound's length, the same with or without the silence.
    @Test(arguments: [0.0, 0.03, 0.1])
    func silenceInFrontDoesNotLengthenTheSound(silence: Double) {
        let decision = BellClassRules.decision(Self.cutOneShot(silence: silence))
        #expect(decision.rule.name == "too-short" && decision.bellClass == .notificationLike, "\(decision.reasons)")
        #expect(decision.reasons == ["only 307 ms long: far too short for a bell"], "\(decision.reasons)")
    }

    /// The other side: a sound that itself lasts 0.4 s or more is not too short, whatever silence comes before it.
    @Test(arguments: [0.0, 0.1])
    func aSoundOfAFullLoudnessBlockIsJudgedByItsDecay(silence: Double) {
        var m = Self.cutOneShot(silence: silence)
        m.sound.duration += 0.1
        #expect(m.soundLength >= BellClass.shortest)
        let decision = BellClassRules.decision(m)
        #expect(decision.rule.name == "decay-unknown" && decision.bellClass == .ambiguous, "\(decision.reasons)")
    }
}

/// The words of the class and defect rules at the ends of their ranges (the Debian tour's bells printed "only 0 ms
/// long", "falls 40 dB in 0.0 s", "ringing 0 dB below its peak" and "in 1 runs").
@Suite struct BellReasonWordsTests {
    @Test func theSmallestFiguresReadAsTheyAre() {
        // A 6-frame file: 0.14 ms.
        var blip = BellAuditionMetrics.reference
        (blip.sound.leadingSilence, blip.sound.duration) = (0, 6 / 44_100.0)
        #expect(BellClassRules.decision(blip).reasons == ["only 0.14 ms long: far too short for a bell"])
        // A click over in 20 ms.
        var click = BellAuditionMetrics.reference
        (click.decay.d40, click.decay.d40Extrapolated) = (0.02, nil)
        #expect(BellClassRules.decision(click).reasons.first?.hasPrefix("falls 40 dB in 0.02 s") == true)
        // Cut where it still sounds at its peak level.
        var cut = BellClassSoundLengthTests.cutOneShot(silence: 0)
        (cut.decay.cutLevel, cut.decay.endLevel, cut.sound.duration) = (-0.2, -0.2, 0.15)
        #expect(
            BellClassRules.decision(cut).reasons.first?.hasPrefix("cut off while still ringing at its peak level,")
                == true, "\(BellClassRules.decision(cut).reasons)")
        // One clipped run.
        var clipped = BellAuditionMetrics.reference
        (clipped.sound.clipRuns, clipped.sound.clippedSamples, clipped.sound.longestClipRun) = (1, 3, 3)
        let evidence = BellDefectRules.rule(.clipping).judge(BellDefectRule.Measures(clipped))?.defect?.evidence
        #expect(evidence?.hasSuffix("in 1 run (longest 3)") == true, "\(evidence ?? "none")")
    }
}
