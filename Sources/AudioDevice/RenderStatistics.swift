import Synchronization

/// How long the render thread spends rendering and converting each period (for benchmarks and status).
///
/// - Thread safety: the render thread records; any thread reads.
/// - Real-time safe: yes.
public final class RenderStatistics: Sendable {
    private let periods = Atomic<Int>(0)
    private let total = Atomic<Int64>(0)
    private let maximum = Atomic<Int64>(0)

    public init() {}

    func record(nanoseconds ns: Int64) {
        periods.add(1, ordering: .relaxed)
        total.add(ns, ordering: .relaxed)
        if ns > maximum.load(ordering: .relaxed) { maximum.store(ns, ordering: .relaxed) }
    }

    /// Periods rendered so far.
    public var periodCount: Int { periods.load(ordering: .relaxed) }
    /// Total wall time spent in `render` + conversion, in nanoseconds.
    public var totalNanoseconds: Int64 { total.load(ordering: .relaxed) }
    /// The longest single period's render + conversion time, in nanoseconds.
    public var maximumNanoseconds: Int64 { maximum.load(ordering: .relaxed) }
}
