import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// A sound whose level comes back to its peak (within 1 dB, as loud to a listener) after falling has not decayed
/// there: which of its equal tops is the loudest turns with a resample, a pad or a codec, and the decay a cut file's
/// extrapolation carries on is the one after the last of them (docs/bells.md, `d40Extrapolated`).
@Suite struct DecayEqualTopsTests {
    static let rate = 48_000

    /// A trill held to the end of its file, 0.7 s of a 4.5 kHz tone dipping 16 dB eleven times at equal tops, one
    /// top 0.05 dB louder than the rest: no decay to carry on, wherever that top lies. With the loudest top early, the
    /// dip after it read as a fall of 10 dB and the trill "would fall 40 dB in 0.1 s" (the proxy set's
    /// `si-canary-long`, a notification that read so at 16 and 48 kHz and could not be told at 22.05 kHz).
    @Test func aTrillsEqualTopsAreNoDecayWhicheverIsLoudest() throws {
        let cycle = 0.7 / 11
        for loudest in [1, 5, 9] {
            let samples = (0..<Int(0.7 * Double(Self.rate))).map { i -> Float in
                let t = Double(i) / Double(Self.rate)
                let gain = Int(t / cycle) == loudest ? pow(10, 0.05 / 20) : 1
                let dip = 0.58 + 0.42 * cos(2 * Double.pi * t / cycle)
                return Float(0.2 * gain * dip * min(1, t / 0.005) * sin(2 * Double.pi * 4500 * t))
            }
            let d = try #require(DecayAnalysis(SignalGenerator.buffer(samples, sampleRate: Self.rate)))
            #expect(
                d.d40 == nil && d.d40Extrapolated == nil,
                "loudest top \(loudest): peak at \(d.peakTime) s, extrapolated \(d.d40Extrapolated ?? 0) s")
            #expect(d.ringingAtEnd)
        }
    }

    /// Three equal beeps 0.25 s apart with silence between, the last left ringing at a bell's rate (25 dB/s) until
    /// the file cuts it 20 dB down: the decay carried on is the last beep's, so the level reaches −40 dB at the same
    /// time (2.1 s from the start) whichever beep is 0.05 dB the loudest. With the first the loudest, the line was
    /// drawn through its own end into the silence after it.
    @Test func aCutRingAfterEqualBeepsIsCarriedOnFromTheLastBeep() throws {
        let fall = 25.0 * log(10.0) / 20
        var reached: [Double] = []
        for loudest in 0..<3 {
            let samples = (0..<Int(1.3 * Double(Self.rate))).map { i -> Float in
                let t = Double(i) / Double(Self.rate)
                let beep = min(2, Int(t / 0.25))
                let s = t - 0.25 * Double(beep)
                // Beeps 1 and 2 last 0.2 s and end in a 5 ms fade; beep 3 rings until the file ends.
                let end = beep < 2 ? min(1, max(0, (0.2 - s) / 0.005)) : 1
                let gain = beep == loudest ? pow(10, 0.05 / 20) : 1
                return Float(0.3 * gain * end * exp(-fall * s) * min(1, s / 0.002) * sin(2 * Double.pi * 880 * t))
            }
            let d = try #require(DecayAnalysis(SignalGenerator.buffer(samples, sampleRate: Self.rate)))
            let x = try #require(d.d40Extrapolated, "loudest beep \(loudest + 1)")
            reached.append(d.peakTime + x)
        }
        for (k, t) in reached.enumerated() {
            #expect(abs(t - 2.1) < 0.1, "loudest beep \(k + 1): −40 dB reached at \(t) s")
        }
    }
}
