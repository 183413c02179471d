import Foundation

/// Numeric comparisons for audio tests: decibels, SNR, maximum difference.
public enum Tolerance {
    /// The largest absolute difference between two equal-length sample runs.
    public static func maxDifference(_ a: some Collection<Float>, _ b: some Collection<Float>) -> Float {
        precondition(a.count == b.count, "lengths differ: \(a.count) vs \(b.count)")
        return zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    /// Signal-to-noise ratio of `test` against `reference`, in dB.
    public static func snr(reference: [Float], test: [Float]) -> Double {
        precondition(reference.count == test.count, "lengths differ")
        var signal = 0.0
        var noise = 0.0
        for i in reference.indices {
            signal += Double(reference[i]) * Double(reference[i])
            let d = Double(reference[i]) - Double(test[i])
            noise += d * d
        }
        return noise == 0 ? .infinity : 10 * log10(signal / noise)
    }

    /// RMS of a sample run.
    public static func rms(_ x: some Collection<Float>) -> Double {
        guard !x.isEmpty else { return 0 }
        return (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot()
    }

    /// An amplitude ratio in dB.
    public static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }
}
