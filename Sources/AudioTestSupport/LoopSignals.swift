import AudioCore
import Foundation

/// Loop material for seam tests: periodic noise, tones and drip patterns that loop perfectly when cut at a
/// multiple of their period, plus the faults a bad loop has (a click, a level drift, a DC offset).
///
/// Every generator is deterministic for its seed. Noise cycles have their mean removed, as real recordings
/// are DC-free, so a DC test measures only the DC it adds.
public enum LoopSignals {
    /// Noise that repeats every `period` frames exactly, `frames` long, one independent cycle per channel.
    ///
    /// - Parameters:
    ///   - smoothingHz: when set, each cycle goes through `poles` one-pole low-passes at this corner (applied
    ///     circularly, so the result is still exactly periodic): rain-like rumble with little high band.
    ///   - highPassHz: when set, what one circular low-pass at this corner leaves out is taken (a one-pole
    ///     high-pass, after the smoothing): brown noise without its rumble under 20 Hz, as a generator makes it.
    ///   - amplitude: peak of the raw uniform noise before smoothing.
    public static func periodicNoise(
        period: Int, frames: Int, channels: Int = 2, sampleRate: Int = 48_000, amplitude: Float = 0.3,
        smoothingHz: Double? = nil, poles: Int = 3, highPassHz: Double? = nil, seed: UInt64
    ) -> AudioBuffer {
        precondition(period >= 1 && frames >= 1, "period and length must be positive")
        var rng = SeededRandom(seed: seed)
        let data: [[Float]] = (0..<channels).map { _ in
            var cycle = (0..<period).map { _ in rng.nextSigned() * amplitude }
            if let hz = smoothingHz {
                for _ in 0..<poles { cycle = circularLowPass(cycle, cornerHz: hz, sampleRate: sampleRate) }
                if let high = highPassHz {
                    let low = circularLowPass(cycle, cornerHz: high, sampleRate: sampleRate)
                    cycle = zip(cycle, low).map { $0 - $1 }
                }
                // Restore the level lost in filtering: RMS back to that of the raw noise.
                let gain = Float(Double(amplitude) / 3.0.squareRoot() / max(rms(cycle), 1e-12))
                cycle = cycle.map { $0 * gain }
            }
            let mean = cycle.reduce(0, +) / Float(period)
            cycle = cycle.map { $0 - mean }
            return (0..<frames).map { cycle[$0 % period] }
        }
        return AudioBuffer(channelData: data, sampleRate: SampleRate(checked: sampleRate))
    }

    /// A chord of sines, `frames` long. Each frequency loops perfectly when `frames × frequency / sampleRate` is whole;
    /// ``wholeCycleFrequency(near:frames:sampleRate:)`` picks such frequencies.
    public static func tones(
        frequencies: [Double], frames: Int, channels: Int = 2, sampleRate: Int = 48_000, amplitude: Double = 0.2
    ) -> AudioBuffer {
        let mono = (0..<frames).map { i -> Float in
            var s = 0.0
            for f in frequencies { s += amplitude * sin(2 * Double.pi * f * Double(i) / Double(sampleRate)) }
            return Float(s)
        }
        return AudioBuffer(
            channelData: Array(repeating: mono, count: channels), sampleRate: SampleRate(checked: sampleRate))
    }

    /// The frequency nearest `hz` that completes a whole number of cycles (plus `extraCycle`) in `frames`.
    public static func wholeCycleFrequency(near hz: Double, frames: Int, sampleRate: Int, extraCycle: Double = 0)
        -> Double
    {
        let cycles = (hz * Double(frames) / Double(sampleRate)).rounded() + extraCycle
        return cycles * Double(sampleRate) / Double(frames)
    }

