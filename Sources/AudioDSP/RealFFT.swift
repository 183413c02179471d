import AudioCore
import CKissFFT
import Synchronization

/// A real-input FFT of a fixed even size, through KissFFT (`kiss_fftr`).
///
/// Forward: `n` real samples → `n/2 + 1` complex bins (re, im). Inverse: bins → `n` real samples,
/// scaled so that `inverse(forward(x)) == x` (KissFFT itself leaves a factor of `n`; this type removes it).
/// Work buffers are allocated once in `init` (the inverse plan on the first ``inverse(real:imag:output:)``);
/// `forward`/`inverse` allocate nothing after that. Making a plan computes its twiddles with `sincos`, which for
/// large sizes costs as much as several transforms: analyses that run once per file take a pooled transform
/// with ``pooled(size:)``.
///
/// - Thread safety: one thread at a time per instance (make one per thread, or take one from the pool: the pool
///   hands each instance to one thread at a time, hence `@unchecked Sendable`).
/// - Real-time safe: `forward`, `powerSpectrum` are (after `init`); `inverse` after its first call.
public final class RealFFT: @unchecked Sendable {
    /// The transform size (even).
    public let size: Int
    /// The number of complex bins, `size / 2 + 1`.
    public var binCount: Int { size / 2 + 1 }

    private let forwardConfig: KissRealConfig
    private var inverseConfigStorage: KissRealConfig?
    private let bins: UnsafeMutablePointer<kiss_fft_cpx>
    private let scratch: UnsafeMutablePointer<Float>

    /// Creates a transform of `size` points (even, ≥ 2). Sizes with small prime factors (2, 3, 5) are fastest.
    public init(size: Int) {
        precondition(size >= 2 && size % 2 == 0, "real FFT size must be even and at least 2, got \(size)")
        self.size = size
        guard let f = system_kiss_fftr_alloc(Int32(size), inverse: false) else {
            preconditionFailure("kiss_fftr_alloc failed for size \(size) (out of memory)")
        }
        forwardConfig = f
        bins = .allocate(capacity: size / 2 + 1)
        bins.initialize(repeating: kiss_fft_cpx(r: 0, i: 0), count: size / 2 + 1)
        scratch = .allocate(capacity: size)
        scratch.initialize(repeating: 0, count: size)
    }

    deinit {
        system_kiss_fftr_free(forwardConfig)
        if let i = inverseConfigStorage { system_kiss_fftr_free(i) }
        bins.deallocate()
        scratch.deallocate()
    }

    private var inverseConfig: KissRealConfig {
        if let i = inverseConfigStorage { return i }
        guard let i = system_kiss_fftr_alloc(Int32(size), inverse: true) else {
            preconditionFailure("kiss_fftr_alloc failed for size \(size) (out of memory)")
        }
        inverseConfigStorage = i
        return i
    }

    /// Idle transforms by size, kept for reuse (at most ``poolDepth`` per size, ``poolSizes`` sizes).
    private static let pool = Mutex<[Int: [RealFFT]]>([:])
    static let poolDepth = 8
    static let poolSizes = 16

    /// A transform of `size` points from a process-wide pool (made when none is idle). Give it back with
    /// ``recycle(_:)`` when done (`defer`), and do not use it after that.
    public static func pooled(size: Int) -> RealFFT {
        pool.withLock { $0[size]?.popLast() } ?? RealFFT(size: size)
    }

    /// Returns a transform from ``pooled(size:)`` to the pool.
    public static func recycle(_ fft: RealFFT) {
        pool.withLock { idle in
            if idle[fft.size] == nil && idle.count >= poolSizes { return }
            if idle[fft.size, default: []].count < poolDepth { idle[fft.size, default: []].append(fft) }
        }
    }

    /// The smallest size ≥ `n` of the form 2^k or 3·2^k (at least 2): fast sizes for KissFFT, and few enough
    /// distinct ones that files of similar lengths share pooled plans (``pooled(size:)``).
    public static func poolSize(atLeast n: Int) -> Int {
        var p = 2
        while p < n {
            if p / 2 * 3 >= n && p >= 4 { return p / 2 * 3 }
            p *= 2
        }
        return p
    }

    /// Transforms `input` (`size` samples) into `real` and `imag` (`binCount` values each).
    public func forward(
        _ input: UnsafePointer<Float>, real: UnsafeMutablePointer<Float>, imag: UnsafeMutablePointer<Float>
    ) {
        system_kiss_fftr(forwardConfig, input, bins)
        for k in 0..<binCount {
            real[k] = bins[k].r
            imag[k] = bins[k].i
        }
    }

