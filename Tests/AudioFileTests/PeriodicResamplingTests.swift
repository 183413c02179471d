import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioFile

/// Periodic mode: a loop resampled as a loop stays seamless and is exactly round(L × ratio) frames.
@Suite("Resampler periodic mode")
struct PeriodicResamplingTests {
    /// A band-limited periodic signal: `period` frames of random-phase harmonics below 15 kHz at 44.1 kHz.
    static func bandLimitedLoop(period: Int, sampleRate: Int, seed: UInt64) -> AudioBuffer {
        var rng = SeededRandom(seed: seed)
        let maxHarmonic = Int(15_000 * Double(period) / Double(sampleRate))
        var x = [Double](repeating: 0, count: period)
        for k in 1...maxHarmonic {
            let phase = rng.nextUnit() * 2 * Double.pi
            let amp = 0.5 / Double(maxHarmonic).squareRoot()
            let w = 2 * Double.pi * Double(k) / Double(period)
            for n in 0..<period { x[n] += amp * sin(w * Double(n) + phase) }
        }
        return SignalGenerator.buffer(x.map(Float.init), channels: 2, sampleRate: sampleRate)
    }

    /// The largest step between neighbouring frames inside the loop, and the step across the wrap.
    static func steps(_ y: ArraySlice<Float>) -> (inside: Float, wrap: Float) {
        let a = Array(y)
        var inside: Float = 0
        for i in 1..<a.count { inside = max(inside, abs(a[i] - a[i - 1])) }
        return (inside, abs(a[0] - a[a.count - 1]))
    }

    @Test("a whole number of sine cycles comes out as the ideal sine, edges included")
    func sineLoop() throws {
        // 100 cycles of 1 kHz in 4410 frames at 44.1 kHz -> 4800 frames at 48 kHz.
        let loop = SignalGenerator.buffer(
            SignalGenerator.sine(frequency: 1000, amplitude: 0.5, frames: 4410, sampleRate: 44_100), sampleRate: 44_100)
        let ideal = SignalGenerator.sine(frequency: 1000, amplitude: 0.5, frames: 4800, sampleRate: 48_000)
        for quality in ResamplerQuality.allCases {
            let out = try Resampler.resample(loop, to: .hz48000, quality: quality, periodic: true)
            #expect(out.frameCount == 4800)
            // 1e-4 (-74 dB re 0.5) is far above the converters' error for a 1 kHz tone (under -97 dB) and far
            // below the error a non-periodic conversion makes at the edges, where the filter sees silence.
            #expect(Tolerance.maxDifference(out.channel(0), ideal) < 1e-4, "\(quality)")
        }
        // The non-periodic conversion errs by about 2e-3 at the edges (the sine crosses zero there, so the
        // silence the filter sees beyond them costs little): 1e-3 still sets it 10× above the periodic bound.
        let plain = try Resampler.resample(loop, to: .hz48000, quality: .best)
        #expect(Tolerance.maxDifference(plain.channel(0), ideal) > 1e-3, "the non-periodic edges should differ")
    }

    @Test(
        "a loop of awkward length is exactly round(L × ratio) frames with no seam step",
        arguments: [
            (1103, 44_100, 48_000), (1201, 48_000, 44_100), (997, 44_100, 96_000), (2000, 96_000, 44_100),
        ])
    func seam(period: Int, from: Int, to: Int) throws {
        let loop = Self.bandLimitedLoop(period: period, sampleRate: from, seed: UInt64(period))
        let expected = (period * to * 2 + from) / (2 * from)
        for quality in ResamplerQuality.allCases {
            let out = try Resampler.resample(loop, to: SampleRate(checked: to), quality: quality, periodic: true)
            #expect(out.frameCount == expected, "\(quality)")
            #expect(out.channels == 2)
            let s = Self.steps(out.channel(1))
            // The step across the wrap must be within the signal's own range of frame-to-frame steps.
            #expect(s.wrap <= s.inside, "\(quality): wrap step \(s.wrap), largest inside step \(s.inside)")
        }
    }

    @Test("periodic output matches a long plain conversion of the repeated loop, away from its edges")
    func matchesRepeatedLoop() throws {
        // With L × ratio whole (441 -> 480 frames), converting 20 repetitions plainly gives the same
        // periodic signal in the middle, where the filter never sees the ends.
        let loop = Self.bandLimitedLoop(period: 441, sampleRate: 44_100, seed: 3)
        let periodic = try Resampler.resample(loop, to: .hz48000, quality: .medium, periodic: true)
        let repeated = AudioBuffer(
            channelData: (0..<2).map { ch in Array(repeating: Array(loop.channel(ch)), count: 20).flatMap { $0 } },
            sampleRate: .hz44100)
        let plain = try Resampler.resample(repeated, to: .hz48000, quality: .medium)
        let middle = Array(plain.channel(0)[(480 * 10)..<(480 * 11)])
        // Same converter, same samples, same positions: identical on this machine (difference 0); 1e-5
        // allows for float rounding in the filter's position arithmetic on other builds.
        #expect(Tolerance.maxDifference(periodic.channel(0), middle) < 1e-5)
    }

    @Test("a loop shorter than one output frame is refused")
    func tooShort() {
        let one = SignalGenerator.buffer([0.5], sampleRate: 96_000)
        #expect(throws: EnsoError.self) {
            _ = try Resampler.resample(one, to: SampleRate(checked: 8_000), quality: .fastest, periodic: true)
        }
    }

    @Test("a ratio beyond libsamplerate's 1/256 ... 256 is refused, equal rates return the input")
    func ratioLimits() throws {
        let x = SignalGenerator.buffer([0.1, 0.2, 0.3], sampleRate: 768_000)
        do {
            _ = try Resampler.resample(x, to: SampleRate(checked: 1_000), quality: .fastest)
            Issue.record("ratio 1/768 accepted")
        } catch {
            #expect(error.detail == .invalidArgument)
        }
        #expect(try Resampler.resample(x, to: SampleRate(checked: 768_000), quality: .best) == x)
    }
}
