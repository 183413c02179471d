import AudioCore
import Foundation

/// Synthetic bells and chimes with known partials, decays and attacks, and the defects a bell audition must
/// find (clipping, cut tails, pre-roll, DC, noise). Deterministic.
public enum BellSignals {
    /// One partial: frequency (Hz), peak amplitude, and seconds to decay 60 dB.
    public struct Partial: Sendable {
        public var frequency: Double
        public var amplitude: Double
        public var t60: Double
        public init(_ frequency: Double, _ amplitude: Double, t60: Double) {
            self.frequency = frequency
            self.amplitude = amplitude
            self.t60 = t60
        }
    }

    /// A slow, inharmonic temple bell (lowest partial 310 Hz, every partial T60 = 6 s, amplitudes summing to
    /// 0.53 so that the true peak stays below −1 dBTP).
    public static let templePartials: [Partial] = [
        Partial(310, 0.20, t60: 6), Partial(592, 0.14, t60: 6), Partial(845, 0.10, t60: 6),
        Partial(1273, 0.06, t60: 6), Partial(1694, 0.03, t60: 6),
    ]

    /// A struck sound: each partial starts at `strike` seconds with a linear attack of `attack` seconds and
    /// decays exponentially; `seconds` long, `channels` identical channels. `beat` adds a second copy of the
    /// lowest partial `beat` Hz higher (equal amplitude) for slow beating.
    public static func bell(
        _ partials: [Partial] = templePartials, seconds: Double = 8, attack: Double = 0.005, strike: Double = 0,
        beat: Double? = nil, sampleRate: Int = 48_000, channels: Int = 1
    ) -> AudioBuffer {
        var all = partials
        if let b = beat, let low = partials.first {
            all[0].amplitude = low.amplitude / 2
            all.append(Partial(low.frequency + b, low.amplitude / 2, t60: low.t60))
        }
        let x = strikes(all, at: [strike], seconds: seconds, attack: attack, sampleRate: sampleRate)
        return SignalGenerator.buffer(x, channels: channels, sampleRate: sampleRate)
    }

    /// A fast desktop-alert "ding-dong": two harmonic notes (660 Hz then 524 Hz) 0.25 s apart, T60 0.6 s.
    public static func twoNoteChime(seconds: Double = 1.5, sampleRate: Int = 48_000) -> AudioBuffer {
        let ding = [Partial(660, 0.4, t60: 0.6), Partial(1320, 0.15, t60: 0.4), Partial(1980, 0.06, t60: 0.3)]
        let dong = [Partial(524, 0.4, t60: 0.6), Partial(1048, 0.15, t60: 0.4), Partial(1572, 0.06, t60: 0.3)]
        let a = strikes(ding, at: [0], seconds: seconds, attack: 0.002, sampleRate: sampleRate)
        let b = strikes(dong, at: [0.25], seconds: seconds, attack: 0.002, sampleRate: sampleRate)
        return SignalGenerator.buffer(zip(a, b).map { $0 + $1 }, channels: 1, sampleRate: sampleRate)
    }

    /// Sums decaying partials struck at each time in `times` (seconds).
    public static func strikes(
        _ partials: [Partial], at times: [Double], seconds: Double, attack: Double, sampleRate: Int
    ) -> [Float] {
        let n = Int(seconds * Double(sampleRate))
        var out = [Double](repeating: 0, count: n)
        let ramp = max(1, Int(attack * Double(sampleRate)))
        for t in times {
            let s = Int(t * Double(sampleRate))
            for p in partials {
                let w = 2 * Double.pi * p.frequency / Double(sampleRate)
                let decay = pow(10, -3 / (p.t60 * Double(sampleRate)))
                var env = p.amplitude
                for i in max(0, s)..<n {
                    let k = i - s
                    let gain = k < ramp ? Double(k) / Double(ramp) : 1
                    out[i] += gain * env * sin(w * Double(k))
                    if k >= ramp { env *= decay }
                }
            }
        }
        return out.map(Float.init)
    }

