import Foundation

/// Runs one piece of work per file of a batch on a fixed number of worker threads, and hands each result to the
/// caller as soon as it is done (docs/scale.md).
///
/// The contract:
/// - `jobs` threads (at most one per file) each take the next index not yet taken, work on it, and put the result
///   where the caller's thread picks it up. The order files are taken in is the input order; the order they
///   finish in is whatever the files cost.
/// - `deliver` is called on the caller's thread, once per index, one call at a time: in finishing order, or, when
///   `ordered`, in input order (0, 1, 2, …).
/// - Memory is bounded by the batch's parallelism, not its size: at most ``window(jobs:)`` results are taken but
///   not yet delivered. A worker waits before taking an index that far ahead of the deliveries, so an ordered
///   batch whose first file is slow holds that many finished rows, not the whole batch.
/// - When `run` returns, every index was delivered and every worker thread has ended.
///
/// - Thread safety: `work` runs on the worker threads, concurrently; `deliver` on the caller's thread only.
/// - Real-time safe: no.
public enum BatchRunner {
    /// The default of `--jobs`: every core this process may run on.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// The most worker threads a batch runs: `--jobs` above it is a mistake (each thread holds a decoded file).
    public static let maximumJobs = 256

    /// How many results may be taken and not yet delivered: four per worker, so an ordered batch keeps every
    /// worker busy past a file that takes four times as long as the others.
    public static func window(jobs: Int) -> Int { 4 * max(jobs, 1) }

    /// Runs `work` for indices `0..<count` on `jobs` threads; see the type's contract.
    ///
    /// - Parameters:
    ///   - jobs: worker threads, 1 or more (clamped to `count`).
    ///   - ordered: deliver in input order instead of finishing order.
    ///   - work: the work on one index, from any worker thread.
    ///   - deliver: each index and its result, on the caller's thread.
    public static func run<Row: Sendable>(
        count: Int, jobs: Int, ordered: Bool, work: @escaping @Sendable (Int) -> Row,
        deliver: (Int, Row) throws -> Void
    ) rethrows {
        guard count > 0 else { return }
        let workers = min(max(jobs, 1), count)
        let shared = Shared<Row>(window: window(jobs: workers), ordered: ordered)
        for _ in 0..<workers {
            let thread = Thread { shared.workLoop(count: count, work: work) }
            // As large as the main thread's: the analyses were written for it (8 MiB is glibc's default).
            thread.stackSize = 8 << 20
            thread.start()
        }
        defer { shared.finish(workers: workers) }
        var delivered = 0
        while delivered < count {
            for (index, row) in shared.next(delivered: delivered) {
                try deliver(index, row)
                delivered += 1
                shared.delivered(delivered)
            }
        }
    }

    /// What the workers and the caller share, under one condition variable.
    private final class Shared<Row: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        /// The next index to take (guarded by `condition`).
        private var taken = 0
        /// How many results the caller has delivered.
        private var deliveredCount = 0
        /// Finished results not yet handed to the caller: by index (ordered) or in finishing order.
        private var finished: [Int: Row] = [:]
        private var arrivals: [(Int, Row)] = []
        private var ended = 0
        /// Stop taking work: the caller is gone (its `deliver` threw).
        private var stopping = false
        private let window: Int
        private let ordered: Bool

        init(window: Int, ordered: Bool) {
            self.window = window
            self.ordered = ordered
        }

        func workLoop(count: Int, work: @Sendable (Int) -> Row) {
            condition.lock()
            while true {
                if stopping || taken >= count { break }
                if taken - deliveredCount >= window {
                    condition.wait()
                    continue
                }
                let index = taken
                taken += 1
                condition.unlock()
                let row = work(index)
                condition.lock()
                if ordered { finished[index] = row } else { arrivals.append((index, row)) }
                condition.broadcast()
            }
            ended += 1
            condition.broadcast()
            condition.unlock()
        }

        /// Waits for results the caller may deliver now: the next in input order (and any after it that are
        /// ready), or every one that finished since the last call.
        func next(delivered: Int) -> [(Int, Row)] {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if ordered {
                    var out: [(Int, Row)] = []
                    var i = delivered
                    while let row = finished.removeValue(forKey: i) {
                        out.append((i, row))
                        i += 1
                    }
                    if !out.isEmpty { return out }
                } else if !arrivals.isEmpty {
                    let out = arrivals
                    arrivals.removeAll(keepingCapacity: true)
                    return out
                }
                condition.wait()
            }
        }

        func delivered(_ count: Int) {
            condition.lock()
            deliveredCount = count
            condition.broadcast()
            condition.unlock()
        }

        /// Stops the workers taking more and waits until every one has ended.
        func finish(workers: Int) {
            condition.lock()
            stopping = true
            condition.broadcast()
            while ended < workers { condition.wait() }
            condition.unlock()
        }
    }
}
