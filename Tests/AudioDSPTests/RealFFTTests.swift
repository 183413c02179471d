import AudioCore
import Foundation
import Testing

@testable import AudioDSP

@Suite struct RealFFTTests {
    @Test("power spectrum: digital silence gives exact zeros; one sample anywhere gives its flat spectrum")
    func silentFramesAndImpulses() {
        // 1030 is not a multiple of 8: the last samples go through the zero check's scalar tail.
        for size in [64, 1030, 1024] {
            let fft = RealFFT(size: size)
            var frame = [Float](repeating: 0, count: size)
            frame[size / 3] = -0.0
            var power = [Float](repeating: -1, count: fft.binCount)
            frame.withUnsafeBufferPointer { f in
                power.withUnsafeMutableBufferPointer { fft.powerSpectrum(f.baseAddress!, into: $0.baseAddress!) }
            }
            #expect(power.allSatisfy { $0 == 0 && $0.sign == .plus }, "size \(size): silence")
            // An impulse of height a has |X[k]| = a at every bin, wherever it sits.
            for at in [0, 5, 8, size / 2, size - 3, size - 1] {
                var x = [Float](repeating: 0, count: size)
                x[at] = 0.25
                x.withUnsafeBufferPointer { f in
                    power.withUnsafeMutableBufferPointer { fft.powerSpectrum(f.baseAddress!, into: $0.baseAddress!) }
                }
                let worst = power.map { abs($0 - 0.0625) }.max() ?? 1
                #expect(worst < 1e-6, "size \(size), impulse at \(at): off by \(worst)")
            }
        }
    }

    @Test("power spectrum of a sine matches a direct DFT")
    func sineMatchesDirectDFT() {
        let size = 256
        let fft = RealFFT(size: size)
        let x = (0..<size).map { Float(0.7 * sin(2 * Double.pi * 10.3 * Double($0) / Double(size))) }
        var power = [Float](repeating: 0, count: fft.binCount)
        x.withUnsafeBufferPointer { f in
            power.withUnsafeMutableBufferPointer { fft.powerSpectrum(f.baseAddress!, into: $0.baseAddress!) }
        }
        for k in [0, 3, 10, 11, 64, 128] {
            var re = 0.0
            var im = 0.0
            for (i, v) in x.enumerated() {
                re += Double(v) * cos(2 * Double.pi * Double(k * i) / Double(size))
                im -= Double(v) * sin(2 * Double.pi * Double(k * i) / Double(size))
            }
            let direct = re * re + im * im
            #expect(abs(Double(power[k]) - direct) <= 1e-4 * max(1, direct), "bin \(k): \(power[k]) vs \(direct)")
        }
    }
}