    /// A melodic figure of `notes` (Hz) struck `spacing` seconds apart, each a harmonic tone (fundamental and
    /// two overtones) ringing with `t60` after a linear `attack` (s): a notification's arpeggio, however long it
    /// rings; with an attack of tens of milliseconds, a pad's soft notes swelling in over the ring of the last.
    public static func figure(
        _ notes: [Double] = [523.25, 659.26, 783.99], spacing: Double = 0.25, t60: Double = 4, seconds: Double = 4,
        attack: Double = 0.002, sampleRate: Int = 48_000
    ) -> AudioBuffer {
        var sum = [Float](repeating: 0, count: Int(seconds * Double(sampleRate)))
        for (i, f) in notes.enumerated() {
            let tone = [
                Partial(f, 0.25, t60: t60), Partial(2 * f, 0.1, t60: t60 * 0.7), Partial(3 * f, 0.04, t60: t60 * 0.5),
            ]
            let x = strikes(tone, at: [Double(i) * spacing], seconds: seconds, attack: attack, sampleRate: sampleRate)
            for k in sum.indices { sum[k] += x[k] }
        }
        return SignalGenerator.buffer(sum, channels: 1, sampleRate: sampleRate)
    }

    /// Gaussian noise (white, or pink when `pink`: a −3 dB/octave Voss–McCartney sum) of RMS `dbfs`, decaying
    /// `t60` seconds per 60 dB after a 5 ms attack, or steady when `t60` is nil.
    public static func noiseBurst(
        t60: Double?, seconds: Double = 4, dbfs: Double = -12, pink: Bool = false, seed: UInt64 = 5,
        sampleRate: Int = 48_000
    ) -> AudioBuffer {
        var rng = SeededRandom(seed: seed)
        let n = Int(seconds * Double(sampleRate))
        var rows = [Double](repeating: 0, count: 16)
        var x = [Double](repeating: 0, count: n)
        for i in 0..<n {
            if pink {
                // Row k is redrawn every 2^k samples: the sum falls 3 dB per octave.
                var k = 0
                while k < rows.count - 1 && (i >> k) & 1 == 1 { k += 1 }
                rows[k] = rng.nextGaussian()
                x[i] = rows.reduce(0, +) / 4
            } else {
                x[i] = rng.nextGaussian()
            }
        }
        let rms = (x.reduce(0) { $0 + $1 * $1 } / Double(max(n, 1))).squareRoot()
        let scale = pow(10, dbfs / 20) / max(rms, 1e-12)
        let ramp = Int(0.005 * Double(sampleRate))
        let decay = t60.map { pow(10, -3 / ($0 * Double(sampleRate))) } ?? 1
        var env = 1.0
        let out = (0..<n).map { i -> Float in
            let gain =
                i < ramp
                ? Double(i) / Double(ramp)
                : {
                    env *= decay; return env
                }()
            return Float(x[i] * scale * gain)
        }
        return SignalGenerator.buffer(out, channels: 1, sampleRate: sampleRate)
    }

    // MARK: - Defects

    /// Multiplies by `decibels` of gain and clips at ±1 (a hard-clipped file).
    public static func clipped(_ b: AudioBuffer, gain decibels: Double = 12) -> AudioBuffer {
        var out = b
        let g = Float(pow(10, decibels / 20))
        out.samples = b.samples.map { min(1, max(-1, $0 * g)) }
        return out
    }

    /// Cuts the sound where its envelope (10 ms RMS) first falls `below` dB under its peak, with an optional
    /// linear fade of `fade` seconds ending at the cut.
    public static func cutTail(_ b: AudioBuffer, below: Double = 20, fade: Double = 0) -> AudioBuffer {
        let x = b.monoMix()
        let w = b.sampleRate.hertz / 100
        var peak = 0.0
        var cut = b.frameCount
        var i = 0
        var rmsValues: [(Int, Double)] = []
        while i + w <= x.count {
            let r = (x[i..<(i + w)].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(w)).squareRoot()
            rmsValues.append((i + w, r))
            peak = max(peak, r)
            i += w
        }
        let limit = peak * pow(10, -below / 20)
        if let peakAt = rmsValues.firstIndex(where: { $0.1 == peak }),
            let hit = rmsValues[peakAt...].first(where: { $0.1 < limit })
        {
            cut = hit.0
        }
        var out = b.slice(frames: 0..<cut)
        let f = Int(fade * b.sampleRate.double)
        if f > 0 {
            for ch in 0..<out.channels {
                for k in 0..<min(f, cut) { out[ch, cut - 1 - k] *= Float(k) / Float(f) }
            }
        }
        return out
    }

