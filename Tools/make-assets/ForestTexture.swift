import Foundation

/// Wind in a forest, after Farnell, *Designing Sound* (2010), "Wind": gusts drive everything. A low
/// wind bed (low-passed noise whose cutoff and level follow a slow random gust signal), the rustle of
/// leaves (high band-passed noise following the gusts with fast flutter) and sparse leaf ticks whose
/// rate rises with the gusts.
enum ForestTexture {
    static func render(seconds: Double, sampleRate sr: Double, seed: UInt64) -> [[Float]] {
        var canvas = TextureCanvas(seconds: seconds, sampleRate: sr)
        let gusts = SmoothRandom.values(
            count: canvas.frameCount, seconds: 2.6, range: 0.25...1.0, sampleRate: sr, seed: seed, salt: "forest.gust")

        // Wind: the cutoff follows the gust, redesigned every 64 frames (smooth enough: the gust moves slowly).
        var rng = SynthRandom(seed: seed, salt: "forest.wind")
        var lowL = Biquad(.lowpass, frequency: 400, q: 0.8, sampleRate: sr)
        var lowR = lowL
        var hpL = Biquad(.highpass, frequency: 55, sampleRate: sr)
        var hpR = hpL
        for i in 0..<canvas.frameCount {
            if i & 63 == 0 {
                let f = 220 + 520 * gusts[i]
                lowL.setCoefficients(.lowpass, frequency: f, q: 0.8, sampleRate: sr)
                lowR.setCoefficients(.lowpass, frequency: f, q: 0.8, sampleRate: sr)
            }
            let common = rng.signed()
            let l = hpL.process(lowL.process(0.7 * common + 0.71 * rng.signed()))
            let r = hpR.process(lowR.process(0.7 * common + 0.71 * rng.signed()))
            canvas.left[i] += 1.6 * gusts[i] * l
            canvas.right[i] += 1.6 * gusts[i] * r
        }

        let lag = Int(0.35 * sr)  // the canopy answers the gust a moment after the trunk-level wind
        let flutterValues = SmoothRandom.values(
            count: canvas.frameCount, seconds: 0.04, range: 0.3...1.0, sampleRate: sr, seed: seed,
            salt: "forest.flutter")
        canvas.addNoiseBed(
            filters: [
                Biquad(.bandpass, frequency: 3800, q: 0.5, sampleRate: sr),
                Biquad(.lowpass, frequency: 10000, sampleRate: sr),
            ],
            correlation: 0.15, noise: SynthRandom(seed: seed, salt: "forest.leaves"),
            gain: { i in 0.55 * pow(gusts[max(0, i - lag)], 1.5) * flutterValues[i] })

        canvas.atPoissonTimes(meanGap: 1.0 / 40, seconds: seconds, seed: seed, salt: "forest.ticks") { c, t, tick in
            let g = gusts[min(c.frameCount - 1, Int(t * sr))]
            if tick.unit() < g {
                let grain = TextureCanvas.noiseBurst(
                    seconds: 0.005, decay: tick.uniform(0.0005...0.0018), centre: tick.logUniform(2000...8000), q: 1.0,
                    sampleRate: sr, rng: &tick)
                c.addGrain(grain, at: Int(t * sr), pan: tick.signed(), gain: 0.35 * tick.powerLaw(shape: 2.5))
            }
        }
        return canvas.channels(peak: 0.5)
    }
}
