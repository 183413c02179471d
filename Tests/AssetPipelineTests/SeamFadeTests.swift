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

    /// `buffer` with its frames in `ranges` replaced by a hiss at −100 dBFS (an encoder's or a decoder's
    /// near-silence: not digital zeros) about `offset`.
    static func hushed(_ buffer: AudioBuffer, _ ranges: [Range<Int>], offset: Float = 0) -> AudioBuffer {
        var out = buffer
        let hiss = LoopSignals.periodicNoise(
            period: buffer.frameCount, frames: buffer.frameCount, channels: 1, seed: 9)
        let scale = Float(1e-5) / (hiss.samples.map { abs($0) }.max() ?? 1)
        out.withMutableChannel(0) { p in
            for range in ranges { for i in range { p[i] = offset + scale * hiss.samples[i] } }
        }
        return out
    }

    /// A loop with 152 ms of near-silence around its seam (97 ms at its start, 55 ms at its end: pygame's
    /// `house_lo.mp3` as it decodes, its encoder's padding) fails on its dip, and its reasons lead with the gap.
    /// The junctions inside the silence, whose windows do not reach the seam, dipped as deeply as the seam, so the
    /// 99th percentile read 60 dB and the dip passed; and the seam's step of a few quantisation steps (1e-4, where
    /// the silence after the seam sits off the one before), against the silence's own movement, failed `continuity`
    /// at many times the loop's. The old code passed the dip and failed continuity.
    @Test func nearSilenceAroundTheSeamIsAGapNotAStep() {
        let n = 8 * Self.rate
        let bed = LoopSignals.periodicNoise(period: n, frames: n, channels: 1, seed: 7)
        // The silence after the seam sits 1e-4 (−80 dBFS, three 16-bit steps) off the one before it.
        let start = Self.hushed(bed, [0..<(Self.rate * 97 / 1000)], offset: 1e-4)
        let padded = Self.hushed(start, [(n - Self.rate * 55 / 1000)..<n])
        let r = SeamCheck.analyze(padded)
        #expect(r.metric(.dip)?.status == .fail, "\(SeamCheck.describe(r)) \(r.metric(.dip)?.note ?? "") \(r.reasons)")
        #expect(r.metric(.continuity)?.status == .pass, "\(r.metric(.continuity)?.note ?? "none")")
        #expect(r.reasons.first?.hasPrefix("level dips 60.0 dB at the seam") == true, "\(r.reasons)")
    }

    /// The other side: a sparse loop whose seam falls in one of its own silences (noise for 100 ms every 0.5 s, a
    /// hiss between) passes: its other silences are as deep and as long, and stay in the reference.
    @Test func aSeamInOneOfTheLoopsOwnSilencesPasses() {
        let n = 8 * Self.rate
        let bed = LoopSignals.periodicNoise(period: n, frames: n, channels: 1, seed: 8)
        let burst = Self.rate / 10
        let cycle = Self.rate / 2
        // Sound from 200 to 300 ms of every half second: the seam lies 200 ms into a silence of 400 ms.
        var quiet: [Range<Int>] = []
        for start in stride(from: 0, to: n, by: cycle) {
            quiet.append(start..<(start + 2 * burst))
            quiet.append((start + 3 * burst)..<(start + cycle))
        }
        let r = SeamCheck.analyze(Self.hushed(bed, quiet))
        #expect(r.metric(.dip)?.status == .pass, "\(SeamCheck.describe(r)) \(r.metric(.dip)?.note ?? "")")
    }
}
