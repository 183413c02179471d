import Foundation
import Synchronization

/// Periodic Hann windows `w[i] = 0.5 − 0.5·cos(2πi/size)`, computed once per size and shared.
///
/// - Thread safety: ``shared(_:)`` may be called from any thread.
/// - Real-time safe: no (the first call for a size allocates).
package enum HannWindow {
    private static let cache = Mutex<[Int: [Float]]>([:])
    /// Sizes kept (analysis frames come in a few sizes; a window fitted to each short file's length is not kept
    /// once this many are held, so the cache stays bounded).
    static let cachedSizes = 32

    /// The size of the short-time frames the onset flux and the seam's spectral metric both transform at
    /// `sampleRate` Hz: the power of two nearest 21.3 ms (1024 points at 44.1 and 48 kHz), at least 64.
    package static func shortFrameSize(sampleRate: Double) -> Int {
        max(64, 1 << Int(log2(sampleRate * 0.0213).rounded()))
    }

    /// The periodic Hann window of `size` points.
    package static func shared(_ size: Int) -> [Float] {
        if let w = cache.withLock({ $0[size] }) { return w }
        let w = make(size)
        cache.withLock { if $0.count < cachedSizes { $0[size] = w } }
        return w
    }

    /// A new periodic Hann window of `size` points.
    package static func make(_ size: Int) -> [Float] {
        (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
    }
}
