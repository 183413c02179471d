import AudioCore
import AudioDSP
import AudioTestSupport
import Testing

@testable import AssetPipeline

/// A clipped bell keeps the class of the sound under the clipping (issue 43 §1; docs/bells.md, "Clipped sounds are
/// measured under their clipping"): its decay is read under the arcs ``ClippedTops`` draws, and the clipping is its
/// own defect.
@Suite struct BellClippedClassTests {
    typealias P = BellSignals.Partial

    /// A temple bell whose file ends 1.5 s in, after 15 dB of decay, clipped 20 dB over full scale: on the plateau it
    /// never fell 10 dB and was `ambiguous`; under the clipping it rings as the bell does, its time to fall 40 dB
    /// within 20 % of the bell's own (3.6 s against 3.9 s: the arcs follow one sinusoid of five partials, and a
    /// bell's class holds anywhere above 1.5 s), and the clipping is still a reject.
    @Test(arguments: [1.5, 2.0, 6.0])
    func aClippedBellIsJudgedUnderItsClipping(seconds: Double) throws {
        let bell = BellSignals.bell(seconds: seconds)
        let original = BellAudition.audition(bell, file: "bell.wav", profile: .temple)
        let clipped = BellAudition.audition(BellSignals.clipped(bell, gain: 20), file: "clipped.wav", profile: .temple)
        #expect(original.bellClass == .bellLike, "\(original.reasons)")
        #expect(clipped.bellClass == original.bellClass, "\(clipped.reasons)")
        #expect(clipped.verdict == .reject && clipped.defects.contains(.clipping), "\(clipped.reasons)")
        let d = try #require(original.metrics?.decay40)
        let c = try #require(clipped.metrics?.decay40, "\(clipped.reasons)")
        #expect(abs(c / d - 1) < 0.2, "decay40 \(c) s clipped, \(d) s as it is")
    }

    /// A bell clipped 20 dB over and then turned down 6 or 20 dB (its rails below full scale, ``ClipRails``) is judged
    /// as the same clipping at full scale is: the same class and time to fall 40 dB (within 1 %: the arcs drawn under
    /// rails found within their width of the top), and the clipping is a reject that names its rail's level.
    @Test(arguments: [6.0, 20.0])
    func aBellClippedThenTurnedDownIsJudgedAsAtFullScale(down: Double) throws {
        let bell = BellSignals.bell(seconds: 2)
        let clipped = BellSignals.clipped(bell, gain: 20)
        let atFullScale = BellAudition.audition(clipped, file: "clipped.wav", profile: .temple)
        let turnedDown = BellAudition.audition(
            BellSignals.scaled(clipped, decibels: -down), file: "down.wav", profile: .temple)
        #expect(turnedDown.bellClass == atFullScale.bellClass, "\(turnedDown.reasons)")
        #expect(turnedDown.verdict == .reject && turnedDown.defects.contains(.clipping), "\(turnedDown.reasons)")
        let rail = String(format: "clipped at -%.1f dBFS", down)
        #expect(turnedDown.reasons.first?.hasPrefix("reject clipping: \(rail): ") == true, "\(turnedDown.reasons)")
        #expect(atFullScale.reasons.first?.contains("samples at full scale") == true, "\(atFullScale.reasons)")
        let d = try #require(atFullScale.metrics?.decay40)
        let c = try #require(turnedDown.metrics?.decay40, "\(turnedDown.reasons)")
        #expect(abs(c / d - 1) < 0.01, "decay40 \(c) s turned down, \(d) s at full scale")
        let levels = try #require(turnedDown.metrics?.clipRails)
        #expect(levels.count == 2 && levels.allSatisfy { abs(($0 ?? 0) + down) < 0.05 }, "\(levels)")
        #expect(atFullScale.metrics?.clipRails == nil)
    }

    /// `assets check`'s `bell-samples` names the rail of a bell clipped and then turned down, in the audition's words.
    @Test func packChecksNameTheRail() throws {
        let clipped = BellSignals.scaled(BellSignals.clipped(BellSignals.bell(seconds: 2), gain: 20), decibels: -6)
        var p = PackRules.referenceBell
        p.scan = SignalDefectScan(clipped)
        let finding = try #require(PackRules.bellSamples.judge(p).first)
        #expect(finding.status == .fail)
        #expect(finding.message.contains("(clipped at -6.0 dBFS)"), "\(finding.message)")
    }

    /// A rail below full scale is named by its level; two rails by each one's when they differ (`lo-gong` holds its
    /// positive rail at −0.07 dBFS and its negative at full scale), and a rail on one side only by its side (an offset
    /// before the clipper pins one side).
    @Test func theRailsAreNamedByTheirLevels() {
        #expect(BellDefectRules.clippedAt([-6.02, -6.02]) == "clipped at -6.0 dBFS")
        #expect(
            BellDefectRules.clippedAt([-0.07, 0]) == "clipped at -0.1 dBFS (positive) and full scale (negative)")
        #expect(BellDefectRules.clippedAt([0, -12.0]) == "clipped at full scale (positive) and -12.0 dBFS (negative)")
        #expect(BellDefectRules.clippedAt([-6.02, nil]) == "clipped at -6.0 dBFS (positive tops)")
    }

    /// A gong clipped 20 dB over, as `lo-gong` reads (docs/bells.md, "Flips still open"): its ring as a bell's, its
    /// tonality 0.42 (0.79 as it is) read from a span the arcs alone drew 73 % of. Clipping turns tones into
    /// noise-like distortion, never noise into tones, so the `noise` rule abstains there and the gong keeps its class
    /// (before: "its sound is noise", notification-like); a span the arcs drew less of, or a file without clipping,
    /// still reads as noise.
    @Test func aLowTonalityReadMostlyThroughArcsIsNoEvidenceOfNoise() {
        func measured(arcs: Double?) -> BellAuditionMetrics {
            var m = BellAuditionMetrics.reference
            (m.sound.tonality, m.sound.tonalityArcShare) = (0.42, arcs)
            return m
        }
        let asIs = BellClass.classify(.reference).0
        #expect(asIs == .bellLike)
        #expect(BellClass.classify(measured(arcs: 0.73)).0 == asIs, "\(BellClass.classify(measured(arcs: 0.73)))")
        for arcs in [nil, 0.0, 0.5] {
            let (c, reasons) = BellClass.classify(measured(arcs: arcs))
            #expect(c == .notificationLike && reasons.first?.hasPrefix("no steady partials") == true, "\(arcs)")
        }
    }

    /// Noise clipped 20 dB over is still noise: the arcs draw too little of a noise's span for the `noise` rule to
    /// abstain (its clipped runs are short), so a burst that rings as long as a bell stays notification-like.
    @Test(arguments: [false, true])
    func aClippedNoiseBurstIsStillNoise(pink: Bool) throws {
        let burst = BellSignals.noiseBurst(t60: 4, pink: pink)
        let original = BellAudition.audition(burst, file: "noise.wav", profile: .temple)
        let clipped = BellAudition.audition(BellSignals.clipped(burst, gain: 20), file: "clipped.wav", profile: .temple)
        #expect(original.bellClass == .notificationLike && original.reasons.first?.contains("noise") == true)
        #expect(
            clipped.bellClass == .notificationLike,
            "\(clipped.reasons) \(String(describing: clipped.metrics?.tonalityArcShare))")
        #expect(clipped.reasons.first?.contains("no steady partials") == true, "\(clipped.reasons)")
    }
}
