import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// A DC offset is its own defect; it must not hide another. The analyses read the sound through a DC blocker, which
/// turns an offset that stops at a cut to digital silence into a step dying away over a tenth of a second: the cut no
/// longer fell 30 dB within 10 ms, and a bell cut while it rang read as decayed (docs/bells.md, `DecayAnalysis`).
@Suite struct BellDCCutTests {
    static let rate = 48_000

    /// A temple bell (T60 6 s) cut 12 dB under its peak at `cutSeconds`, then 0.5 s of digital zeros; with `dc`
    /// added to the sound (not to the zeros after it: a generator's offset ends with its output).
    static func cutBell(at cutSeconds: Double, dc: Float) -> AudioBuffer {
        let bell = BellSignals.bell(seconds: cutSeconds, sampleRate: rate).monoMix()
        let samples = bell.map { $0 + dc } + [Float](repeating: 0, count: rate / 2)
        return SignalGenerator.buffer(samples, sampleRate: rate)
    }

    /// At five cut times a millisecond apart (every place on the envelope's 5 ms grid), the bell with an offset of
    /// 0.02 (−34 dBFS) reads the cut as the bell without one does: `truncated-tail` at the same level where that one
    /// is read cut, no cut where it is not. (Where on the grid a cut to silence falls still decides whether it is
    /// read: docs/bells.md, "A cut to silence read by where it falls on the grid", open.) Without the cut read on the
    /// file as recorded, the offset's bell read no cut at any of them.
    @Test func anOffsetThatEndsAtACutHidesNoCut() throws {
        var cuts = 0
        for shift in 0..<5 {
            let at = 1.2 + Double(shift) / 1000
            func audition(_ dc: Float) -> BellAuditionResult {
                BellAudition.audition(Self.cutBell(at: at, dc: dc), file: "bell.wav", profile: .temple)
            }
            let plain = audition(0)
            let offset = audition(0.02)
            let p = try #require(plain.metrics)
            let o = try #require(offset.metrics)
            #expect(offset.defects.contains(.dcOffset), "cut at \(at) s: \(offset.defects)")
            #expect(
                plain.defects.contains(.truncatedTail) == offset.defects.contains(.truncatedTail)
                    && p.ringingAtEnd == o.ringingAtEnd && (!p.ringingAtEnd || abs(p.cutLevel - o.cutLevel) < 1),
                "cut at \(at) s: \(p.cutLevel) dB (\(plain.defects)) against \(o.cutLevel) dB (\(offset.defects))")
            if p.ringingAtEnd { cuts += 1 }
        }
        // The bell without an offset is read cut somewhere (the test's other side).
        #expect(cuts >= 1, "the plain bell read cut at none of 5 times")
    }
}