    /// Drips: an identical decaying sine burst every `period` frames over a quiet periodic noise bed, `frames` long.
    ///
    /// The burst's pitch (900 ... 1800 Hz), decay (15 ... 40 ms) and place in the period come from `seed`;
    /// the bed sits 40 dB below the burst peak.
    public static func drips(
        period: Int, frames: Int, channels: Int = 2, sampleRate: Int = 48_000, seed: UInt64
    ) -> AudioBuffer {
        var rng = SeededRandom(seed: seed)
        let pitch = 900 + 900 * rng.nextUnit()
        let decay = 0.015 + 0.025 * rng.nextUnit()
        let offset = Int(rng.nextUnit() * Double(period))
        let burstLength = min(period, Int(decay * 8 * Double(sampleRate)))
        let burst = (0..<burstLength).map { i -> Float in
            let t = Double(i) / Double(sampleRate)
            return Float(0.5 * sin(2 * Double.pi * pitch * t) * exp(-t / decay))
        }
        let bed = periodicNoise(
            period: period, frames: frames, channels: channels, sampleRate: sampleRate, amplitude: 0.005,
            seed: rng.next())
        var out = bed
        for c in 0..<channels {
            var start = offset - period
            while start < frames {
                for (j, s) in burst.enumerated() {
                    let i = start + j
                    if i >= 0 && i < frames { out[c, i] += s }
                }
                start += period
            }
        }
        return out
    }

    /// A ticking timer as a microphone hears it: a tick every `interval` frames from `offset`, each a burst of its own
    /// noise (1 ms rise, 15 ms decay, so the waveform never repeats) with up to ±1 ms of jitter and ±1 dB of level,
    /// over brown noise 30 dB down; ticks whose index is in `rests` are left out. Mono.
    public static func ticks(
        interval: Int, frames: Int, offset: Int = 0, rests: Set<Int> = [], sampleRate: Int = 48_000, seed: UInt64
    ) -> AudioBuffer {
        var rng = SeededRandom(seed: seed)
        var out = brownNoise(frames: frames, channels: 1, sampleRate: sampleRate, amplitude: 0.01, seed: rng.next())
        let rise = max(1, sampleRate / 1000)
        let length = sampleRate / 10
        var index = 0
        var start = offset
        while start < frames {
            defer {
                index += 1
                start = offset + index * interval
            }
            if rests.contains(index) { continue }
            let at = start + Int(Double(rng.nextSigned()) * Double(sampleRate) / 1000)
            let gain = 0.3 * pow(10, Double(rng.nextSigned()) / 20)
            for j in 0..<length where at + j >= 0 && at + j < frames {
                let envelope =
                    j < rise ? Double(j) / Double(rise) : exp(-Double(j - rise) / (0.015 * Double(sampleRate)))
                out[0, at + j] += Float(gain * envelope * Double(rng.nextSigned()))
            }
        }
        return out
    }

    /// Adds a click of `amplitude` (0.01 = −40 dBFS) to `frames` samples from `frame` on (one by default) on every
    /// channel. A whole file made not to loop takes a click of three frames at its end: a one-frame click there is a
    /// stray that `loops find` and `bake` drop (``LoopFinder`` mends it).
    public static func addingClick(
        to buffer: AudioBuffer, at frame: Int, amplitude: Float = 0.01, frames: Int = 1
    ) -> AudioBuffer {
        var out = buffer
        for c in 0..<buffer.channels { for i in frame..<(frame + frames) { out[c, i] += amplitude } }
        return out
    }

    /// Linear fades over the first `fadeIn` and the last `fadeOut` frames of every channel (what an editor's
    /// export leaves at a loop's ends).
    public static func fading(_ buffer: AudioBuffer, in fadeIn: Int, out fadeOut: Int) -> AudioBuffer {
        var out = buffer
        let n = buffer.frameCount
        for c in 0..<buffer.channels {
            out.withMutableChannel(c) { p in
                for i in 0..<fadeIn { p[i] *= Float(i) / Float(fadeIn) }
                for i in 0..<fadeOut { p[n - 1 - i] *= Float(i) / Float(fadeOut) }
            }
        }
        return out
    }

    /// Applies a gain that glides linearly in dB from 0 at the first frame to `decibels` at the last, so that the
    /// loop's wrap steps back by `decibels` (a fade drift: −1 gives a 1 dB rise across the seam).
    public static func applyingLevelDrift(to buffer: AudioBuffer, decibels: Double) -> AudioBuffer {
        var out = buffer
        let n = buffer.frameCount
        for i in 0..<n {
            let g = Float(pow(10, decibels * Double(i) / Double(max(n - 1, 1)) / 20))
            for c in 0..<buffer.channels { out[c, i] *= g }
        }
        return out
    }

