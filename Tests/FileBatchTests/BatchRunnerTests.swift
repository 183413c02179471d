import Foundation
import Synchronization
import Testing

@testable import FileBatch

/// ``BatchRunner``: every index delivered once, input order when asked, and at most a window of results held.
@Suite struct BatchRunnerTests {
    @Test(arguments: [1, 2, 7])
    func deliversEveryIndexOnce(jobs: Int) {
        var seen: [Int] = []
        BatchRunner.run(count: 200, jobs: jobs, ordered: false, work: { $0 * 3 }) { i, row in
            #expect(row == i * 3)
            seen.append(i)
        }
        #expect(seen.sorted() == Array(0..<200))
    }

    /// `--ordered`: input order, whatever order the work finishes in (the early indices are made the slowest).
    @Test func orderedDeliversInInputOrder() {
        var seen: [Int] = []
        BatchRunner.run(
            count: 60, jobs: 4, ordered: true,
            work: { i in
                // The first files take longest: without the reorder buffer they would arrive last.
                if i < 4 { usleep(20_000) }
                return i
            }
        ) { i, row in
            #expect(i == row)
            seen.append(i)
        }
        #expect(seen == Array(0..<60))
    }

    /// Memory does not grow with the batch: while the first file is slow, the others stop being taken once a
    /// window of results waits for it (exactly the window is taken, however long the first file takes).
    @Test func holdsAtMostAWindowOfResults() {
        let taken = Atomic<Int>(0)
        let takenWhileFirstRan = Atomic<Int>(-1)
        var delivered = 0
        let window = BatchRunner.window(jobs: 2)
        BatchRunner.run(
            count: 500, jobs: 2, ordered: true,
            work: { i in
                taken.add(1, ordering: .sequentiallyConsistent)
                if i == 0 {
                    // Wait (with a deadline) until the other worker has taken what it may, and a while more: an
                    // unbounded runner would take the whole batch meanwhile.
                    let deadline = Date().addingTimeInterval(60)
                    while taken.load(ordering: .sequentiallyConsistent) < window && Date() < deadline {
                        usleep(1000)
                    }
                    usleep(50_000)
                    takenWhileFirstRan.store(
                        taken.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
                }
                return i
            }
        ) { i, _ in
            #expect(i == delivered)
            delivered += 1
        }
        #expect(delivered == 500)
        #expect(takenWhileFirstRan.load(ordering: .sequentiallyConsistent) == window)
    }

    /// What `deliver` throws ends the batch: the workers stop taking files, and `run` rethrows once they have ended.
    @Test func aThrowingDeliveryStopsTheBatch() {
        struct Stop: Error {}
        let worked = Atomic<Int>(0)
        #expect(throws: Stop.self) {
            try BatchRunner.run(
                count: 10_000, jobs: 2, ordered: false,
                work: { i in
                    worked.add(1, ordering: .relaxed)
                    return i
                }
            ) { _, _ in throw Stop() }
        }
        #expect(worked.load(ordering: .relaxed) < 10_000)
    }
}