    /// Transforms `real`/`imag` bins back into `output` (`size` samples), normalised by `1/size`.
    public func inverse(
        real: UnsafePointer<Float>, imag: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        for k in 0..<binCount { bins[k] = kiss_fft_cpx(r: real[k], i: imag[k]) }
        system_kiss_fftri(inverseConfig, bins, output)
        let scale = 1 / Float(size)
        for t in 0..<size { output[t] *= scale }
    }

    /// The power spectrum |X[k]|² of `input` (`size` samples) into `power` (`binCount` values).
    ///
    /// A frame of digital silence (every sample ±0) is not transformed: its power is written as zeros, the very
    /// values the transform would give (tails of digital silence are common in exported sounds).
    public func powerSpectrum(_ input: UnsafePointer<Float>, into power: UnsafeMutablePointer<Float>) {
        if PeakScan.allZero(UnsafeBufferPointer(start: input, count: size)) {
            power.update(repeating: 0, count: binCount)
            return
        }
        system_kiss_fftr(forwardConfig, input, bins)
        // Eight bins at a time: sixteen interleaved floats (re, im, re, im, ...) squared, then each pair summed.
        let n = binCount
        let from = UnsafeRawPointer(bins)
        let to = UnsafeMutableRawPointer(power)
        var k = 0
        while k + 8 <= n {
            let v = from.loadUnaligned(fromByteOffset: k &* 8, as: SIMD16<Float>.self)
            let squares = v * v
            to.storeBytes(of: squares.evenHalf + squares.oddHalf, toByteOffset: k &* 4, as: SIMD8<Float>.self)
            k &+= 8
        }
        while k < n {
            power[k] = bins[k].r * bins[k].r + bins[k].i * bins[k].i
            k &+= 1
        }
    }

    /// Convenience: the forward transform of an array (zero-padded or truncated to `size`).
    public func forward(_ input: [Float]) -> (real: [Float], imag: [Float]) {
        var padded = [Float](repeating: 0, count: size)
        for i in 0..<min(size, input.count) { padded[i] = input[i] }
        var re = [Float](repeating: 0, count: binCount)
        var im = [Float](repeating: 0, count: binCount)
        padded.withUnsafeBufferPointer { p in
            re.withUnsafeMutableBufferPointer { r in
                im.withUnsafeMutableBufferPointer { i in
                    forward(p.baseAddress!, real: r.baseAddress!, imag: i.baseAddress!)
                }
            }
        }
        return (re, im)
    }

    /// The `size` samples whose bins are `real`/`imag` (`binCount` values each), normalised by `1/size`: the inverse
    /// of ``forward(_:)``.
    public func inverse(real: [Float], imag: [Float]) -> [Float] {
        precondition(real.count == binCount && imag.count == binCount, "inverse takes binCount bins")
        var out = [Float](repeating: 0, count: size)
        real.withUnsafeBufferPointer { r in
            imag.withUnsafeBufferPointer { i in
                out.withUnsafeMutableBufferPointer { o in
                    inverse(real: r.baseAddress!, imag: i.baseAddress!, output: o.baseAddress!)
                }
            }
        }
        return out
    }

    /// Circular autocorrelation `r[lag] = Σ a[t] · a[t + lag]` (indices modulo `size`) through one forward and one
    /// inverse transform. Zero-pad to at least `a.count + maxLag` for linear autocorrelation up to `maxLag`.
    public func autocorrelation(_ a: [Float]) -> [Float] {
        let (re, im) = forward(a)
        var power = [Float](repeating: 0, count: binCount)
        for k in 0..<binCount { power[k] = re[k] * re[k] + im[k] * im[k] }
        return inverse(real: power, imag: [Float](repeating: 0, count: binCount))
    }

    /// Circular cross-correlation `r[lag] = Σ a[t] · b[t + lag]` (indices modulo `size`) of two `size`-sample
    /// signals, through the FFT. Zero-pad the inputs to at least `a.count + b.count - 1` for linear correlation.
    public func crossCorrelation(_ a: [Float], _ b: [Float]) -> [Float] {
        let (ar, ai) = forward(a)
        let (br, bi) = forward(b)
        // conj(A) · B
        var re = [Float](repeating: 0, count: binCount)
        var im = [Float](repeating: 0, count: binCount)
        for k in 0..<binCount {
            re[k] = ar[k] * br[k] + ai[k] * bi[k]
            im[k] = ar[k] * bi[k] - ai[k] * br[k]
        }
        return inverse(real: re, imag: im)
    }
}
