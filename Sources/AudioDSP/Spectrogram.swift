import AudioCore
import Foundation

/// A short-time power spectrum (Hann window, KissFFT) of a sound's mono mix.
///
/// Frame `k` is centred on `k · hopSeconds`; bin `b` is `b · binHertz`. Power is |X|² of the windowed
/// frame normalised so that a full-scale sine inside a bin reads about 0 dB in ``decibels(frame:bin:)``.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct Spectrogram: Sendable {
    /// FFT size in frames.
    public var size: Int
    /// Seconds between frames.
    public var hopSeconds: Double
    /// Hertz between bins.
    public var binHertz: Double
    /// `frameCount × binCount` power values, frame after frame.
    public var power: [Float]
    public var frameCount: Int
    public var binCount: Int { size / 2 + 1 }

    /// Computes the spectrogram of `buffer` with a frame of about `frameSeconds` (rounded up to a power of
    /// two) and a hop of half a frame.
    ///
    /// - Complexity: O(n log size).
    public init(_ buffer: AudioBuffer, frameSeconds: Double = 0.08) {
        let rate = buffer.sampleRate.double
        var size = 256
        while Double(size) < frameSeconds * rate { size *= 2 }
        let hop = size / 2
        self.size = size
        hopSeconds = Double(hop) / rate
        binHertz = rate / Double(size)
        let x = buffer.monoMix().map { $0.isFinite ? $0 : 0 }
        let count = x.isEmpty ? 0 : (x.count - 1) / hop + 1
        frameCount = count
        let bins = size / 2 + 1
        var out = [Float](repeating: 0, count: count * bins)
        let fft = RealFFT(size: size)
        let window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        // A sine of amplitude A gives |X| = A·size/4 at its bin with a Hann window.
        let norm = 1 / Float(size * size) * 16 / 2
        var frame = [Float](repeating: 0, count: size)
        out.withUnsafeMutableBufferPointer { o in
            for k in 0..<count {
                let start = k * hop - size / 2
                for i in 0..<size {
                    let j = start + i
                    frame[i] = j >= 0 && j < x.count ? x[j] * window[i] : 0
                }
                frame.withUnsafeBufferPointer { f in fft.powerSpectrum(f.baseAddress!, into: o.baseAddress! + k * bins) }
                for b in 0..<bins { o[k * bins + b] *= norm }
            }
        }
        power = out
    }

    /// The power of `bin` in `frame` in dB (floored at −200).
    public func decibels(frame: Int, bin: Int) -> Double {
        let p = Double(power[frame * binCount + bin])
        return p > 0 ? max(10 * log10(p), -200) : -200
    }

    /// The summed power of bins within `halfWidth` Hz of `frequency`, per frame, in dB (floored at −200).
    public func bandTrack(frequency: Double, halfWidth: Double) -> [Double] {
        let lo = max(0, Int(((frequency - halfWidth) / binHertz).rounded(.down)))
        let hi = min(binCount - 1, Int(((frequency + halfWidth) / binHertz).rounded(.up)))
        return (0..<frameCount).map { k in
            var s = 0.0
            if lo <= hi { for b in lo...hi { s += Double(power[k * binCount + b]) } }
            return s > 0 ? max(10 * log10(s), -200) : -200
        }
    }

    /// The power-weighted mean frequency of frames `frames` (all frames when nil), in Hz; 0 for silence.
    public func centroid(frames: Range<Int>? = nil) -> Double {
        let r = frames.map { $0.clamped(to: 0..<frameCount) } ?? 0..<frameCount
        var num = 0.0
        var den = 0.0
        for k in r {
            for b in 1..<binCount {
                let p = Double(power[k * binCount + b])
                num += p * Double(b) * binHertz
                den += p
            }
        }
        return den > 0 ? num / den : 0
    }
}
