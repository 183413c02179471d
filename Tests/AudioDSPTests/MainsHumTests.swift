import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// Mains hum on both sides of its lines: partials on the harmonics of 50 or 60 Hz, the strongest among the first three,
/// steady under the tail, are a floor (``DecayAnalysis/humFrequency``); a steady tone off the grid, or high on it (a
/// 1 kHz beep is the 20th harmonic of 50 Hz), is the sound still going; a partial fading under the hum is the sound
/// going, and leaves the hum its floor.
@Suite struct MainsHumTests {
    static let rate = 48_000

    /// `seconds` of steady sines (Hz, amplitude) summed.
    static func tones(_ parts: [(Double, Double)], seconds: Double = 3) -> AudioBuffer {
        let n = Int(seconds * Double(rate))
        var sum = [Float](repeating: 0, count: n)
        for (f, a) in parts {
            let s = SignalGenerator.sine(frequency: f, amplitude: a, frames: n, sampleRate: rate)
            for i in 0..<n { sum[i] += s[i] }
        }
        return SignalGenerator.buffer(sum, sampleRate: rate)
    }

    func hum(_ b: AudioBuffer) -> Double? {
        MainsHum.frequency(Spectrogram(b), frames: 0..<Spectrogram(b).frameCount)
    }

    @Test func harmonicsOfTheMainsAreHum() throws {
        #expect(hum(Self.tones([(50, 0.01), (100, 0.003), (150, 0.005)])) == 50)
        #expect(hum(Self.tones([(60, 0.01), (120, 0.003), (180, 0.005)])) == 60)
        // A rectifier's buzz: strongest at twice the mains, with upper harmonics.
        #expect(hum(Self.tones([(100, 0.01), (200, 0.004), (300, 0.003), (400, 0.002)])) == 50)
        // Mains 0.5 % off its nominal frequency (EN 50160 allows 1 %).
        #expect(hum(Self.tones([(50.25, 0.01), (150.75, 0.005)])) == 50)
        let d = try #require(DecayAnalysis(Self.tones([(50, 0.01), (100, 0.003), (150, 0.005)])))
        #expect(d.humFrequency == 50 && d.noiseFloor != nil && !d.ringingAtEnd)
    }

    /// A bell's last partial fading under the hum (440 Hz falling 7 dB/s, from 10 dB under the hum's 50 Hz: within
    /// the 20 dB that partials count in) is the sound going, not the floor: the hum under it is still the floor, and
    /// the tail is no sustained sound cut off. The same partial held steady is a tone the floor does not explain, and a
    /// fading partial that is the loudest leaves no floor to name.
    @Test func aPartialFadingUnderTheHumIsNotTheFloor() throws {
        let n = 3 * Self.rate
        func withPartial(amplitude: Double, dbPerSecond: Double, over base: AudioBuffer) -> AudioBuffer {
            var x = base.monoMix()
            for i in 0..<n {
                let t = Double(i) / Double(Self.rate)
                x[i] += Float(amplitude * pow(10, -dbPerSecond * t / 20) * sin(2 * Double.pi * 440 * t))
            }
            return SignalGenerator.buffer(x, sampleRate: Self.rate)
        }
        let hum = Self.tones([(50, 0.01), (100, 0.003), (150, 0.005)])
        let fading = withPartial(amplitude: 0.01 * pow(10, -0.5), dbPerSecond: 7, over: hum)
        #expect(self.hum(fading) == 50)
        // The sound itself: the partial starts 5 dB over the hum and is still 14 dB under it in the tail read for the
        // floor (the last 0.6 s).
        let bell = withPartial(amplitude: 0.01 * pow(10, 0.25), dbPerSecond: 7, over: hum)
        let d = try #require(DecayAnalysis(bell))
        #expect(d.humFrequency == 50 && d.noiseFloor != nil && !d.ringingAtEnd)
        #expect(self.hum(withPartial(amplitude: 0.01 * pow(10, -0.5), dbPerSecond: 0, over: hum)) == nil)
        #expect(self.hum(withPartial(amplitude: 0.1, dbPerSecond: 7, over: hum)) == nil)
    }

    @Test func otherSteadyTonesAreNotHum() throws {
        #expect(hum(Self.tones([(1000, 0.3)])) == nil)
        #expect(hum(Self.tones([(440, 0.1)])) == nil)
        // A hum's harmonics with a partial off the grid within 20 dB of the strongest (a bell's 310 Hz).
        #expect(hum(Self.tones([(50, 0.01), (150, 0.005), (310, 0.002)])) == nil)
        let d = try #require(DecayAnalysis(Self.tones([(1000, 0.3)])))
        #expect(d.humFrequency == nil && d.noiseFloor == nil && d.ringingAtEnd)
        #expect(MainsHum.frequencies == [50, 60] && MainsHum.tolerance == 0.015 && MainsHum.strongestHarmonic == 3)
    }
}
