import AudioDSP
import Foundation
import Testing

@testable import AssetPipeline

/// The `truncated-tail` evidence says what the level did before the file stopped it: a rise is said as a rise, never
/// as a negative decay ("decaying -107 dB/s" was how a spoken word's last syllable, rising into a final fade, read).
@Suite struct BellTruncationEvidenceTests {
    /// The evidence of a sound faded out 20 dB under its peak whose level moved `slope` dB/s before the fade.
    static func fadedOut(slope: Double) -> String? {
        let s = BellDefectRule.Measures.probe {
            ($0.decay.ringingAtEnd, $0.decay.endsWithFade) = (true, true)
            ($0.decay.cutLevel, $0.decay.endLevel, $0.decay.endSlope) = (-20, -60, slope)
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
}
