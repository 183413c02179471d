import AudioCore
import AudioTestSupport
import Testing

@testable import AssetPipeline

/// A clipped bell keeps the class of the sound under the clipping (issue 43 §1; docs/bells.md, "Clipped sounds are
/// measured under their clipping"): its decay is read under the arcs ``ClippedTops`` draws, and the clipping is its
/// own defect.
@Suite struct BellClippedClassTests {
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
}
