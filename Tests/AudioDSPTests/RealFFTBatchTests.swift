import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// The eight-lane transform against KissFFT (``RealFFT``), frame by frame, and the spectrogram built on it against
/// one built frame by frame.
@Suite struct RealFFTBatchTests {
    /// Both are radix-4/2 transforms in Float with the same twiddles; their roundings differ, by a few units in the
    /// last place of the largest bins through log2(size) stages (~13 × 6e-8 of the frame's largest power at 8192
    /// points). 1e-5 of it leaves room and is still far below any level the analyses compare (0.01 dB ≈ 2e-3).
    static let tolerance: Float = 1e-5

    func expectClose(_ a: UnsafeBufferPointer<Float>, _ b: [Float]) {
        let top = max(b.max() ?? 0, Float.leastNormalMagnitude)
        for (x, y) in zip(a, b) { #expect(abs(x - y) <= Self.tolerance * top, "\(x) vs \(y)") }
    }

    @Test(arguments: [256, 1024, 4096, 8192])
    func powerSpectraMatchKissFFT(size: Int) throws {
        let batch = try #require(RealFFTBatch(size: size))
        let fft = RealFFT(size: size)
        var rng = SeededRandom(seed: UInt64(size))
        // Lane 0: a sine between bins; lane 1: silence; the others: seeded noise of different levels.
        let frames: [[Float]] = (0..<RealFFTBatch.width).map { j in
            (0..<size).map { i in
                switch j {
                case 0: Float(0.7 * sin(2 * Double.pi * 37.3 * Double(i) / Double(size)))
                case 1: 0
                default: Float(pow(10, -Double(j))) * rng.nextSigned()
                }
            }
        }
        for i in 0..<(size / 2) {
            var r = RealFFTBatch.Lanes.zero
            var m = RealFFTBatch.Lanes.zero
            for j in 0..<RealFFTBatch.width { (r[j], m[j]) = (frames[j][2 * i], frames[j][2 * i + 1]) }
            batch.inputRe[i] = r
            batch.inputIm[i] = m
        }
        let bins = batch.binCount
        // Only the first six lanes are asked for: the rows after them stay as they were.
        var out = [Float](repeating: -1, count: RealFFTBatch.width * bins)
        out.withUnsafeMutableBufferPointer { batch.powerSpectra(into: $0.baseAddress!, stride: bins, count: 6) }
        for j in 0..<6 {
            var want = [Float](repeating: 0, count: bins)
            frames[j].withUnsafeBufferPointer { f in
                want.withUnsafeMutableBufferPointer { fft.powerSpectrum(f.baseAddress!, into: $0.baseAddress!) }
            }
            out.withUnsafeBufferPointer {
                expectClose(UnsafeBufferPointer(rebasing: $0[(j * bins)..<((j + 1) * bins)]), want)
            }
        }
        #expect(out[(bins)..<(2 * bins)].allSatisfy { $0 == 0 })
        #expect(out[(6 * bins)...].allSatisfy { $0 == -1 })
    }

    @Test func sizesWhoseHalfIsNotAPowerOfTwoAreRefused() {
        #expect(RealFFTBatch(size: 3 * 1024) == nil)
        #expect(RealFFTBatch(size: 2) == nil)
    }

    /// Frames at both ends of the file (zeros outside it), a batch of fewer than eight, and a stretch of digital
    /// silence: the spectrogram's values are the frame-by-frame transform's.
    @Test func spectrogramMatchesFrameByFrameTransforms() {
        let rate = 8000.0
        var rng = SeededRandom(seed: 3)
        // 2.1 s: a decaying tone, then 0.6 s of digital silence, then noise.
        let x: [Float] = (0..<16_800).map { i in
            let t = Double(i) / rate
            if t < 1.2 { return Float(0.5 * sin(2 * .pi * 440 * t) * exp(-2 * t)) }
            if t < 1.8 { return 0 }
            return 0.01 * rng.nextSigned()
        }
        let s = Spectrogram(mono: x, sampleRate: rate)
        let size = s.size
        let hop = size / 2
        let fft = RealFFT(size: size)
        let window = HannWindow.shared(size).map { $0 * (1 / Float(size * size) * 16 / 2).squareRoot() }
        #expect(s.frameCount % RealFFTBatch.width != 0)
        for k in 0..<s.frameCount {
            let start = k * hop - size / 2
            let frame = (0..<size).map { i in start + i >= 0 && start + i < x.count ? x[start + i] * window[i] : 0 }
            var want = [Float](repeating: 0, count: s.binCount)
            frame.withUnsafeBufferPointer { f in
                want.withUnsafeMutableBufferPointer { fft.powerSpectrum(f.baseAddress!, into: $0.baseAddress!) }
            }
            s.power.withUnsafeBufferPointer {
                expectClose(UnsafeBufferPointer(rebasing: $0[(k * s.binCount)..<((k + 1) * s.binCount)]), want)
            }
        }
    }
}
