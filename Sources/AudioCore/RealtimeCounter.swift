import Synchronization

/// A counter the render thread bumps and the control thread reads (xruns, dropped commands).
///
/// - Thread safety: any thread.
/// - Real-time safe: yes.
public final class RealtimeCounter: Sendable {
    private let value = Atomic<Int>(0)

    public init() {}

    /// Adds `n` (default 1).
    public func increment(by n: Int = 1) { value.add(n, ordering: .relaxed) }

    /// The current count.
    public var count: Int { value.load(ordering: .relaxed) }
}
