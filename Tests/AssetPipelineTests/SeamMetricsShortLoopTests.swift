import AssetPipeline
import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// Loops of 0.1–0.8 s (issue #43 §6): each measure's windows are scaled to the loop, so a level step or a dip at the
/// seam of a short loop is judged, never passed unmeasured (docs/loops.md, "Short loops").
@Suite struct SeamMetricsShortLoopTests {
    static let lengths = [0.2, 0.3, 0.47, 0.6, 0.79]

    /// White noise that loops seamlessly, `seconds` long.
    static func bed(_ seconds: Double, seed: UInt64 = 31) -> AudioBuffer {
        let n = Int(seconds * 48_000)
        return LoopSignals.periodicNoise(period: n, frames: n, seed: seed)
    }

    /// `b` with the frames from `fraction` of its length on scaled by `decibels`: two parts spliced, one step
    /// inside the loop and the opposite step at its seam.
    static func spliced(_ b: AudioBuffer, from fraction: Double, decibels: Double) -> AudioBuffer {
        var out = b
        let g = Float(pow(10, decibels / 20))
        for c in 0..<b.channels {
            out.withMutableChannel(c) { p in
                for i in Int(fraction * Double(p.count))..<p.count { p[i] *= g }
            }
        }
        return out
    }

    @Test(
        "a seamless short loop is judged on its level, dips and spectrum, and passes",
        arguments: lengths)
    func seamlessShortLoopsPass(seconds: Double) {
        let r = SeamCheck.analyze(Self.bed(seconds))
        #expect(r.verdict == .pass, "\(seconds) s: \(SeamCheck.describe(r))")
        for name in [SeamMetrics.Name.continuity, .spectral, .level, .click, .dip] {
            #expect(r.metric(name)?.value != nil, "\(seconds) s, \(name): \(r.metric(name)?.note ?? "")")
        }
        #expect(!r.reasons.contains { $0.contains("too short") }, "\(r.reasons)")
    }

    @Test("a 6 dB step at the seam alone (a glide from 0 to −6 dB over the loop) fails on level", arguments: lengths)
    func sixDecibelStepFails(seconds: Double) {
        let r = SeamCheck.analyze(LoopSignals.applyingLevelDrift(to: Self.bed(seconds), decibels: -6))
        #expect(r.metric(.level)?.status == .fail, "\(seconds) s: \(SeamCheck.describe(r))")
    }

    /// Two parts 6 dB apart spliced: the step is inside the loop too, heard at every repeat as often as the seam's,
    /// so the seam is as ordinary as the loop's own step (the loop's content, not its seam, is what flutters).
    @Test func aStepTheLoopHoldsInsideIsItsOwn() {
        let r = SeamCheck.analyze(Self.spliced(Self.bed(0.47), from: 0.5, decibels: -6))
        #expect(r.metric(.level)?.status != .fail, "\(SeamCheck.describe(r))")
    }

    @Test("a 0.3 dB step, under the just-noticeable difference, passes at the seam of a short loop", arguments: lengths)
    func stepUnderTheJNDPasses(seconds: Double) {
        let r = SeamCheck.analyze(Self.spliced(Self.bed(seconds), from: 0.6, decibels: -0.3))
        #expect(r.metric(.level)?.status == .pass, "\(seconds) s: \(SeamCheck.describe(r))")
    }

    @Test("a 10 ms gap faded in and out at the seam of a 0.3 s loop fails on the dip; the same inside passes")
    func dipInAShortLoop() {
        let b = Self.bed(0.3)
        let n = b.frameCount
        func gapped(at centre: Int) -> AudioBuffer {
            var out = b
            for c in 0..<b.channels {
                out.withMutableChannel(c) { p in
                    for k in -240..<240 { p[((centre + k) % n + n) % n] *= 0.01 }
                }
            }
            return out
        }
        let seam = SeamCheck.analyze(gapped(at: 0))
        #expect(seam.metric(.dip)?.status == .fail, "\(SeamCheck.describe(seam))")
        let inside = SeamCheck.analyze(gapped(at: n / 2))
        #expect(inside.metric(.dip)?.status == .pass, "\(SeamCheck.describe(inside))")
    }

    /// A designer's sustain loop of a few periods repeats tens of times a second: its level and dips are not judged
    /// (its seam is its timbre: continuity, click and phase), and that is said in the reasons.
    @Test func loopsUnderATenthOfASecondAreNotJudgedForLevel() {
        let r = SeamCheck.analyze(Self.bed(0.09))
        for name in [SeamMetrics.Name.level, .dip, .spectral] {
            #expect(r.metric(name)?.status == .notApplicable, "\(name)")
        }
        #expect(r.reasons.contains { $0.hasPrefix("level: the loop is too short (0.090 s)") }, "\(r.reasons)")
        let tenth = SeamCheck.analyze(Self.bed(0.1))
        #expect(tenth.metric(.level)?.value != nil && tenth.metric(.spectral)?.value != nil, "\(tenth.reasons)")
    }

    /// A sustained note whose level swells once per loop (a vibrato as long as the loop): its seam is one phase of the
    /// swell like any other, and passes at the loop's eighth.
    @Test func aSwellOncePerLoopPasses() {
        let n = 8_400
        let tone = LoopSignals.tones(
            frequencies: [LoopSignals.wholeCycleFrequency(near: 154, frames: n, sampleRate: 48_000)], frames: n)
        let swelling = LoopSignals.tremolo(tone, hz: 48_000 / Double(n), depth: 0.3)
        let r = SeamCheck.analyze(swelling)
        #expect(r.metric(.level)?.status == .pass, "\(SeamCheck.describe(r))")
    }
}
