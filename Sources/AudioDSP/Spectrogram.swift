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
        self.init(mono: buffer.finiteMonoMix(), sampleRate: buffer.sampleRate.double, frameSeconds: frameSeconds)
    }

    /// Computes the spectrogram of a mono signal (finite samples) at `sampleRate` Hz.
    public init(mono x: [Float], sampleRate rate: Double, frameSeconds: Double = 0.08) {
        var size = 256
        while Double(size) < frameSeconds * rate { size *= 2 }
        let hop = size / 2
        self.size = size
        hopSeconds = Double(hop) / rate
        binHertz = rate / Double(size)
        let count = x.isEmpty ? 0 : (x.count - 1) / hop + 1
        frameCount = count
        let bins = size / 2 + 1
        // Every value is written below, frame by frame (no zero-fill first).
        var out = [Float](unsafeUninitializedCapacity: count * bins) { _, initialized in initialized = count * bins }
        let fft = RealFFT.pooled(size: size)
        defer { RealFFT.recycle(fft) }
        let window = Self.scaledWindow(size)
        var frame = [Float](repeating: 0, count: size)
        x.withUnsafeBufferPointer { xs in
            window.withUnsafeBufferPointer { w in
                frame.withUnsafeMutableBufferPointer { f in
                    out.withUnsafeMutableBufferPointer { o in
                        for k in 0..<count {
                            SampleKernels.windowedFrame(xs, start: k * hop - size / 2, window: w, into: f)
                            fft.powerSpectrum(f.baseAddress!, into: o.baseAddress! + k * bins)
                        }
                    }
                }
            }
        }
        power = out
    }

    /// The Hann window that carries the spectra's scale: a sine of amplitude A gives |X| = A·size/4 at its bin with a
    /// Hann window, and power scales with the window's square.
    static func scaledWindow(_ size: Int) -> [Float] {
        let norm = (1 / Float(size * size) * 16 / 2).squareRoot()
        return HannWindow.shared(size).map { $0 * norm }
    }

    /// The power spectrum of one frame of `x` (the mono signal the spectrogram was drawn from) centred on sample
    /// `centre`, on the spectrogram's scale, wherever it falls: between the grid's frames too (zeros outside the file).
    /// Frame `k` of the spectrogram is the frame centred on `k · size / 2`.
    func framePower(_ x: [Float], centre: Int) -> [Float] {
        let fft = RealFFT.pooled(size: size)
        defer { RealFFT.recycle(fft) }
        let window = Self.scaledWindow(size)
        var frame = [Float](repeating: 0, count: size)
        var out = [Float](repeating: 0, count: binCount)
        x.withUnsafeBufferPointer { xs in
            window.withUnsafeBufferPointer { w in
                frame.withUnsafeMutableBufferPointer { f in
                    SampleKernels.windowedFrame(xs, start: centre - size / 2, window: w, into: f)
                    out.withUnsafeMutableBufferPointer { o in fft.powerSpectrum(f.baseAddress!, into: o.baseAddress!) }
                }
            }
        }
        return out
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

    /// Each bin's power summed over `frames` (clamped to the spectrogram), in frame order: the spectrum a steady
    /// sound's partials are read from (``TonalityAnalysis``, ``MainsHum``).
    public func summedPower(frames: Range<Int>) -> [Double] {
        let frames = frames.clamped(to: 0..<frameCount)
        var sum = [Double](repeating: 0, count: binCount)
        power.withUnsafeBufferPointer { p in
            for k in frames {
                let row = p.baseAddress! + k * binCount
                for b in 0..<binCount { sum[b] += Double(row[b]) }
            }
        }
        return sum
    }

    /// The power-weighted mean frequency of frames `frames` (all frames when nil), in Hz; 0 for silence.
    public func centroid(frames: Range<Int>? = nil) -> Double {
        let r = frames.map { $0.clamped(to: 0..<frameCount) } ?? 0..<frameCount
        // Per frame in Float lanes (bins 1...), across frames in Double.
        var num = 0.0
        var den = 0.0
        let lanesOffset = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        power.withUnsafeBufferPointer { p in
            let raw = UnsafeRawPointer(p.baseAddress!)
            for k in r {
                let row = k * binCount
                var weighted = SIMD8<Float>(repeating: 0)
                var total = SIMD8<Float>(repeating: 0)
                var b = 1
                while b + 8 <= binCount {
                    let v = raw.loadUnaligned(fromByteOffset: (row + b) * 4, as: SIMD8<Float>.self)
                    weighted += v * (lanesOffset + Float(b))
                    total += v
                    b += 8
                }
                var frameNum = Double(weighted.sum())
                var frameDen = Double(total.sum())
                while b < binCount {
                    frameNum += Double(p[row + b]) * Double(b)
                    frameDen += Double(p[row + b])
                    b += 1
                }
                num += frameNum
                den += frameDen
            }
        }
        return den > 0 ? num * binHertz / den : 0
    }
}
