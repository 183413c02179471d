import AudioCore
import Foundation

/// Test signals: sines, noise, impulses, bursts. Deterministic for a given seed.
public enum SignalGenerator {
    /// A sine of `frequency` Hz, `amplitude` peak, `frames` long, starting at `phase` radians.
    public static func sine(
        frequency: Double, amplitude: Double = 0.5, frames: Int, sampleRate: Int, phase: Double = 0
    ) -> [Float] {
        let w = 2 * Double.pi * frequency / Double(sampleRate)
        return (0..<frames).map { Float(amplitude * sin(w * Double($0) + phase)) }
    }

    /// Uniform white noise of peak `amplitude`.
    public static func whiteNoise(frames: Int, amplitude: Float = 0.5, seed: UInt64) -> [Float] {
        var rng = SeededRandom(seed: seed)
        return (0..<frames).map { _ in rng.nextSigned() * amplitude }
    }

    /// A signal that repeats `period` frames of white noise until `frames` are filled (perfectly periodic).
    public static func periodicNoise(period: Int, frames: Int, amplitude: Float = 0.5, seed: UInt64) -> [Float] {
        let cycle = whiteNoise(frames: period, amplitude: amplitude, seed: seed)
        return (0..<frames).map { cycle[$0 % period] }
    }

    /// A unit impulse at frame 0 followed by `frames - 1` zeros.
    public static func impulse(frames: Int, amplitude: Float = 1) -> [Float] {
        var out = [Float](repeating: 0, count: max(frames, 1))
        out[0] = amplitude
        return out
    }

    /// A decaying inharmonic bell: partials `(frequency Hz, amplitude, T60 seconds)`.
    public static func bell(
        partials: [(frequency: Double, amplitude: Double, t60: Double)], seconds: Double, sampleRate: Int
    ) -> [Float] {
        let n = Int(seconds * Double(sampleRate))
        var out = [Double](repeating: 0, count: n)
        for p in partials {
            let w = 2 * Double.pi * p.frequency / Double(sampleRate)
            let decayPerFrame = pow(10, -3 / (p.t60 * Double(sampleRate)))  // -60 dB after t60
            var env = p.amplitude
            for i in 0..<n {
                out[i] += env * sin(w * Double(i))
                env *= decayPerFrame
            }
        }
        return out.map(Float.init)
    }

    /// A stereo or mono buffer from one channel's samples (copied to every channel).
    public static func buffer(_ samples: [Float], channels: Int = 1, sampleRate: Int) -> AudioBuffer {
        AudioBuffer(
            channelData: Array(repeating: samples, count: channels), sampleRate: SampleRate(checked: sampleRate))
    }
}
