import AudioCore
import Foundation

/// Power spectra of eight real frames at once, each computed exactly as ``RealFFT/powerSpectrum(_:into:)``
/// (KissFFT's `kiss_fftr`) computes it: the same factorisation, butterflies, twiddles and order of operations, run
/// on `SIMD8<Float>` lanes, one frame per lane. The values are bit for bit KissFFT's (tested), at a fraction of the
/// cost of eight scalar transforms. Sizes whose half is a power of two only (KissFFT then uses radix 4 and 2).
///
/// Used where many frames of one signal are transformed (``Spectrogram``, the onset detector's spectral flux).
///
/// - Thread safety: one thread at a time per instance.
/// - Real-time safe: no (allocates its work buffers in `init`).
final class RealFFTBatch {
    typealias Lanes = SIMD8<Float>
    /// Frames transformed per call.
    static let width = 8

    /// The real transform size.
    let size: Int
    /// `size / 2 + 1`.
    var binCount: Int { size / 2 + 1 }
    /// The complex transform size, `size / 2`.
    private let half: Int
    /// KissFFT's factors of `half`: (radix, remaining length) per stage.
    private let stages: [(radix: Int, length: Int)]
    private let twiddleRe: UnsafeMutablePointer<Float>
    private let twiddleIm: UnsafeMutablePointer<Float>
    private let superRe: UnsafeMutablePointer<Float>
    private let superIm: UnsafeMutablePointer<Float>
    /// The input: sample pairs (2k, 2k + 1) of each frame as the real and imaginary lanes of complex point k.
    let inputRe: UnsafeMutablePointer<Lanes>
    let inputIm: UnsafeMutablePointer<Lanes>
    private let re: UnsafeMutablePointer<Lanes>
    private let im: UnsafeMutablePointer<Lanes>

    /// A batch transform of `size` points, or nil when `size / 2` is not a power of two (≥ 2).
    init?(size: Int) {
        let half = size / 2
        guard size % 2 == 0, half >= 2, half & (half - 1) == 0 else { return nil }
        self.size = size
        self.half = half
        // kf_factor: powers of 4 first, then 2.
        var stages: [(Int, Int)] = []
        var n = half
        while n > 1 {
            let p = n % 4 == 0 ? 4 : 2
            n /= p
            stages.append((p, n))
        }
        self.stages = stages
        // kiss_fft_alloc and kiss_fftr_alloc: phases in Double, cos and sin rounded to Float.
        let pi = 3.141592653589793238462643383279502884197169399375105820974944
        twiddleRe = .allocate(capacity: half)
        twiddleIm = .allocate(capacity: half)
        for i in 0..<half {
            let phase = -2 * pi * Double(i) / Double(half)
            (twiddleRe + i).initialize(to: Float(cos(phase)))
            (twiddleIm + i).initialize(to: Float(sin(phase)))
        }
        superRe = .allocate(capacity: half / 2)
        superIm = .allocate(capacity: half / 2)
        for i in 0..<(half / 2) {
            let phase = -3.14159265358979323846264338327 * (Double(i + 1) / Double(half) + 0.5)
            (superRe + i).initialize(to: Float(cos(phase)))
            (superIm + i).initialize(to: Float(sin(phase)))
        }
        inputRe = .allocate(capacity: half)
        inputIm = .allocate(capacity: half)
        re = .allocate(capacity: half)
        im = .allocate(capacity: half)
        for p in [inputRe, inputIm, re, im] { p.initialize(repeating: .zero, count: half) }
    }

    deinit {
        for p in [inputRe, inputIm, re, im] { p.deallocate() }
        for p in [twiddleRe, twiddleIm, superRe, superIm] { p.deallocate() }
    }

    /// The power spectra of frames `firstFrame ..< firstFrame + count` (at most ``width``) of `xs` weighted by
    /// `window`, frame k starting at k · hop − size / 2 (zeros outside `xs`), into rows of `power` `stride` apart.
    /// Frames of digital silence are not transformed when the whole group is silent: their rows are written as
    /// zeros, the values the transform gives.
    func powerSpectra(
        of xs: UnsafeBufferPointer<Float>, window w: UnsafeBufferPointer<Float>, hop: Int, firstFrame k0: Int,
        count lanes: Int, into power: UnsafeMutablePointer<Float>, stride: Int
    ) {
        precondition(w.count == size, "window of \(w.count) points for a \(size)-point transform")
        let width = Self.width
        let first = k0 * hop - size / 2
        let last = (k0 + lanes - 1) * hop + size / 2
        let a = max(0, first), b = min(xs.count, last)
        if a >= b || PeakScan.allZero(UnsafeBufferPointer(rebasing: xs[a..<b])) {
            for j in 0..<lanes { (power + j * stride).update(repeating: 0, count: binCount) }
            return
        }
        // Sample pairs (2i, 2i + 1) of frame j go to lane j of complex point i.
        if first >= 0 && last <= xs.count && lanes == width {
            // Eight whole frames inside the signal: no bounds to check.
            let p = xs.baseAddress! + first
            for i in 0..<half {
                var r = Lanes.zero
                var m = Lanes.zero
                for j in 0..<width {
                    r[j] = p[j * hop + 2 * i]
                    m[j] = p[j * hop + 2 * i + 1]
                }
                inputRe[i] = r * Lanes(repeating: w[2 * i])
                inputIm[i] = m * Lanes(repeating: w[2 * i + 1])
            }
        } else {
            for i in 0..<half {
                var r = Lanes.zero
                var m = Lanes.zero
                for j in 0..<lanes {
                    let s = first + j * hop + 2 * i
                    if s >= 0 && s < xs.count { r[j] = xs[s] * w[2 * i] }
                    if s + 1 >= 0 && s + 1 < xs.count { m[j] = xs[s + 1] * w[2 * i + 1] }
                }
                inputRe[i] = r
                inputIm[i] = m
            }
        }
        powerSpectra(into: power, stride: stride, count: lanes)
    }

