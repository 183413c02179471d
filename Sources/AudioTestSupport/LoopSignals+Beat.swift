import AudioCore
import Foundation

extension LoopSignals {
    /// A seamless beat loop, mono: `bars` bars of 4/4 at `bpm` (a kick on beats 1 and 3, a snare on 2 and 4, a hi-hat
    /// on every off-beat, a chord on each bar's downbeat that changes every bar and decays before the next), each
    /// sound carried on across the wrap, over a bed of a steady low drone and pink noise (`bed` its RMS) that repeats
    /// with the loop. Every bar line and every beat is an onset, and the level falls before each bar line: a loop's
    /// seam on any of them is one more of its own. `held`: each chord is held to the next bar line (a pad), so the
    /// material changes at every bar line; `drone`: the drone's amplitude (0: none); `machine`: each snare and hi-hat
    /// draws noise of its own, as an analogue drum machine's do (otherwise every hit is one sample, as a sampler's),
    /// so each onset's first step is a different draw; `harmony`: false leaves the chords out, so every bar is alike.
    /// Deterministic for `seed` (the hits' velocities, the noise).
    public static func beatLoop(
        bars: Int = 2, bpm: Double = 120, sampleRate: Int = 48_000, bed: Double = 0.03, held: Bool = false,
        drone: Double = 0.05, machine: Bool = false, harmony: Bool = true, seed: UInt64 = 1
    ) -> AudioBuffer {
        let rate = Double(sampleRate)
        let beat = 60 / bpm
        let n = Int((Double(bars * 4) * beat * rate).rounded())
        var x = [Float](repeating: 0, count: n)
        var rng = SeededRandom(seed: seed)
        func add(_ sound: [Float], at seconds: Double, gain: Float) {
            let start = Int((seconds * rate).rounded())
            for (i, s) in sound.enumerated() { x[(start + i) % n] += gain * s }
        }
        func seconds(_ s: Double) -> Int { Int(s * rate) }
        let kick = (0..<seconds(0.35)).map { i -> Float in
            let t = Double(i) / rate
            // A falling pitch (50 Hz plus 70 Hz decaying in 30 ms), its phase the integral of the frequency.
            let phase = 2 * Double.pi * (50 * t + 70 * 0.03 * (1 - exp(-t / 0.03)))
            return Float(0.8 * sin(phase) * exp(-t / 0.09))
        }
        var noise = SeededRandom(seed: seed &+ 1000)
        func snareHit() -> [Float] {
            var previous: Float = 0
            return (0..<seconds(0.25)).map { i -> Float in
                let t = Double(i) / rate
                let white = noise.nextSigned()
                defer { previous = white }
                return Float(0.35 * exp(-t / 0.05)) * (white - 0.6 * previous)
                    + Float(0.3 * sin(2 * Double.pi * 190 * t) * exp(-t / 0.04))
            }
        }
        func hatHit() -> [Float] {
            (0..<seconds(0.06)).map { i -> Float in
                let t = Double(i) / rate
                return Float(0.12 * exp(-t / 0.012)) * (noise.nextSigned() - noise.nextSigned())
            }
        }
        let snare = snareHit()
        let hat = hatHit()
        let chords: [[Double]] = [
            [220, 277.2, 329.6], [293.7, 370, 440], [329.6, 415.3, 493.9], [220, 277.2, 329.6],
        ]
        for bar in 0..<bars {
            let chord = chords[bar % chords.count]
            let pad = (0..<seconds(held ? 4 * beat : 6 * beat)).map { i -> Float in
                let t = Double(i) / rate
                // Held: a slow swell to the bar's end, released over its last 20 ms.
                let envelope =
                    held
                    ? min(t / 0.05, 1) * min((4 * beat - t) / 0.02, 1) * 0.5 : min(t / 0.01, 1) * exp(-t / 0.35)
                return Float(0.12 * envelope * chord.map { sin(2 * Double.pi * $0 * t) }.reduce(0, +))
            }
            if harmony { add(pad, at: Double(bar * 4) * beat, gain: 1) }
            for q in 0..<4 {
                let onset = Double(bar * 4 + q) * beat
                let drum = q % 2 == 0 ? kick : machine ? snareHit() : snare
                add(drum, at: onset, gain: 0.9 + 0.1 * Float(rng.nextUnit()))
                add(machine ? hatHit() : hat, at: onset + beat / 2, gain: 0.8 + 0.2 * Float(rng.nextUnit()))
            }
        }
        // The bed: a drone of whole cycles in the loop and pink noise made periodic in it (``periodicNoise`` with
        // its low-passes), both repeating with the loop.
        let cycles = [110.0, 165, 220].map { wholeCycleFrequency(near: $0, frames: n, sampleRate: sampleRate) }
        let hum = tones(frequencies: cycles, frames: n, channels: 1, sampleRate: sampleRate, amplitude: drone)
        let rumble = periodicNoise(
            period: n, frames: n, channels: 1, sampleRate: sampleRate, amplitude: Float(bed * 3.0.squareRoot()),
            smoothingHz: 400, poles: 1, seed: seed &+ 2000)
        for i in 0..<n { x[i] = 0.6 * x[i] + hum.samples[i] + rumble.samples[i] }
        return AudioBuffer(channelData: [x], sampleRate: SampleRate(checked: sampleRate))
    }

    /// A figure of `strokes` different 20 ms noise bursts, one a `beat` (seconds) apart, played `times` over, mono at
    /// 48 kHz: events that keep the beat, in a waveform that repeats only once a figure (`strokes` beats).
    public static func strokeFigure(strokes: Int, beat: Double, times: Int, seed: UInt64 = 5) -> AudioBuffer {
        let rate = 48_000
        let step = Int((beat * Double(rate)).rounded())
        var rng = SeededRandom(seed: seed)
        let bursts: [[Float]] = (0..<strokes).map { _ in
            (0..<(rate / 50)).map { i in 0.6 * rng.nextSigned() * Float(exp(-Double(i) / Double(rate / 200))) }
        }
        var x = [Float](repeating: 0, count: strokes * times * step)
        for k in 0..<(strokes * times) {
            for (i, v) in bursts[k % strokes].enumerated() { x[k * step + i] += v }
        }
        return AudioBuffer(channelData: [x], sampleRate: SampleRate(checked: rate))
    }

    /// `buffer` rotated to start `frames` into it (cyclically): the same loop with its seam elsewhere.
    public static func rotated(_ buffer: AudioBuffer, by frames: Int) -> AudioBuffer {
        let n = buffer.frameCount
        let data = (0..<buffer.channels).map { c in
            buffer.withChannel(c) { x in (0..<n).map { x[($0 + frames) % n] } }
        }
        return AudioBuffer(channelData: data, sampleRate: buffer.sampleRate)
    }
}
