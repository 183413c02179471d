import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// A long file's loudness is read once, in blocks, at load: fed in chunks of any size, the stream's integrated
/// loudness is the whole measure's figure to the last bit (it was a libebur128 meter fed chunk by chunk, a few
/// hundredths of an LU away from it).
@Suite struct IntegratedLoudnessStreamTests {
    /// Noise whose level swells and falls (so both gates drop blocks), `seconds` long at `rate`.
    static func swelling(seconds: Double, rate: Int, channels: Int) -> AudioBuffer {
        var rng = SeededRandom(seed: 77)
        let n = Int(seconds * Double(rate))
        let data = (0..<channels).map { _ in
            (0..<n).map { i -> Float in
                let t = Double(i) / Double(rate)
                let level = 0.02 + 0.3 * (0.5 + 0.5 * sin(t * 1.3))
                return rng.nextSigned() * Float(level)
            }
        }
        return AudioBuffer(channelData: data, sampleRate: SampleRate(checked: rate))
    }

    @Test(arguments: [(48_000, 2), (44_100, 1), (11_025, 2)])
    func chunksOfAnySizeGiveTheWholeMeasure(_ rate: Int, _ channels: Int) throws {
        let sound = Self.swelling(seconds: 7.3, rate: rate, channels: channels)
        let whole = try LoudnessAnalysis.measure(sound, momentaryHopSeconds: 0.1, shortTermHopSeconds: 1).integrated
        let stream = try IntegratedLoudnessStream(
            channels: sound.channelCount, sampleRate: sound.sampleRate, hopSeconds: 0.1)
        var rng = SeededRandom(seed: 5)
        var at = 0
        while at < sound.frameCount {
            let n = min(1 + Int(rng.next() % 9_000), sound.frameCount - at)
            stream.add(sound.slice(frames: at..<(at + n)))
            at += n
        }
        #expect(stream.frames == sound.frameCount)
        let value = try #require(whole)
        #expect(stream.integrated == value, "whole \(value), streamed \(stream.integrated ?? -.infinity)")
    }

    @Test func tooShortOrSilentHasNone() throws {
        let stream = try IntegratedLoudnessStream(channels: .stereo, sampleRate: .hz48000, hopSeconds: 0.1)
        stream.add(AudioBuffer(channels: .stereo, frameCount: 96_000, sampleRate: .hz48000))
        #expect(stream.integrated == nil)
        let short = try IntegratedLoudnessStream(channels: .stereo, sampleRate: .hz48000, hopSeconds: 0.1)
        short.add(Self.swelling(seconds: 0.3, rate: 48_000, channels: 2))
        #expect(short.integrated == nil)
    }
}