    /// Transforms the frames in ``inputRe``/``inputIm`` and writes lane `j`'s power spectrum |X[k]|² to
    /// `power[j * stride + k]` for the lanes `j < count`.
    func powerSpectra(into power: UnsafeMutablePointer<Float>, stride: Int, count: Int) {
        precondition(count >= 1 && count <= Self.width, "a batch holds 1...\(Self.width) frames")
        work(out: 0, input: 0, inputStride: 1, stage: 0)
        // kiss_fftr's split of the half-size complex transform into the real transform's bins.
        let n = half
        func store(_ k: Int, _ r: Lanes, _ i: Lanes) {
            let p = r * r + i * i
            for j in 0..<count { power[j * stride + k] = p[j] }
        }
        store(0, re[0] + im[0], .zero)
        store(n, re[0] - im[0], .zero)
        let half = Lanes(repeating: 0.5)
        for k in 1...(n / 2) {
            let fpkR = re[k], fpkI = im[k]
            let fpnkR = re[n - k], fpnkI = -im[n - k]
            let f1kR = fpkR + fpnkR, f1kI = fpkI + fpnkI
            let f2kR = fpkR - fpnkR, f2kI = fpkI - fpnkI
            let sr = Lanes(repeating: superRe[k - 1]), si = Lanes(repeating: superIm[k - 1])
            let twR = f2kR * sr - f2kI * si
            let twI = f2kR * si + f2kI * sr
            // At k = n/2 both writes go to one bin and the second one stays, as in kiss_fftr.
            if n - k != k { store(k, (f1kR + twR) * half, (f1kI + twI) * half) }
            store(n - k, (f1kR - twR) * half, (twI - f1kI) * half)
        }
    }

    /// kf_work: the stages from `stage` on, reading input points `input + q · inputStride`, writing `out...`.
    private func work(out: Int, input: Int, inputStride: Int, stage: Int) {
        let (p, m) = stages[stage]
        if m == 1 {
            for q in 0..<p {
                re[out + q] = inputRe[input + q * inputStride]
                im[out + q] = inputIm[input + q * inputStride]
            }
        } else {
            for q in 0..<p {
                work(out: out + q * m, input: input + q * inputStride, inputStride: inputStride * p, stage: stage + 1)
            }
        }
        if p == 4 { butterfly4(out, stride: inputStride, m: m) } else { butterfly2(out, stride: inputStride, m: m) }
    }

    /// kf_bfly2 (forward).
    @inline(__always)
    private func butterfly2(_ base: Int, stride: Int, m: Int) {
        for k in 0..<m {
            let w = k * stride
            let wr = Lanes(repeating: twiddleRe[w]), wi = Lanes(repeating: twiddleIm[w])
            let a = base + k, b = base + k + m
            let tr = re[b] * wr - im[b] * wi
            let ti = re[b] * wi + im[b] * wr
            re[b] = re[a] - tr
            im[b] = im[a] - ti
            re[a] += tr
            im[a] += ti
        }
    }

    /// kf_bfly4 (forward).
    @inline(__always)
    private func butterfly4(_ base: Int, stride: Int, m: Int) {
        for k in 0..<m {
            let i0 = base + k, i1 = i0 + m, i2 = i0 + 2 * m, i3 = i0 + 3 * m
            let w1 = k * stride, w2 = 2 * k * stride, w3 = 3 * k * stride
            let w1r = Lanes(repeating: twiddleRe[w1]), w1i = Lanes(repeating: twiddleIm[w1])
            let w2r = Lanes(repeating: twiddleRe[w2]), w2i = Lanes(repeating: twiddleIm[w2])
            let w3r = Lanes(repeating: twiddleRe[w3]), w3i = Lanes(repeating: twiddleIm[w3])
            let s0r = re[i1] * w1r - im[i1] * w1i, s0i = re[i1] * w1i + im[i1] * w1r
            let s1r = re[i2] * w2r - im[i2] * w2i, s1i = re[i2] * w2i + im[i2] * w2r
            let s2r = re[i3] * w3r - im[i3] * w3i, s2i = re[i3] * w3i + im[i3] * w3r
            let s5r = re[i0] - s1r, s5i = im[i0] - s1i
            re[i0] += s1r
            im[i0] += s1i
            let s3r = s0r + s2r, s3i = s0i + s2i
            let s4r = s0r - s2r, s4i = s0i - s2i
            re[i2] = re[i0] - s3r
            im[i2] = im[i0] - s3i
            re[i0] += s3r
            im[i0] += s3i
            re[i1] = s5r + s4i
            im[i1] = s5i - s4r
            re[i3] = s5r - s4i
            im[i3] = s5i + s4r
        }
    }
}
