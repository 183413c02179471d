import Foundation

/// A stereo buffer that procedural soundscapes are painted onto: filtered-noise beds and short grains.
struct TextureCanvas {
    let sampleRate: Double
    var left: [Double]
    var right: [Double]

    init(seconds: Double, sampleRate: Double) {
        self.sampleRate = sampleRate
        let n = Int((seconds * sampleRate).rounded())
        left = [Double](repeating: 0, count: n)
        right = [Double](repeating: 0, count: n)
    }

    var frameCount: Int { left.count }

    /// Adds a stereo noise bed: white noise drawn from `noise`, a stream of its own (partly shared between the
    /// channels, `correlation` 0 ... 1) through `filters` (applied in order, one chain per channel), scaled by
    /// `gain(frame)`.
    mutating func addNoiseBed(
        filters: [Biquad], correlation: Double, noise: SynthRandom, gain: (Int) -> Double
    ) {
        var rng = noise
        var chainL = filters
        var chainR = filters
        let shared = correlation.squareRoot()
        let own = (1 - correlation).squareRoot()
        for i in 0..<frameCount {
            let common = rng.signed()
            var l = shared * common + own * rng.signed()
            var r = shared * common + own * rng.signed()
            for k in 0..<chainL.count {
                l = chainL[k].process(l)
                r = chainR[k].process(r)
            }
            let g = gain(i)
            left[i] += g * l
            right[i] += g * r
        }
    }

    /// Adds a noise bed (``addNoiseBed(filters:correlation:noise:gain:)``) at `level` times a slowly wandering
    /// factor: a ``SmoothRandom`` curve with a knot every `wanderSeconds`, uniform in `wander`, drawn from `seed`
    /// salted `wanderSalt` (the level of wind, water or flame is never steady).
    mutating func addWanderingNoiseBed(
        filters: [Biquad], correlation: Double, noise: SynthRandom, level: Double, wander: ClosedRange<Double>,
        every wanderSeconds: Double, seed: UInt64, wanderSalt: String
    ) {
        let factors = SmoothRandom.values(
            count: frameCount, seconds: wanderSeconds, range: wander, sampleRate: sampleRate, seed: seed,
            salt: wanderSalt)
        addNoiseBed(filters: filters, correlation: correlation, noise: noise, gain: { factors[$0] * level })
    }

    /// Calls `event` at the times of a Poisson process over the first `seconds`: gaps drawn from an exponential
    /// distribution of mean `meanGap` seconds, by the generator `salt` of `seed`, which also draws what each event
    /// adds (the first gap, then each event's own draws, then the next gap).
    mutating func atPoissonTimes(
        meanGap: Double, seconds: Double, seed: UInt64, salt: String,
        _ event: (inout TextureCanvas, _ time: Double, inout SynthRandom) -> Void
    ) {
        var rng = SynthRandom(seed: seed, salt: salt)
        var t = rng.exponential(mean: meanGap)
        while t < seconds {
            event(&self, t, &rng)
            t += rng.exponential(mean: meanGap)
        }
    }

    /// Adds a short mono grain at `start` with constant-power pan (`pan` -1 left ... 1 right).
    mutating func addGrain(_ grain: [Double], at start: Int, pan: Double, gain: Double) {
        let angle = (pan + 1) * Double.pi / 4
        let gl = gain * cos(angle)
        let gr = gain * sin(angle)
        var i = start
        for s in grain {
            guard i < frameCount else { break }
            if i >= 0 {
                left[i] += gl * s
                right[i] += gr * s
            }
            i += 1
        }
    }

    /// A burst of band-passed noise with an exponential decay: drop impacts, crackles, leaf ticks.
    static func noiseBurst(
        seconds: Double, decay: Double, centre: Double, q: Double, sampleRate: Double, rng: inout SynthRandom
    ) -> [Double] {
        let n = max(1, Int(seconds * sampleRate))
        var bp = Biquad(.bandpass, frequency: centre, q: q, sampleRate: sampleRate)
        let tau = decay * sampleRate
        return (0..<n).map { i in bp.process(rng.signed()) * exp(-Double(i) / tau) }
    }

    /// A resonating air bubble (Minnaert): a damped sine whose pitch rises as the bubble nears the
    /// surface, f(t) = f0 · (1 + rise · t / decay) (van den Doel 2005).
    static func bubble(frequency f0: Double, decay: Double, rise: Double, sampleRate: Double) -> [Double] {
        let n = Int(decay * 6 * sampleRate)
        var phase = 0.0
        let attack = max(1.0, 0.0005 * sampleRate)  // half a millisecond: the bubble forms, no click
        return (0..<n).map { i in
            let t = Double(i) / sampleRate
            phase += 2 * Double.pi * f0 * (1 + rise * t / decay) / sampleRate
            let a = min(1, Double(i) / attack)
            return sin(phase) * exp(-t / decay) * a
        }
    }

    /// Planar `Float` channels scaled so the peak is `peak`.
    func channels(peak: Double) -> [[Float]] {
        let maxAbs = max(left.map(abs).max() ?? 0, right.map(abs).max() ?? 0)
        let scale = maxAbs > 0 ? peak / maxAbs : 0
        return [left.map { Float($0 * scale) }, right.map { Float($0 * scale) }]
    }
}
