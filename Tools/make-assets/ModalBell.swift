import Foundation

/// A struck bell as a sum of damped modes (modal synthesis), with the physics that makes it sound real.
///
/// - Each mode of an axisymmetric bell is a degenerate pair; small asymmetries split the pair by a
///   fraction of a hertz to a few hertz, and the two members beat (the "wah-wah" of bowls and bonshō).
/// - Damping rises with frequency (radiation and material loss), so each mode's decay time is
///   `t60 · (f1 / f)^decayExponent`: the sound darkens as it rings.
/// - The mallet is a force pulse of contact time `contactTime`: its spectrum weights the modes (a soft,
///   long contact excites few high modes), the modes rise over the contact, and a short contact noise
///   (the "tick" of the striker) sits on top.
/// - Two microphone positions see each doublet member with different weights, giving a natural stereo
///   image whose beating differs slightly between the ears.
///
/// The sources for the ratios and the decay law are listed in docs/assets.md.
struct ModalBell {
    /// A mode family member: ratio to the lowest mode and its relative amplitude before the mallet filter.
    struct Mode {
        var ratio: Double
        var amplitude: Double
        /// The doublet split in Hz (the beat frequency).
        var split: Double
    }

    var fundamental: Double
    var modes: [Mode]
    /// Decay time to -60 dB of the lowest mode, in seconds.
    var t60: Double
    /// How fast decay time falls with frequency.
    var decayExponent: Double
    /// Mallet contact time in seconds.
    var contactTime: Double
    /// Contact noise level relative to the modal peak (linear).
    var contactNoise: Double
    /// Centre frequency of the contact noise, Hz.
    var contactNoiseFrequency: Double
    /// File length in seconds (long enough to decay below -60 dB).
    var duration: Double

    /// The mallet's force spectrum at `f` (a smooth low-pass with its corner at 1 / (2 contact time)).
    func malletWeight(_ f: Double) -> Double {
        let corner = 1 / (2 * contactTime)
        return 1 / (1 + pow(f / corner, 2))
    }

    /// Renders the strike as stereo planar channels, peak-normalised to `peak`.
    func render(sampleRate: Double, rng: SynthRandom, peak: Double = 0.5) -> [[Float]] {
        var rng = rng
        let n = Int(duration * sampleRate)
        var left = [Double](repeating: 0, count: n)
        var right = [Double](repeating: 0, count: n)
        for mode in modes {
            let f = fundamental * mode.ratio * (1 + rng.signed() * 0.002)  // casting tolerance
            guard f < sampleRate * 0.45 else { continue }
            let tau = t60 / 6.908 * pow(fundamental / f, decayExponent)
            let amp = mode.amplitude * malletWeight(f)
            // Strike angle relative to the doublet's nodal lines sets how much each member is excited.
            let theta = rng.uniform(0.25...1.3)
            let members = [
                (f - mode.split / 2, amp * pow(cos(theta), 2), tau * rng.uniform(0.93...1.0)),
                (f + mode.split / 2, amp * pow(sin(theta), 2), tau * rng.uniform(0.93...1.0)),
            ]
            for (freq, a, t) in members where a > 1e-6 {
                let gl = a * rng.uniform(0.75...1.0)
                let gr = a * rng.uniform(0.75...1.0)
                addDampedSine(into: &left, &right, frequency: freq, tau: t, gains: (gl, gr), sampleRate: sampleRate)
            }
        }
        applyContact(&left, &right, sampleRate: sampleRate, rng: &rng)
        let maxAbs = max(left.map(abs).max() ?? 0, right.map(abs).max() ?? 0)
        let scale = maxAbs > 0 ? peak / maxAbs : 0
        return [left.map { Float($0 * scale) }, right.map { Float($0 * scale) }]
    }

    /// Adds `gain · e^(-t/tau) · sin(2πft)` using a rotating phasor (exact, and far cheaper than `sin`).
    private func addDampedSine(
        into left: inout [Double], _ right: inout [Double], frequency: Double, tau: Double,
        gains: (Double, Double), sampleRate: Double
    ) {
        let w = 2 * Double.pi * frequency / sampleRate
        let r = exp(-1 / (tau * sampleRate))
        let (cr, ci) = (r * cos(w), r * sin(w))
        var (re, im) = (1.0, 0.0)
        // Stop once the mode is 100 dB down: nothing audible or measurable remains.
        let last = min(left.count, Int(tau * 11.5 * sampleRate))
        for i in 0..<last {
            left[i] += gains.0 * im
            right[i] += gains.1 * im
            let nre = re * cr - im * ci
            im = re * ci + im * cr
            re = nre
            if i & 4095 == 4095 {  // renormalise the phasor's radius against rounding drift
                let target = pow(r, Double(i + 1))
                let norm = (re * re + im * im).squareRoot()
                re *= target / norm
                im *= target / norm
            }
        }
    }

    /// Shapes the first `contactTime` with the force pulse's rise and adds the contact noise.
    private func applyContact(
        _ left: inout [Double], _ right: inout [Double], sampleRate: Double, rng: inout SynthRandom
    ) {
        let rise = max(2, Int(contactTime * sampleRate))
        for i in 0..<min(rise, left.count) {
            let w = sin(Double.pi / 2 * Double(i) / Double(rise))
            left[i] *= w * w
            right[i] *= w * w
        }
        let modalPeak = max(left.prefix(Int(0.05 * sampleRate)).map(abs).max() ?? 0, 1e-9)
        var bp = Biquad(.bandpass, frequency: contactNoiseFrequency, q: 0.9, sampleRate: sampleRate)
        let length = Int(0.012 * sampleRate)
        let tau = max(contactTime, 0.0008) * sampleRate
        var noise = [Double](repeating: 0, count: length)
        for i in 0..<length {
            noise[i] = bp.process(rng.signed()) * exp(-Double(i) / tau)
        }
        let noisePeak = max(noise.map(abs).max() ?? 0, 1e-12)
        let g = contactNoise * modalPeak / noisePeak
        for i in 0..<min(length, left.count) {
            left[i] += g * noise[i]
            right[i] += g * noise[i] * 0.9
        }
    }
}
