import AudioCore
import AudioDSP
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// A fade at a loop's ends: the sound faded toward silence over a second or so into the loop's end and out of its
/// start (docs/loops.md, metric 7, "A fade at the loop's ends").
@Suite struct SeamFadeTests {
    static let rate = 48_000

    /// `buffer` with its level falling `depth` dB, in dB steps (an editor's exponential fade), over the `seconds`
    /// before each of `at` (a frame, cyclic) and rising again over the `seconds` after it.
    static func faded(_ buffer: AudioBuffer, at points: [Int], seconds: Double, depth: Double = 90) -> AudioBuffer {
        var out = buffer
        let n = buffer.frameCount
        let span = seconds * Double(rate)
        let gains: [Float] = (0..<n).map { i in
            let d = points.map { j -> Double in Double(min((i - j + n) % n, (j - i + n) % n)) }.min()!
            guard d < span else { return 1 }
            let db = -depth * (1 - d / span)
            return Float(pow(10.0, db / 20))
        }
        for c in 0..<buffer.channels {
            out.withMutableChannel(c) { p in
                for i in 0..<n { p[i] *= gains[i] }
            }
        }
        return out
    }

    /// Steady noise faded to silence for 0.3–2 s at each end fails; the 5 and 20 ms dips did not see it, since the
    /// junctions beside the seam lie in the same fade (the old code passed the 2 s fades and warned on 1 s).
    @Test func aBedFadedToSilenceAtBothEndsFails() {
        let n = 20 * Self.rate
        let bed = LoopSignals.periodicNoise(period: n, frames: n, seed: 5)
        #expect(SeamCheck.analyze(bed).verdict == .pass, "\(SeamCheck.describe(SeamCheck.analyze(bed)))")
        for seconds in [0.3, 1.0, 2.0] {
            let r = SeamCheck.analyze(Self.faded(bed, at: [0], seconds: seconds))
            #expect(r.metric(.dip)?.status == .fail, "\(seconds) s: \(SeamCheck.describe(r))")
            #expect(r.metric(.dip)?.note.contains("a fade at the loop's ends") == true, "\(SeamCheck.describe(r))")
        }
    }

    /// The other side: material that itself fades away and back every 2.5 s (a surf's waves, a breath) passes with
    /// a fade at the seam; so does a swell 6 dB down around the seam, heard as the sound growing softer, not going.
    @Test func theLoopsOwnFadesAndShallowSwellsPass() {
        let n = 20 * Self.rate
        let bed = LoopSignals.periodicNoise(period: n, frames: n, seed: 6)
        let waves = (0..<8).map { $0 * n / 8 }
        for seconds in [0.3, 1.0] {
            let r = SeamCheck.analyze(Self.faded(bed, at: waves, seconds: seconds))
            #expect(
                r.metric(.dip)?.status == .pass,
                "\(seconds) s, every 2.5 s: \(SeamCheck.describe(r)) \(r.metric(.dip)?.note ?? "")")
        }
        for seconds in [0.3, 1.0, 2.0] {
            let swell = SeamCheck.analyze(Self.faded(bed, at: [0], seconds: seconds, depth: 6))
            #expect(swell.metric(.dip)?.status == .pass, "\(seconds) s, 6 dB: \(SeamCheck.describe(swell))")
        }
    }
}
