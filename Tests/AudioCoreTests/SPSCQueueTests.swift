import AudioCore
import Foundation
import Glibc
import Testing

@Suite("SPSCQueue")
struct SPSCQueueTests {
    @Test("capacity rounds up to a power of two; a full queue hands the element back")
    func fullQueueRejects() {
        let q = SPSCQueue<Int>(minimumCapacity: 5)
        #expect(q.capacity == 8)
        for i in 0..<8 { #expect(q.push(i) == nil) }
        #expect(q.push(99) == 99)
        #expect(q.count == 8)
        #expect(q.pop() == 0)
        #expect(q.push(8) == nil)
        var drained: [Int] = []
        while let x = q.pop() { drained.append(x) }
        #expect(drained == Array(1...8))
        #expect(q.isEmpty)
        #expect(q.pop() == nil)
    }

    @Test("one producer and one consumer thread pass 1 000 000 items in order")
    func twoThreads() {
        let q = SPSCQueue<Int>(minimumCapacity: 1024)
        let total = 1_000_000
        let producer = Thread {
            var i = 0
            while i < total {
                // Yield when full: on a loaded 2-core machine a spinning producer starves the consumer.
                if q.push(i) == nil { i += 1 } else { sched_yield() }
            }
        }
        producer.start()
        var expected = 0
        var outOfOrder = 0
        while expected < total {
            if let x = q.pop() {
                if x != expected { outOfOrder += 1 }
                expected += 1
            } else {
                sched_yield()
            }
        }
        #expect(outOfOrder == 0)
        #expect(q.isEmpty)
    }

    @Test("elements are released when popped (the queue keeps no reference)")
    func releasesElements() {
        final class Token {}
        let q = SPSCQueue<Token>(minimumCapacity: 2)
        weak var weakToken: Token?
        do {
            let t = Token()
            weakToken = t
            q.push(t)
        }
        #expect(weakToken != nil)
        _ = q.pop()
        #expect(weakToken == nil)
    }
}
