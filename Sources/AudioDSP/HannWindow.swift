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
