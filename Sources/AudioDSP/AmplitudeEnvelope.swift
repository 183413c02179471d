import AudioCore
import Foundation

/// A smoothed RMS envelope of a sound (all channels' power averaged), sampled at a regular hop.
///
/// Value `k` is the RMS over the window of `windowSeconds` centred on time `k · hopSeconds`. By default,
/// windows that would reach past either end of the buffer take the value of the nearest full window
/// ("edge values"), not zeros: a file that ends while ringing must not look as if it decayed at its end.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no (allocates).
public struct AmplitudeEnvelope: Sendable, Equatable {
    /// Seconds between values.
    public var hopSeconds: Double
    /// The RMS window length in seconds.
    public var windowSeconds: Double
    /// Linear RMS values (1.0 = a full-scale square wave).
    public var values: [Double]

    public init(hopSeconds: Double, windowSeconds: Double, values: [Double]) {
        self.hopSeconds = hopSeconds
        self.windowSeconds = windowSeconds
        self.values = values
    }

    /// How windows that reach past the ends of the buffer are filled.
    public enum Padding: Sendable {
        /// Take the nearest full window's value (for decays: a file cut while ringing stays loud at its end).
        case edgeValues
        /// Treat the outside as silence (for attacks: nothing sounds before the first frame).
        case zeros
    }

    /// Computes the envelope of `buffer` (non-finite samples count as 0).
    ///
    /// - Complexity: O(frames · channels) (running sums of squares).
    public init(
        _ buffer: AudioBuffer, windowSeconds: Double = 0.01, hopSeconds: Double = 0.001,
        padding: Padding = .edgeValues
    ) {
        precondition(windowSeconds > 0 && hopSeconds > 0, "window and hop must be positive")
        let rate = buffer.sampleRate
        let n = buffer.frameCount
        let w = max(1, Int(rate.frames(seconds: windowSeconds)))
        let hop = max(1, Int(rate.frames(seconds: hopSeconds)))
        self.hopSeconds = rate.seconds(frames: Int64(hop))
        self.windowSeconds = rate.seconds(frames: Int64(w))
        guard n > 0 else {
            values = []
            return
        }
        // prefix[i] = sum of the mean-over-channels power of frames 0..<i.
        var prefix = [Double](repeating: 0, count: n + 1)
        let inv = 1 / Double(buffer.channels)
        buffer.samples.withUnsafeBufferPointer { s in
            var acc = 0.0
            for i in 0..<n {
                var p = 0.0
                for ch in 0..<buffer.channels {
                    let x = Double(s[ch * n + i])
                    if x.isFinite { p += x * x }
                }
                acc += p * inv
                prefix[i + 1] = acc
            }
        }
        let count = (n - 1) / hop + 1
        let width = min(w, n)
        values = (0..<count).map { k in
            let centre = k * hop
            var start = centre - width / 2
            let e: Double
            switch padding {
            case .edgeValues:
                start = min(max(start, 0), n - width)
                e = (prefix[start + width] - prefix[start]) / Double(width)
            case .zeros:
                let a = min(max(start, 0), n)
                let b = min(max(start + width, 0), n)
                e = (prefix[b] - prefix[a]) / Double(width)
            }
            return e > 0 ? e.squareRoot() : 0
        }
    }

    /// The values in dBFS (RMS of a full-scale sine = −3 dB), floored at `floor`.
    public func decibels(floor: Double = -200) -> [Double] {
        values.map { $0 > 0 ? max(20 * log10($0), floor) : floor }
    }

    /// The time in seconds of value `k`.
    public func time(of k: Int) -> Double { Double(k) * hopSeconds }

    /// The index and value of the largest value, or nil when empty.
    public var peak: (index: Int, value: Double)? {
        guard var best = values.indices.first else { return nil }
        for k in values.indices where values[k] > values[best] { best = k }
        return (best, values[best])
    }
}
