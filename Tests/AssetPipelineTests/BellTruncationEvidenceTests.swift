import AudioDSP
import Foundation
import Testing

@testable import AssetPipeline

/// The `truncated-tail` evidence says what the level did before the file stopped it: a rise is said as a rise, never
/// as a negative decay ("decaying -107 dB/s" was how a spoken word's last syllable, rising into a final fade, read).
@Suite struct BellTruncationEvidenceTests {
    /// The evidence of a sound faded out 20 dB under its peak whose level moved `slope` dB/s before the fade.
    static func fadedOut(slope: Double) -> String? { cut(at: -20, slope: slope, fade: true) }

    /// The evidence of a sound cut `level` dB re its peak (faded out to −60 dB when `fade`).
    static func cut(at level: Double, slope: Double, fade: Bool) -> String? {
        let s = BellDefectRule.Measures.probe {
            ($0.decay.ringingAtEnd, $0.decay.endsWithFade) = (true, fade)
            ($0.decay.cutLevel, $0.decay.endLevel, $0.decay.endSlope) = (level, fade ? -60 : level, slope)
        }
        guard case .defect(let d) = BellDefectRules.truncatedTail.judge(s) else { return nil }
        return d.evidence
    }

    @Test func aRiseBeforeTheFadeIsSaidAsARise() {
        #expect(Self.fadedOut(slope: 107) == "faded out while still ringing 20 dB below its peak (rising 107 dB/s)")
    }

    @Test func aDecayAndASteadyLevelAreSaidAsBefore() {
        #expect(Self.fadedOut(slope: -12) == "faded out while still ringing 20 dB below its peak (decaying 12 dB/s)")
        #expect(Self.fadedOut(slope: 0.5) == "faded out while still ringing 20 dB below its peak (steady)")
    }

    /// A sound cut at its loudest (lbreakout2's 6 ms `reflect_brick.wav`) is said to stop at its peak: it read
    /// "-0 dB below its peak", a rounded −0.0.
    @Test func aCutAtThePeakIsSaidSo() {
        for level in [0.0, -0.0, 0.3, -0.3] {
            #expect(
                Self.cut(at: level, slope: 0, fade: false)
                    == "stops while still sounding at its peak, no longer decaying: a sustained sound cut off")
        }
        #expect(Self.cut(at: -0.6, slope: 0, fade: false)?.hasPrefix("stops while still sounding 1 dB below") == true)
    }
}