    /// A wide stereo bell, as a stereo piano's notes sit across the field: ``templePartials`` struck hard left (the
    /// right channel silent), then again at `second` seconds in the centre (both channels), `centre` times as loud.
    /// With `centre` between 0.5 and 0.71 its two readings disagree on which strike is the loudest: the channels'
    /// mean power is loudest at the first (the left channel's power halved by the silent right), the mono mix at the
    /// second (a hard-left strike's amplitude halved in the mix, its power quartered). At 0.55, by about 1.5 dB each.
    public static func wideStereo(
        seconds: Double = 8, second: Double = 2, centre: Double = 0.55, sampleRate: Int = 48_000
    ) -> AudioBuffer {
        let left = strikes(templePartials, at: [0], seconds: seconds, attack: 0.005, sampleRate: sampleRate)
        let middle = strikes(
            templePartials.map { Partial($0.frequency, $0.amplitude * centre, t60: $0.t60) }, at: [second],
            seconds: seconds, attack: 0.005, sampleRate: sampleRate)
        return AudioBuffer(
            channelData: [zip(left, middle).map { $0 + $1 }, middle], sampleRate: SampleRate(checked: sampleRate))
    }

    /// Adds `seconds` of digital silence before the sound.
    public static func preRoll(_ b: AudioBuffer, seconds: Double = 1.5) -> AudioBuffer {
        let pad = Int(seconds * b.sampleRate.double)
        let data = (0..<b.channels).map { [Float](repeating: 0, count: pad) + Array(b.channel($0)) }
        return AudioBuffer(channelData: data, sampleRate: b.sampleRate)
    }

    /// `b` after `seconds` of white noise `under` dB under its loudest 10 ms (its RMS; the same noise on every channel,
    /// and on under the sound too): a recording's hiss or room tone before the strike. The sound is scaled to a
    /// −3 dBFS sample peak first, so that the noise's samples pass −60 dBFS from 50 dB under.
    public static func afterRoomTone(_ b: AudioBuffer, seconds: Double, under: Double, seed: UInt64 = 7) -> AudioBuffer
    {
        let peak = b.samples.map(abs).max() ?? 0
        let scaled = b.samples.map { $0 * Float(pow(10, -3.0 / 20)) / max(peak, 1e-12) }
        let n = b.frameCount
        let w = max(1, Int(0.01 * b.sampleRate.double))
        var loudest = 0.0
        for c in 0..<b.channels {
            var sum = 0.0
            for i in 0..<n {
                sum += Double(scaled[c * n + i] * scaled[c * n + i])
                if i >= w { sum -= Double(scaled[c * n + i - w] * scaled[c * n + i - w]) }
                loudest = max(loudest, sum / Double(w))
            }
        }
        let pad = Int(seconds * b.sampleRate.double)
        // Uniform noise of peak A has RMS A / √3.
        let amplitude = Float(loudest.squareRoot() * pow(10, -under / 20) * 3.0.squareRoot())
        let noise = SignalGenerator.whiteNoise(frames: pad + n, amplitude: amplitude, seed: seed)
        let data = (0..<b.channels).map { c in
            (0..<(pad + n)).map { i in noise[i] + (i < pad ? 0 : scaled[c * n + i - pad]) }
        }
        return AudioBuffer(channelData: data, sampleRate: b.sampleRate)
    }

    /// Adds a constant `offset` (full-scale units: 0.02 = 2 %).
    public static func dcOffset(_ b: AudioBuffer, _ offset: Float = 0.02) -> AudioBuffer {
        var out = b
        out.samples = b.samples.map { $0 + offset }
        return out
    }

    /// Adds Gaussian white noise of RMS `dbfs` (−45 = 0.0056 RMS).
    public static func noisy(_ b: AudioBuffer, dbfs: Double = -45, seed: UInt64 = 7) -> AudioBuffer {
        var rng = SeededRandom(seed: seed)
        let sigma = pow(10, dbfs / 20)
        var out = b
        out.samples = b.samples.map { $0 + Float(rng.nextGaussian() * sigma) }
        return out
    }

    /// Scales by `decibels` of gain (no clipping).
    public static func scaled(_ b: AudioBuffer, decibels: Double) -> AudioBuffer {
        var out = b
        out.scale(by: Float(pow(10, decibels / 20)))
        return out
    }
}
