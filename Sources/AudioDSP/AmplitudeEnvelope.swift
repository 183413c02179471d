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
}

extension AmplitudeEnvelope {
    /// How windows that reach past the ends of the buffer are filled.
    public enum Padding: Sendable {
        /// Take the nearest full window's value (for decays: a file cut while ringing stays loud at its end).
        case edgeValues
        /// Treat the outside as silence (for attacks: nothing sounds before the first frame).
        case zeros
    }

    /// Computes the envelope of `buffer` (non-finite samples count as 0).
    ///
    /// - Complexity: O(frames · channels) (sums of squares between window edges).
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
        let count = (n - 1) / hop + 1
        let width = min(w, n)
        // Each value is the mean power over a window [a, b); windows reach past neither end after the padding
        // rule. The running sum of the mean-over-channels power is needed only at the window edges: those are
        // collected, sorted, and the sum is carried from one edge to the next (eight lanes at a time).
        var bounds = [(Int, Int)](repeating: (0, 0), count: count)
        var edges: [Int] = []
        edges.reserveCapacity(2 * count)
        for k in 0..<count {
            let centre = k * hop
            var start = centre - width / 2
            let a: Int
            let b: Int
            switch padding {
            case .edgeValues:
                start = min(max(start, 0), n - width)
                (a, b) = (start, start + width)
            case .zeros:
                (a, b) = (min(max(start, 0), n), min(max(start + width, 0), n))
            }
            bounds[k] = (a, b)
            edges.append(a)
            edges.append(b)
        }
        edges = Array(Set(edges)).sorted()
        var prefixAt: [Int: Double] = [:]
        prefixAt.reserveCapacity(edges.count)
        let inv = 1 / Double(buffer.channels)
        buffer.samples.withUnsafeBufferPointer { s in
            var acc = 0.0
            var at = 0
            for edge in edges {
                for ch in 0..<buffer.channels {
                    acc += Self.finiteSquares(s.baseAddress! + ch * n + at, count: edge - at) * inv
                }
                at = edge
                prefixAt[edge] = acc
            }
        }
        values = bounds.map { a, b in
            let e = ((prefixAt[b] ?? 0) - (prefixAt[a] ?? 0)) / Double(width)
            return e > 0 ? e.squareRoot() : 0
        }
    }

    /// Σx² over `count` samples, non-finite ones counted as 0 (`Float` lanes, summed in `Double`).
    static func finiteSquares(_ x: UnsafePointer<Float>, count: Int) -> Double {
        let raw = UnsafeRawPointer(x)
        let infinity = SIMD8<Float>(repeating: .infinity)
        var lanes = SIMD8<Float>(repeating: 0)
        var i = 0
        while i + 8 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            let finite = v.replacing(with: 0, where: .!(SIMDLanes.abs(v) .< infinity))
            lanes += finite * finite
            i += 8
        }
        var total = Double(lanes.sum())
        while i < count {
            if x[i].isFinite { total += Double(x[i]) * Double(x[i]) }
            i += 1
        }
        return total
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
