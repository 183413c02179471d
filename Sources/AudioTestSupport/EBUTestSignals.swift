import AudioCore
import Foundation

/// The synthesisable test signals of EBU Tech 3341 (loudness meters) and Tech 3342 (loudness range).
///
/// Levels are per-channel peak dBFS of a 1 kHz sine, as the EBU tables state them; `nil` is silence.
/// All signals are 48 kHz. The table is in shared/reference/loudness-compliance.md.
public enum EBUTestSignals {
    /// The rate every EBU test signal uses.
    public static let sampleRate = 48_000

    /// One segment of a sequence: `seconds` of 1 kHz sine at `level` dBFS peak, or silence when `level` is nil.
    public struct Segment: Sendable {
        public var seconds: Double
        public var level: Double?
        public init(_ seconds: Double, _ level: Double?) {
            self.seconds = seconds
            self.level = level
        }
    }

    /// Concatenated segments of a phase-continuous 1 kHz sine (stereo unless `channels` says otherwise).
    public static func sequence(_ segments: [Segment], channels: Int = 2, frequency: Double = 1000) -> AudioBuffer {
        var out: [Float] = []
        var frame = 0
        let w = 2 * Double.pi * frequency / Double(sampleRate)
        for s in segments {
            let n = Int((s.seconds * Double(sampleRate)).rounded())
            let amp = s.level.map { pow(10, $0 / 20) } ?? 0
            out.reserveCapacity(out.count + n)
            for i in 0..<n { out.append(Float(amp * sin(w * Double(frame + i)))) }
            frame += n
        }
        return SignalGenerator.buffer(out, channels: channels, sampleRate: sampleRate)
    }

    /// Tech 3341 case 6: 5.0 channels (L, R @-28, C @-24, Ls, Rs @-30 dBFS), 20 s.
    public static func fivePointZero(seconds: Double = 20) -> AudioBuffer {
        let levels = [-28.0, -28, -24, -30, -30]
        let n = Int(seconds * Double(sampleRate))
        let w = 2 * Double.pi * 1000 / Double(sampleRate)
        let data = levels.map { db -> [Float] in
            let a = pow(10, db / 20)
            return (0..<n).map { Float(a * sin(w * Double($0))) }
        }
        return AudioBuffer(channelData: data, sampleRate: SampleRate(checked: sampleRate))
    }

    /// Tech 3341 cases 15–19: a sine at `fraction` of the sample rate (1/4, 1/6, 1/8), `amplitude` peak
    /// (linear, 0.5 or 1.41), starting at `phaseDegrees`, with 10 ms linear fades, `seconds` long, stereo.
    public static func truePeakSine(
        fraction: Double, amplitude: Double, phaseDegrees: Double, seconds: Double = 1
    ) -> AudioBuffer {
        let n = Int(seconds * Double(sampleRate))
        let fade = sampleRate / 100
        let w = 2 * Double.pi * fraction
        let phase = phaseDegrees * Double.pi / 180
        let x = (0..<n).map { i -> Float in
            let g = min(1, Double(min(i, n - 1 - i)) / Double(fade))
            return Float(g * amplitude * sin(w * Double(i) + phase))
        }
        return SignalGenerator.buffer(x, channels: 2, sampleRate: sampleRate)
    }

    /// Tech 3341 cases 20–23: an fs/6 sine at 0.5 FS with one period of fs/4 at 1.0 FS inserted
    /// phase-continuously, made at 4·fs, low-passed (windowed sinc at 20 kHz) and decimated by 4 starting at
    /// `offset` (0...3). Expected true peak: 0 dBTP.
    public static func truePeakInsert(offset: Int, seconds: Double = 1) -> AudioBuffer {
        precondition((0...3).contains(offset), "decimation offset is 0...3")
        let hi = 4 * sampleRate
        let n = Int(seconds * Double(hi))
        var x = [Double](repeating: 0, count: n)
        // fs/6 at 48 kHz = 8 kHz: 24 samples per period at 192 kHz; fs/4 = 12 kHz: 16 samples per period.
        let insertAt = (n / 2 / 24) * 24
        var phase = 0.0
        for i in 0..<n {
            let inInsert = i >= insertAt && i < insertAt + 16
            let f = inInsert ? 12_000.0 : 8_000.0
            x[i] = (inInsert ? 1.0 : 0.5) * sin(phase)
            phase += 2 * Double.pi * f / Double(hi)
        }
        // Blackman-windowed sinc low-pass, cutoff 20 kHz at 192 kHz, 257 taps.
        let taps = 257
        let half = taps / 2
        let fc = 20_000.0 / Double(hi)
        let h = (0..<taps).map { k -> Double in
            let m = Double(k - half)
            let sinc = m == 0 ? 2 * fc : sin(2 * Double.pi * fc * m) / (Double.pi * m)
            let win =
                0.42 - 0.5 * cos(2 * Double.pi * Double(k) / Double(taps - 1))
                + 0.08 * cos(4 * Double.pi * Double(k) / Double(taps - 1))
            return sinc * win
        }
        var out: [Float] = []
        var i = offset
        while i < n {
            var acc = 0.0
            for k in 0..<taps {
                let j = i + k - half
                if j >= 0 && j < n { acc += h[k] * x[j] }
            }
            out.append(Float(acc))
            i += 4
        }
        return SignalGenerator.buffer(out, channels: 2, sampleRate: sampleRate)
    }
}
