import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// `PerceptualBands.bandPower` keeps each band's running sum in a register while its bins come. It must give what
/// adding every bin's share into the output gives, to the bit: that plain loop is written out here (the code before,
/// e676a2d) and both read the same spectrograms.
@Suite struct PerceptualBandsTests {
    /// Every bin's share added into its two bands, bin by bin, frame by frame.
    static func plainBandPower(_ spectrogram: Spectrogram) -> (bands: Int, power: [Double]) {
        let bins = spectrogram.binCount
        let n = PerceptualBands.count(nyquist: spectrogram.binHertz * Double(spectrogram.size) / 2)
        let share = PerceptualBands.shares(bins: bins, binHertz: spectrogram.binHertz, bands: n)
        var out = [Double](repeating: 0, count: spectrogram.frameCount * n)
        for k in 0..<spectrogram.frameCount {
            for b in 0..<bins {
                guard let (i, w) = share[b] else { continue }
                let v = Double(spectrogram.power[k * bins + b])
                out[k * n + i] += v * w
                if w < 1 { out[k * n + i + 1] += v * (1 - w) }
            }
        }
        return (n, out)
    }

    /// Noise under three tones that glide, so partials cross band edges and every band gets power.
    static func signal(rate: Int, seconds: Double, seed: UInt64) -> [Float] {
        var rng = SeededRandom(seed: seed)
        let frames = Int(Double(rate) * seconds)
        return (0..<frames).map { i in
            let t = Double(i) / Double(rate)
            var x = 0.05 * Double(rng.nextSigned())
            for (f, level) in [(110.0, 0.5), (1_234.5, 0.2), (5_000.0, 0.1)] where f < Double(rate) / 2 {
                x += level * sin(2 * .pi * f * (1 + 0.1 * t) * t)
            }
            return Float(x * exp(-t))
        }
    }

    @Test("the bands' sums are the plain loop's, to the bit, at every rate and frame length")
    func theSameSumsAsThePlainLoop() {
        var cases = 0
        for rate in [8_000, 22_050, 44_100, 48_000, 96_000] {
            for frameSeconds in [0.01, 0.08, 0.2] {
                let x = Self.signal(rate: rate, seconds: 0.7, seed: UInt64(rate) + UInt64(frameSeconds * 1000))
                let s = Spectrogram(mono: x, sampleRate: Double(rate), frameSeconds: frameSeconds)
                let (bands, power) = PerceptualBands.bandPower(s)
                let plain = Self.plainBandPower(s)
                #expect(bands == plain.bands, "\(rate) Hz, \(frameSeconds) s")
                #expect(power == plain.power, "\(rate) Hz, \(frameSeconds) s")
                #expect(power.contains { $0 > 0 }, "\(rate) Hz, \(frameSeconds) s: a signal with power in its bands")
                cases += 1
            }
        }
        #expect(cases == 15)
    }
}
