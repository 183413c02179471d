import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioFile

@Suite("Resampler")
struct ResamplerTests {
    /// The residual of `x` after removing the least-squares fit of `a sin + b cos + c` at `frequency`, in dB
    /// relative to the fitted fundamental (THD+N).
    static func thdPlusNoise(_ x: ArraySlice<Float>, frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        // Normal equations for the basis (sin, cos, 1).
        var m = [[Double]](repeating: [0, 0, 0], count: 3)
        var v = [0.0, 0, 0]
        for (k, s) in x.enumerated() {
            let basis = [sin(w * Double(k)), cos(w * Double(k)), 1]
            for i in 0..<3 {
                v[i] += basis[i] * Double(s)
                for j in 0..<3 { m[i][j] += basis[i] * basis[j] }
            }
        }
        let coef = solve3(m, v)
        var residual = 0.0
        var fundamental = 0.0
        for (k, s) in x.enumerated() {
            let f = coef[0] * sin(w * Double(k)) + coef[1] * cos(w * Double(k))
            let r = Double(s) - f - coef[2]
            residual += r * r
            fundamental += f * f
        }
        return 10 * log10(residual / fundamental)
    }

    static func solve3(_ a: [[Double]], _ b: [Double]) -> [Double] {
        var m = a
        var v = b
        for col in 0..<3 {
            let pivot = (col..<3).max { abs(m[$0][col]) < abs(m[$1][col]) }!
            m.swapAt(col, pivot)
            v.swapAt(col, pivot)
            for row in (col + 1)..<3 {
                let f = m[row][col] / m[col][col]
                for k in col..<3 { m[row][k] -= f * m[col][k] }
                v[row] -= f * v[col]
            }
        }
        var x = [0.0, 0, 0]
        for row in stride(from: 2, through: 0, by: -1) {
            var s = v[row]
            for k in (row + 1)..<3 { s -= m[row][k] * x[k] }
            x[row] = s / m[row][row]
        }
        return x
    }

    @Test("1 kHz sine 44.1 -> 48 kHz at best quality has THD+N <= -120 dB")
    func thdPlusNoiseBest() throws {
        let input = SignalGenerator.buffer(
            SignalGenerator.sine(frequency: 1000, amplitude: 0.5, frames: 22_050, sampleRate: 44_100),
            sampleRate: 44_100)
        let out = try Resampler.resample(input, to: .hz48000, quality: .best)
        #expect(out.frameCount == 24_000)
        #expect(out.sampleRate == .hz48000)
        // Skip 1000 frames at each end: the filter starts and ends against implied silence there.
        let thd = Self.thdPlusNoise(out.channel(0).dropFirst(1000).dropLast(1000), frequency: 1000, sampleRate: 48_000)
        // -120 dB: the quantisation noise of 20 bits (6.02 dB a bit), so the converter adds less than a 24-bit
        // file's usable resolution; libsamplerate's best converter measures about -139 dB here.
        #expect(thd <= -120, "THD+N \(thd) dB")
    }

    @Test(
        "output length is exactly round(frames × ratio)",
        arguments: [
            (1, 44_100, 48_000), (7, 44_100, 48_000), (1000, 48_000, 44_100), (12_345, 44_100, 48_000),
            (999, 48_000, 22_050), (10, 8_000, 96_000), (3, 96_000, 8_000),
        ])
    func exactLength(frames: Int, from: Int, to: Int) throws {
        let input = SignalGenerator.buffer(
            SignalGenerator.whiteNoise(frames: frames, seed: 7), channels: 2, sampleRate: from)
        for quality in ResamplerQuality.allCases {
            let out = try Resampler.resample(input, to: SampleRate(checked: to), quality: quality)
            let expected = (frames * to * 2 + from) / (2 * from)
            #expect(out.frameCount == expected, "\(quality) \(frames) frames \(from)->\(to)")
            #expect(out.channels == 2)
        }
    }

    /// The filter's last half-length is released at the end: libsamplerate ignored the flush (its input pointer
    /// was NULL) and the last 3.3 ms of a file upsampled to 96 kHz were digital silence, a gap `loops verify`
    /// heard at the seam of a file that loops as a whole.
    @Test(
        "the end of the input reaches the output: no silence after a steady signal",
        arguments: [(44_100, 96_000), (44_100, 48_000), (48_000, 44_100), (22_050, 48_000), (48_000, 8_000)])
    func theEndIsNotSilence(from: Int, to: Int) throws {
        let input = SignalGenerator.buffer(
            [Float](repeating: 0.5, count: 30_011), channels: 2, sampleRate: from)
        for quality in ResamplerQuality.allCases {
            let out = try Resampler.resample(input, to: SampleRate(checked: to), quality: quality)
            let left = Array(out.channel(0))
            let silentTail = left.reversed().prefix { $0 == 0 }.count
            #expect(silentTail == 0, "\(quality) \(from)->\(to): \(silentTail) silent frames at the end")
            // The last frame sits on the last input frame, half-way into the step down to the implied silence.
            #expect(left.last! > 0.1, "\(quality) \(from)->\(to): last frame \(left.last!)")
            // Two half-filters before the end the filter does not reach the edge: the level is the input's.
            let margin = 2 * quality.halfFilterFrames * max(1, (to + from - 1) / from)
            let early = left[left.count - 1 - margin]
            #expect(abs(early - 0.5) < 0.01, "\(quality) \(from)->\(to): \(early) \(margin) frames before the end")
        }
    }

    @Test("output is time-aligned: an impulse at frame k lands at k × ratio")
    func alignment() throws {
        var x = [Float](repeating: 0, count: 2000)
        x[1000] = 1
        let out = try Resampler.resample(SignalGenerator.buffer(x, sampleRate: 44_100), to: .hz48000, quality: .best)
        let peak = out.samples.indices.max { abs(out.samples[$0]) < abs(out.samples[$1]) }!
        // 1000 × 48000/44100 = 1088.4: the largest output sample is the nearest frame.
        #expect(peak == 1088)
    }

    @Test("streaming output equals whole-buffer output for random chunk sizes")
    func streamingEqualsWhole() throws {
        let frames = 20_000
        let left = SignalGenerator.whiteNoise(frames: frames, seed: 11)
        let right = SignalGenerator.sine(frequency: 440, frames: frames, sampleRate: 44_100)
        let input = AudioBuffer(channelData: [left, right], sampleRate: .hz44100)
        var rng = SeededRandom(seed: 99)
        for quality in ResamplerQuality.allCases {
            let whole = try Resampler.resample(input, to: .hz48000, quality: quality)
            for maxChunk in [1, 37, 1024, 30_000] {
                let streaming = try StreamingResampler(
                    channels: .stereo, from: .hz44100, to: .hz48000, quality: quality)
                var parts: [AudioBuffer] = []
                var position = 0
                while position < frames {
                    let n = min(frames - position, Int(rng.next() % UInt64(maxChunk)) + 1)
                    parts.append(try streaming.process(input.slice(frames: position..<(position + n))))
                    position += n
                }
                parts.append(try streaming.flush())
                let joined = (0..<2).map { ch in parts.flatMap { Array($0.channel(ch)) } }
                #expect(joined[0].count == whole.frameCount, "\(quality) chunks up to \(maxChunk)")
                // Bit-identical: libsamplerate's output depends only on the input samples and positions.
                #expect(joined[0] == Array(whole.channel(0)), "\(quality) chunks up to \(maxChunk)")
                #expect(joined[1] == Array(whole.channel(1)), "\(quality) chunks up to \(maxChunk)")
            }
        }
    }
}
