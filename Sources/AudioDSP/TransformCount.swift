import Synchronization

/// Counts the forward transforms (`kiss_fftr` calls) made within a task: how many transforms an analysis costs, as
/// `perf stat -e probe_libkissfft:kiss_fftr` counts them for a whole process (docs/benchmarks.md), but for one call
/// in a test, whatever other tests run beside it.
///
///     let count = TransformCount()
///     TransformCount.$current.withValue(count) { _ = SeamMetrics.measure(buffer, loop: 0..<buffer.frameCount) }
///     print(count.forward)
///
/// Unbound (nil) outside such a scope, where each transform pays one task-local read (no lock, no allocation).
///
/// - Thread safety: any thread (an atomic counter; child tasks inherit the binding).
/// - Real-time safe: yes.
package final class TransformCount: Sendable {
    /// The counter bound to the current task, if any.
    @TaskLocal package static var current: TransformCount?

    private let count = Atomic<Int>(0)

    package init() {}

    /// The forward transforms counted so far.
    package var forward: Int { count.load(ordering: .relaxed) }

    /// Counts one forward transform.
    func add() { count.add(1, ordering: .relaxed) }
}
