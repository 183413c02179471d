import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// WHY (the first reason, what the table shows) is what decided the verdict (issue #48 §3): a clipped reject leads
/// with its clipping, a fix with its fixable defect, a keep with its class.
@Suite struct BellReasonsTests {
    static let bell = BellSignals.bell(seconds: 8)

    func audition(_ b: AudioBuffer) -> BellAuditionResult { BellAudition.audition(b, file: "x.wav", profile: .temple) }

    @Test func theFirstReasonIsWhatDecidedTheVerdict() {
        let clipped = audition(BellSignals.clipped(Self.bell, gain: 12))
        #expect(clipped.verdict == .reject && clipped.bellClass == .bellLike)
        #expect(clipped.reasons.first?.hasPrefix("reject clipping: ") == true, "\(clipped.reasons)")
        let late = audition(BellSignals.preRoll(Self.bell, seconds: 1.5))
        #expect(late.verdict == .fix)
        #expect(late.reasons.first?.hasPrefix("fixable leading-silence: ") == true, "\(late.reasons)")
        let kept = audition(Self.bell)
        #expect(kept.verdict == .keep && kept.reasons.first?.contains("falls 40 dB") == true, "\(kept.reasons)")
        // Every reason is still there, once.
        #expect(clipped.reasons.count == Set(clipped.reasons).count)
        #expect(clipped.reasons.contains { $0.contains("falls 40 dB") })
    }
}
