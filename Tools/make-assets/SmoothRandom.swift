import Foundation

/// A smooth random control signal: random values at fixed knots, joined by cosine interpolation.
///
/// Used for gusts, slow level drift and intensity changes: it has no periodicity and no steps.
struct SmoothRandom {
    private var rng: SynthRandom
    private let knotFrames: Double
    private var previous: Double
    private var nextValue: Double
    private var position = 0.0
    private let range: ClosedRange<Double>

    /// Values uniform in `range`, a new knot every `seconds`.
    init(seconds: Double, range: ClosedRange<Double>, sampleRate: Double, rng: SynthRandom) {
        self.rng = rng
        self.range = range
        knotFrames = max(1, seconds * sampleRate)
        previous = self.rng.uniform(range)
        nextValue = self.rng.uniform(range)
    }

    mutating func next() -> Double {
        let t = position / knotFrames
        let w = (1 - cos(Double.pi * t)) / 2
        let v = previous + (nextValue - previous) * w
        position += 1
        if position >= knotFrames {
            position = 0
            previous = nextValue
            nextValue = rng.uniform(range)
        }
        return v
    }

    /// `count` values of the curve with a knot every `seconds`, uniform in `range`, drawn from the stream of `seed`
    /// salted `salt` (see ``SynthRandom/init(seed:salt:)``).
    static func values(
        count: Int, seconds: Double, range: ClosedRange<Double>, sampleRate: Double, seed: UInt64, salt: String
    ) -> [Double] {
        var curve = SmoothRandom(
            seconds: seconds, range: range, sampleRate: sampleRate, rng: SynthRandom(seed: seed, salt: salt))
        return (0..<count).map { _ in curve.next() }
    }
}
