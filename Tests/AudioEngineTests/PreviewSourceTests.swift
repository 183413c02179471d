import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioEngine

/// The audition source: a bell from its first frame to its decay, a theme with short fades, a stop that fades.
@Suite struct PreviewSourceTests {
    static let rate = SampleRate.hz48000

    static func asset(_ samples: [Float], id: String) throws -> LoadedAsset {
        try LoadedAsset(id: id, buffer: AudioBuffer(channelData: [samples], sampleRate: rate))
    }

    static func render(_ source: PreviewSource, frames: Int, block: Int = 480) -> [Float] {
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 2 * block)
        var done = 0
        while done < frames {
            let n = min(block, frames - done)
            buffer.withUnsafeMutableBufferPointer { source.render(into: $0.baseAddress!, frames: n) }
            out += buffer[0..<(2 * n)]
            done += n
        }
        return out
    }

    @Test func aBellSoundsFromItsFirstFrameAtItsGainUntilItHasDecayed() throws {
        // A decaying tone: exp(-t / 0.1 s) from 0.8.
        let samples: [Float] = (0..<48_000).map { (i: Int) -> Float in
            let t = Double(i)
            return Float(0.8 * sin(t * 0.05) * exp(-t / 4800))
        }
        let bell = try Self.asset(samples, id: "bell")
        let source = PreviewSource(bell: bell, gain: 0.5)
        #expect(source.frameCount == bell.decayFrames(gain: 0.5))
        let out = Self.render(source, frames: Int(source.frameCount) + 960)
        // The attack is the file's, scaled by the gain, on both sides (a mono bell): no fade-in takes it.
        for f in 0..<Int(source.frameCount) {
            #expect(out[2 * f] == samples[f] * 0.5)
            #expect(out[2 * f + 1] == samples[f] * 0.5)
            if out[2 * f] != samples[f] * 0.5 { break }
        }
        // Past its decay (below -60 dB at this gain) the source is silent.
        #expect(out[(2 * Int(source.frameCount))...].allSatisfy { $0 == 0 })
    }

    @Test func aThemeFadesInLoopsAndFadesOutOverItsLength() throws {
        let loop = [Float](repeating: 0.5, count: 4_800)
        let theme = try Self.asset(loop, id: "theme")
        let frames = FrameCount(96_000)
        let source = PreviewSource(theme: theme, gain: 0.6, frames: frames)
        let out = Self.render(source, frames: 100_000, block: 512)
        let fade = Int(Self.rate.frames(seconds: PreviewSource.themeFadeSeconds))
        let full: Float = 0.5 * 0.6
        #expect(out[0] == 0)
        // Rising through the fade, full (and looping) after it, falling to silence at the end.
        #expect(out[2 * (fade / 2)] > 0 && out[2 * (fade / 2)] < full)
        for f in stride(from: fade, to: Int(frames) - fade, by: 997) { #expect(out[2 * f] == full) }
        #expect(out[2 * (Int(frames) - fade / 2)] < full)
        #expect(out[(2 * Int(frames))...].allSatisfy { $0 == 0 })
        // No step anywhere: the largest change between frames is a fraction of the level.
        var step: Float = 0
        for f in 1..<100_000 { step = max(step, abs(out[2 * f] - out[2 * f - 2])) }
        #expect(step < full / 100)
    }

    @Test func aStopFadesOutOverTheDeclickLength() throws {
        let theme = try Self.asset([Float](repeating: 0.5, count: 4_800), id: "theme")
        let source = PreviewSource(theme: theme, gain: 1, frames: 480_000)
        _ = Self.render(source, frames: 48_000)
        source.stop()
        let out = Self.render(source, frames: 4_800)
        let declick = Int(Self.rate.frames(seconds: SessionTimeline.declickSeconds))
        #expect(source.endFrame == 48_000 + FramePosition(declick))
        #expect(out[0] == 0.5)
        #expect(out[(2 * declick)...].allSatisfy { $0 == 0 })
        #expect(source.renderedFrames == 52_800)
    }
}
