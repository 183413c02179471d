import Foundation

/// A wood fire in a hearth, after Farnell, *Designing Sound* (2010), "Fire": the low "lapping" roar of
/// the flames (low-passed noise with slow random swells), the hiss of escaping gas (high-passed noise
/// with fast random flicker) and crackles, which come in clusters as pockets of sap burst (Poisson
/// clusters of sub-millisecond noise bursts), with a few deeper pops.
enum HearthTexture {
    static func render(seconds: Double, sampleRate sr: Double, seed: UInt64) -> [[Float]] {
        var canvas = TextureCanvas(seconds: seconds, sampleRate: sr)
        canvas.addWanderingNoiseBed(
            filters: [
                Biquad(.highpass, frequency: 45, sampleRate: sr),
                Biquad(.lowpass, frequency: 260, q: 0.6, sampleRate: sr),
                Biquad(.lowpass, frequency: 400, q: 0.6, sampleRate: sr),
            ],
            correlation: 0.6, noise: SynthRandom(seed: seed, salt: "hearth.roar"), level: 2.2, wander: 0.35...1.15,
            every: 0.7, seed: seed, wanderSalt: "hearth.swell")

        let flickerValues = SmoothRandom.values(
            count: canvas.frameCount, seconds: 0.12, range: 0...1, sampleRate: sr, seed: seed, salt: "hearth.flicker"
        ).map { pow($0, 2) }
        canvas.addNoiseBed(
            filters: [
                Biquad(.highpass, frequency: 2500, sampleRate: sr), Biquad(.lowpass, frequency: 11000, sampleRate: sr),
            ],
            correlation: 0.2, noise: SynthRandom(seed: seed, salt: "hearth.hiss"), gain: { flickerValues[$0] * 0.06 })

        canvas.atPoissonTimes(meanGap: 1.0 / 2.5, seconds: seconds, seed: seed, salt: "hearth.crackle") {
            c, t, crackle in
            let count = 1 + Int(crackle.unit() * 7)
            let pan = crackle.signed() * 0.7
            var u = t
            for _ in 0..<count {
                let grain = TextureCanvas.noiseBurst(
                    seconds: 0.004, decay: crackle.uniform(0.0002...0.0012), centre: crackle.logUniform(1200...6500),
                    q: 0.8,
                    sampleRate: sr, rng: &crackle)
                c.addGrain(
                    grain, at: Int(u * sr), pan: pan + crackle.signed() * 0.15, gain: 2.5 * crackle.powerLaw(shape: 2.2)
                )
                u += crackle.logUniform(0.004...0.08)
            }
        }

        canvas.atPoissonTimes(meanGap: 2.0, seconds: seconds, seed: seed, salt: "hearth.pop") { c, t, pop in
            let grain = TextureCanvas.noiseBurst(
                seconds: 0.05, decay: pop.uniform(0.006...0.02), centre: pop.logUniform(300...900), q: 1.5,
                sampleRate: sr,
                rng: &pop)
            c.addGrain(grain, at: Int(t * sr), pan: pop.signed() * 0.6, gain: 0.9 * pop.powerLaw(shape: 1.5))
        }
        return canvas.channels(peak: 0.5)
    }
}
