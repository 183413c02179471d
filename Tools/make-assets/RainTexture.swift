import Foundation

/// Rain on leaves and puddles, after Farnell, *Designing Sound* (2010), "Rain": a broadband wash of
/// countless distant drops, a dense Poisson patter of close impacts (short band-passed noise bursts
/// with a power-law level distribution) and a few drops on water that ring as Minnaert bubbles.
enum RainTexture {
    static func render(seconds: Double, sampleRate sr: Double, seed: UInt64) -> [[Float]] {
        var canvas = TextureCanvas(seconds: seconds, sampleRate: sr)
        canvas.addWanderingNoiseBed(
            filters: [
                Biquad(.highpass, frequency: 350, sampleRate: sr), Biquad(.lowpass, frequency: 9000, sampleRate: sr),
                Biquad(.lowpass, frequency: 12000, sampleRate: sr),
            ],
            correlation: 0.3, noise: SynthRandom(seed: seed, salt: "rain.wash"), level: 0.5, wander: 0.8...1.1,
            every: 4, seed: seed, wanderSalt: "rain.drift")

        canvas.atPoissonTimes(meanGap: 1.0 / 260, seconds: seconds, seed: seed, salt: "rain.patter") { c, t, patter in
            let grain = TextureCanvas.noiseBurst(
                seconds: 0.006, decay: patter.uniform(0.0006...0.0025), centre: patter.logUniform(1500...7500), q: 1.1,
                sampleRate: sr, rng: &patter)
            c.addGrain(grain, at: Int(t * sr), pan: patter.signed() * 0.9, gain: 1.6 * patter.powerLaw(shape: 3))
        }

        canvas.atPoissonTimes(meanGap: 1.0 / 10, seconds: seconds, seed: seed, salt: "rain.drops") { c, t, drops in
            let grain = TextureCanvas.bubble(
                frequency: drops.logUniform(1200...3600), decay: drops.uniform(0.003...0.008), rise: 0.15,
                sampleRate: sr)
            c.addGrain(grain, at: Int(t * sr), pan: drops.signed() * 0.8, gain: 0.12 * drops.powerLaw(shape: 2))
        }
        return canvas.channels(peak: 0.5)
    }
}
