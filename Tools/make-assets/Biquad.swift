import Foundation

/// A second-order IIR filter (Direct Form I) with the RBJ "Audio EQ Cookbook" designs.
///
/// Computed in `Double` so long filtered-noise runs stay stable and identical on every run.
struct Biquad {
    private var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    enum Shape { case lowpass, highpass, bandpass }

    /// A filter of `shape` at `frequency` Hz with quality `q` for `sampleRate`.
    init(_ shape: Shape, frequency: Double, q: Double = 0.7071, sampleRate: Double) {
        setCoefficients(shape, frequency: frequency, q: q, sampleRate: sampleRate)
    }

    /// Redesigns the filter in place (state kept, for slowly swept filters).
    mutating func setCoefficients(_ shape: Shape, frequency: Double, q: Double, sampleRate: Double) {
        let w = 2 * Double.pi * min(frequency, sampleRate * 0.49) / sampleRate
        let cw = cos(w)
        let alpha = sin(w) / (2 * q)
        let a0 = 1 + alpha
        switch shape {
        case .lowpass:
            b0 = (1 - cw) / 2 / a0
            b1 = (1 - cw) / a0
            b2 = b0
        case .highpass:
            b0 = (1 + cw) / 2 / a0
            b1 = -(1 + cw) / a0
            b2 = b0
        case .bandpass:  // constant 0 dB peak gain
            b0 = alpha / a0
            b1 = 0
            b2 = -alpha / a0
        }
        a1 = -2 * cw / a0
        a2 = (1 - alpha) / a0
    }

    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return y
    }
}
