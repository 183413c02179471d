import Foundation

/// A babbling stream, after Farnell, *Designing Sound* (2010), "Running water", and van den Doel,
/// "Physically based models for liquid sounds" (ACM TAP 2005): the sound of running water is a dense
/// population of Minnaert bubbles (radius r rings at about 3.26 / r Hz, rising in pitch as it nears the
/// surface) over a low-passed turbulence bed and a band of splashing.
enum StreamTexture {
    static func render(seconds: Double, sampleRate sr: Double, seed: UInt64) -> [[Float]] {
        var canvas = TextureCanvas(seconds: seconds, sampleRate: sr)
        canvas.addWanderingNoiseBed(
            filters: [
                Biquad(.highpass, frequency: 90, sampleRate: sr),
                Biquad(.lowpass, frequency: 900, q: 0.6, sampleRate: sr),
            ],
            correlation: 0.5, noise: SynthRandom(seed: seed, salt: "stream.bed"), level: 0.9, wander: 0.8...1.1,
            every: 1.5, seed: seed, wanderSalt: "stream.drift")

        canvas.addWanderingNoiseBed(
            filters: [
                Biquad(.bandpass, frequency: 2600, q: 0.6, sampleRate: sr),
                Biquad(.lowpass, frequency: 9000, sampleRate: sr),
            ],
            correlation: 0.25, noise: SynthRandom(seed: seed, salt: "stream.splash"), level: 0.35,
            wander: 0.15...0.8, every: 0.3, seed: seed, wanderSalt: "stream.surge")

        canvas.atPoissonTimes(meanGap: 1.0 / 110, seconds: seconds, seed: seed, salt: "stream.bubbles") {
            c, t, bubbles in
            let grain = TextureCanvas.bubble(
                frequency: bubbles.logUniform(350...2400), decay: bubbles.uniform(0.004...0.014),
                rise: bubbles.uniform(0.05...0.3), sampleRate: sr)
            c.addGrain(
                grain, at: Int(t * sr), pan: bubbles.signed() * 0.7, gain: 0.22 * bubbles.powerLaw(shape: 2))
        }
        return canvas.channels(peak: 0.5)
    }
}
