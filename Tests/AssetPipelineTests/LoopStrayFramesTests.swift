import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// A whole-file loop whose seam fails only for a stray frame at its end or its start (the last sample an editor wrote
/// near 0, a click at frame 0: seven of fifteen 0 A.D. building sounds): `find` ranks the file without it first,
/// `verify` says so beside its verdict (the file as it is still fails), and `bake` writes it so, with no crossfade.
/// A cut or a level step is not a stray and is not mended so.
@Suite struct LoopStrayFramesTests {
    static let period = 12_000

    /// A seamless whole-file loop (4 periods of noise under 3 kHz at 48 kHz) with frame `index` set to `value`.
    static func loop(settingFrame index: Int?, to value: Float = 0) -> AudioBuffer {
        var b = LoopSignals.periodicNoise(period: period, frames: period * 4, smoothingHz: 3_000, seed: 31)
        if let index {
            for c in 0..<b.channels { b[c, index] = value }
        }
        return b
    }

    @Test func aStrayLastSampleIsDroppedAndAStrayFirstSampleToo() throws {
        let n = Self.period * 4
        for (index, expected) in [(n - 1, 0..<(n - 1)), (0, 1..<n)] {
            // The stray: the sample farthest from both its neighbours' mean, flipped past it (a dropout or a click).
            let clean = Self.loop(settingFrame: nil)
            let neighbours = (clean[0, (index + n - 1) % n] + clean[0, (index + 1) % n]) / 2
            let b = Self.loop(settingFrame: index, to: neighbours > 0 ? -0.9 : 0.9)
            #expect(SeamRules.judge(b, loop: 0..<n).verdict == .fail, "index \(index)")
            let mend = try #require(
                LoopFinder.mended(b, region: LoopRegion(start: 0, end: FramePosition(n)), source: .wholeFile),
                "index \(index)")
            #expect(Int(mend.start)..<Int(mend.end) == expected)
            #expect(mend.reasons[0].hasPrefix("the whole file less its \(index == 0 ? "first" : "last") frame"))
            let found = try LoopFinder.find(b)
            #expect(!found.wholeFileLoops)
            #expect(found.candidates.first.map { Int($0.start)..<Int($0.end) } == expected, "\(found.candidates)")
        }
    }

    @Test func aCutOrAStepIsNotAStray() throws {
        let n = Self.period * 4
        // A cut: the last 1000 frames gone (the seam joins two unrelated points of the noise).
        let cut = Self.loop(settingFrame: nil).slice(frames: 0..<(n - 1_000))
        // A step: the second half 6 dB down (the seam steps up, and only across it).
        var step = Self.loop(settingFrame: nil)
        for c in 0..<step.channels { for i in (n / 2)..<n { step[c, i] *= 0.5 } }
        for b in [cut, step] {
            let region = LoopRegion(start: 0, end: FramePosition(b.frameCount))
            #expect(SeamRules.judge(b, loop: 0..<b.frameCount).verdict == .fail)
            #expect(LoopFinder.mended(b, region: region, source: .wholeFile) == nil)
        }
    }

    /// A junction is judged on the continuity metric alone (``SeamRules/continuity(_:loop:)``): the same metric, to
    /// the bit, as the whole report gives, on a seam that fails it (a stray), one that passes (the clean loop), a cut,
    /// a step and silence. The whole report measured the dip's spans and the spectra of every turned loop too: a
    /// quarter of `loops verify`'s time over the bench's loops, half of which fail.
    @Test func aJunctionIsJudgedOnContinuityAloneAsTheWholeReportJudgesIt() throws {
        let n = Self.period * 4
        var step = Self.loop(settingFrame: nil)
        for c in 0..<step.channels { for i in (n / 2)..<n { step[c, i] *= 0.5 } }
        let loops = [
            Self.loop(settingFrame: n - 1, to: 0.9), Self.loop(settingFrame: nil),
            Self.loop(settingFrame: nil).slice(frames: 0..<(n - 1_000)), step,
            AudioBuffer(channels: .mono, frameCount: n, sampleRate: .hz48000),
        ]
        var statuses: [SeamRules.Status] = []
        for b in loops {
            let report = SeamRules.judge(b, loop: 0..<b.frameCount)
            let whole = try #require(report.metrics.first { $0.name == .continuity })
            let alone = SeamRules.continuity(b, loop: 0..<b.frameCount)
            #expect(alone == whole)
            statuses.append(alone.status)
        }
        #expect(statuses.contains(.fail) && statuses.contains(.pass), "\(statuses)")
    }

    @Test func verifySaysWhatMendsItAndBakeWritesItWithoutTheStray() throws {
        let dir = ToolRunner.temporaryDirectory("loop-stray-frames")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let n = Self.period * 4
        let clean = Self.loop(settingFrame: nil)
        let b = Self.loop(settingFrame: n - 1, to: clean[0, n - 2] > 0 ? -0.9 : 0.9)
        let path = dir + "/stray.wav"
        try AudioFileEncoder.write(b, to: path, options: EncodeOptions(format: .wav24))
        let verified = LoopVerifier.verify(path: path)
        #expect(verified.verdict == .fail)
        let said = "`enso loops bake` mends it: the whole file less its last frame"
        #expect(verified.reasons.contains { $0.hasPrefix(said) }, "\(verified.reasons)")
        let r = try ToolRunner.run("enso", ["loops", "bake", path, dir + "/baked.wav"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("the whole file less its last frame"), "\(r.stdout)")
        let baked = try AudioFileDecoder.decode(path: dir + "/baked.wav").buffer
        // Every other frame as it was (a 24-bit round trip; no crossfade, no DC to remove from periodic noise).
        #expect(baked.frameCount == n - 1)
        let largest = (0..<(n - 1)).map { abs(baked[0, $0] - b[0, $0]) }.max() ?? 1
        #expect(largest < 1e-4, "\(largest)")
        #expect(LoopVerifier.verify(path: dir + "/baked.wav").verdict == .pass)
    }
}
