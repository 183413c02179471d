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

    /// `seconds` of a bell (partials at 440 and 1130 Hz, T60 `t60` s, amplitude 0.3 and 0.15) struck at the start of
    /// the file, over `under` (as long).
    static func bell(t60: Double, over under: [Float], seconds: Double = 3) -> AudioBuffer {
        let ring = SignalGenerator.bell(
            partials: [(440, 0.3, t60), (1130, 0.15, t60)], seconds: seconds, sampleRate: rate)
        return SignalGenerator.buffer(zip(ring, under).map { $0 + $1 }, sampleRate: rate)
    }

    /// A hum heard through the whole file is the floor even where a bell still fades into it when the file ends: the
    /// tail's level is still falling (a T60 of 6 s: 10 dB/s, to 30 dB under its peak at the end, where the hum lies),
    /// so the tail alone reads no floor, and the file read as a sound cut off. The hum's level is the mean square of
    /// its lines (−41.7 dBFS for 50, 100 and 150 Hz at 0.01, 0.003 and 0.005), at 44.1 and 48 kHz.
    @Test func aHumThroughoutIsTheFloorUnderASoundFadingIntoIt() throws {
        let hum = Self.tones([(50, 0.01), (100, 0.003), (150, 0.005)]).monoMix()
        let expected = 10 * log10((0.01 * 0.01 + 0.003 * 0.003 + 0.005 * 0.005) / 2)
        let b = Self.bell(t60: 6, over: hum)
        let s = Spectrogram(b)
        let found = try #require(MainsHum.throughout(s, frames: 1..<s.frameCount - 1))
        #expect(found.frequency == 50 && abs(found.level - expected) < 0.3, "\(found), expected \(expected) dB")
        #expect(MainsHum.frequency(s, frames: (s.frameCount * 4 / 5)..<s.frameCount) == nil)
        let d = try #require(DecayAnalysis(b))
        #expect(d.humFrequency == 50 && !d.ringingAtEnd, "\(d)")
        #expect(abs(d.noiseFloor.map { $0 - expected } ?? 99) < 0.3, "\(String(describing: d.noiseFloor))")
        // Faded out with the sound over its last 0.4 s, as an edit ends a file: the hum is still the floor.
        var faded = b.monoMix()
        let fade = Int(0.4 * Double(Self.rate))
        for i in 0..<fade { faded[faded.count - fade + i] *= Float(1 - Double(i) / Double(fade)) }
        let f = Spectrogram(SignalGenerator.buffer(faded, sampleRate: Self.rate))
        #expect(MainsHum.throughout(f, frames: 1..<f.frameCount - 1)?.frequency == 50)
        // 60 Hz mains at 44.1 kHz.
        let n = Int(3 * 44_100.0)
        let hum60 = SignalGenerator.sine(frequency: 60, amplitude: 0.01, frames: n, sampleRate: 44_100)
        let ring = SignalGenerator.bell(partials: [(440, 0.3, 2.2)], seconds: 3, sampleRate: 44_100)
        let b60 = SignalGenerator.buffer(zip(ring, hum60).map { $0 + $1 }, sampleRate: 44_100)
        let d60 = try #require(DecayAnalysis(b60))
        #expect(d60.humFrequency == 60 && abs((d60.noiseFloor ?? 0) - 10 * log10(0.0001 / 2)) < 0.3, "\(d60)")
    }

    /// What is no hum heard throughout: a partial of the sound on a mains harmonic, which rises with the strike and
    /// decays (100 Hz, T60 20 s: 9 dB across 3 s); a hum that starts halfway or swells at the end; steady noise (no
    /// line); a silent floor; a steady tone on the grid within 10 dB of the sound's peak, which is part of the sound,
    /// not a floor under it; and a stretch too short to quarter.
    @Test func whatIsNoHumThroughout() throws {
        let n = 3 * Self.rate
        let silence = [Float](repeating: 0, count: n)
        let partial = SignalGenerator.bell(partials: [(100, 0.01, 20)], seconds: 3, sampleRate: Self.rate)
        let b = Self.bell(t60: 2.2, over: partial)
        #expect(MainsHum.throughout(Spectrogram(b), frames: 1..<Spectrogram(b).frameCount - 1) == nil)
        var late = Self.tones([(50, 0.01), (150, 0.005)]).monoMix()
        for i in 0..<(n / 2) { late[i] = 0 }
        let l = Self.bell(t60: 2.2, over: late)
        #expect(MainsHum.throughout(Spectrogram(l), frames: 1..<Spectrogram(l).frameCount - 1) == nil)
        // A hum that swells in the last quarter is no floor either.
        var swelling = Self.tones([(50, 0.01), (150, 0.005)]).monoMix()
        for i in (n * 3 / 4)..<n { swelling[i] *= 2 }
        let s = Self.bell(t60: 2.2, over: swelling)
        #expect(MainsHum.throughout(Spectrogram(s), frames: 1..<Spectrogram(s).frameCount - 1) == nil)
        let noise = SignalGenerator.whiteNoise(frames: n, amplitude: 0.01, seed: 7)
        let w = Self.bell(t60: 2.2, over: noise)
        #expect(MainsHum.throughout(Spectrogram(w), frames: 1..<Spectrogram(w).frameCount - 1) == nil)
        // The bell rings on (T60 20 s) over the tone, so the tail alone reads no floor either.
        let loud = Self.bell(t60: 20, over: Self.tones([(150, 0.2)]).monoMix())
        #expect(MainsHum.throughout(Spectrogram(loud), frames: 1..<Spectrogram(loud).frameCount - 1) != nil)
        let d = try #require(DecayAnalysis(loud))
        #expect(d.humFrequency == nil && d.noiseFloor == nil, "\(d)")
        #expect(MainsHum.throughout(Spectrogram(Self.bell(t60: 2.2, over: silence)), frames: 1..<60) == nil)
        // A stretch too short to hold two frames in each quarter is not judged; the whole file is.
        let short = Spectrogram(Self.bell(t60: 2.2, over: Self.tones([(50, 0.01)]).monoMix()))
        #expect(MainsHum.throughout(short, frames: 1..<(1 + 4 * MainsHum.framesPerStretch - 1)) == nil)
        #expect(MainsHum.throughout(short, frames: 1..<(short.frameCount - 1))?.frequency == 50)
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
