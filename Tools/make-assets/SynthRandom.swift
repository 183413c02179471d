import AudioTestSupport
import Foundation

/// The pack's random numbers: SplitMix64 (`SeededRandom`, the tests' generator), whose output is the same on every
/// machine, so the pack regenerates byte for byte from its seed; with salted streams and the distributions the
/// textures draw from.
struct SynthRandom {
    private var generator: SeededRandom

    init(seed: UInt64) { generator = SeededRandom(seed: seed) }

    /// An independent stream for one part of one asset (`salt` names the part).
    init(seed: UInt64, salt: String) {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a: stable across runs, unlike Hasher
        for b in salt.utf8 {
            h = (h ^ UInt64(b)) &* 0x0100_0000_01B3
        }
        generator = SeededRandom(seed: seed ^ h)
        _ = next()
    }

    mutating func next() -> UInt64 { generator.next() }

    /// Uniform in 0 ..< 1.
    mutating func unit() -> Double { generator.nextUnit() }

    /// Uniform in `range`.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// Uniform in -1 ..< 1.
    mutating func signed() -> Double { unit() * 2 - 1 }

    /// Log-uniform in `range` (equal weight per octave, as pitches and sizes are spread in nature).
    mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        exp(uniform(log(range.lowerBound)...log(range.upperBound)))
    }

    /// Exponentially distributed with the given mean: the gap between events of a Poisson process.
    mutating func exponential(mean: Double) -> Double { -mean * log(max(1 - unit(), 1e-300)) }

    /// A Pareto-like amplitude in (0, 1]: many soft events, few loud ones (`shape` > 0; larger is steeper).
    mutating func powerLaw(shape: Double) -> Double { pow(max(unit(), 1e-12), shape) }
}