    /// Brown noise that never repeats (white noise through a leaky integrator, corner `cornerHz`), with a slow
    /// tremolo of `tremoloDecibels` peak to peak at `tremoloHz` (surf, wind, a sleep-noise track), peak about
    /// `amplitude`, one independent channel each.
    public static func brownNoise(
        frames: Int, channels: Int = 2, sampleRate: Int = 48_000, amplitude: Float = 0.3, cornerHz: Double = 20,
        tremoloHz: Double = 0, tremoloDecibels: Double = 0, seed: UInt64
    ) -> AudioBuffer {
        var rng = SeededRandom(seed: seed)
        let a = Float(exp(-2 * Double.pi * cornerHz / Double(sampleRate)))
        let data: [[Float]] = (0..<channels).map { _ in
            var y: Float = 0
            var out = (0..<frames).map { _ -> Float in
                y = a * y + (1 - a) * rng.nextSigned()
                return y
            }
            let peak = out.map(abs).max() ?? 1
            for i in out.indices {
                let t = Double(i) / Double(sampleRate)
                let db = tremoloDecibels / 2 * sin(2 * Double.pi * tremoloHz * t)
                out[i] *= amplitude / max(peak, 1e-12) * Float(pow(10, db / 20)) / Float(pow(10, tremoloDecibels / 40))
            }
            return out
        }
        return AudioBuffer(channelData: data, sampleRate: SampleRate(checked: sampleRate))
    }

    /// Adds a constant `offset` (0.01 = 1 % of full scale) to every sample.
    public static func addingDC(to buffer: AudioBuffer, offset: Float) -> AudioBuffer {
        var out = buffer
        for i in out.samples.indices { out.samples[i] += offset }
        return out
    }

    /// Adds an offset that ramps linearly from 0 at the first frame to `offset` at the last, so that at the wrap
    /// the DC steps back by `offset` (a DC step across the seam; the ramp itself moves each step by `offset / n`).
    public static func addingDCRamp(to buffer: AudioBuffer, to offset: Float) -> AudioBuffer {
        var out = buffer
        let n = buffer.frameCount
        for c in 0..<buffer.channels {
            out.withMutableChannel(c) { p in
                for i in 0..<n { p[i] += offset * Float(i) / Float(max(n - 1, 1)) }
            }
        }
        return out
    }

    /// `frames` of digital silence appended on every channel (a gap at the seam: padding an export left).
    public static func appendingSilence(to buffer: AudioBuffer, frames: Int) -> AudioBuffer {
        let data = (0..<buffer.channels).map { c in
            buffer.withChannel(c) { Array($0) } + [Float](repeating: 0, count: frames)
        }
        return AudioBuffer(channelData: data, sampleRate: buffer.sampleRate)
    }

    /// A gain of `1 − depth·(1 − cos 2πft)/2` (a tremolo from 1 down to `1 − depth` and back at `hz`): a
    /// sustained instrument's vibrato when fast, a slow swell when slow.
    public static func tremolo(_ buffer: AudioBuffer, hz: Double, depth: Double) -> AudioBuffer {
        var out = buffer
        let rate = Double(buffer.sampleRate.hertz)
        for c in 0..<buffer.channels {
            out.withMutableChannel(c) { p in
                for i in 0..<buffer.frameCount {
                    p[i] *= Float(1 - depth * (1 - cos(2 * Double.pi * hz * Double(i) / rate)) / 2)
                }
            }
        }
        return out
    }

    /// Independent white noise of peak `amplitude` added to every channel (a "noisy periodic" signal).
    public static func addingNoise(to buffer: AudioBuffer, amplitude: Float, seed: UInt64) -> AudioBuffer {
        var out = buffer
        var rng = SeededRandom(seed: seed)
        for i in out.samples.indices { out.samples[i] += rng.nextSigned() * amplitude }
        return out
    }

    private static func circularLowPass(_ x: [Float], cornerHz: Double, sampleRate: Int) -> [Float] {
        let a = Float(exp(-2 * Double.pi * cornerHz / Double(sampleRate)))
        var y: Float = 0
        var out = x
        for pass in 0..<2 {
            for i in x.indices {
                y = (1 - a) * x[i] + a * y
                if pass == 1 { out[i] = y }
            }
        }
        return out
    }

    private static func rms(_ x: [Float]) -> Double {
        (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(x.count, 1))).squareRoot()
    }
}
