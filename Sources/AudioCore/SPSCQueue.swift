import Synchronization

/// A lock-free, wait-free single-producer single-consumer queue of fixed capacity.
///
/// Commands travel from the control thread to the render thread through one of these, and events
/// (and retired objects) travel back through another. Storage is allocated once in `init`; `push`
/// never grows the queue: when it is full the element is handed back to the caller.
///
/// - Thread safety: exactly one thread may call `push` and exactly one (other) thread `pop`.
/// - Real-time safe: `push`, `pop`, `count` and `isEmpty` are (no allocation, no lock, no syscall).
public final class SPSCQueue<Element>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element?>
    private let mask: Int
    /// The capacity (a power of two, at least the requested capacity).
    public let capacity: Int
    private let head = Atomic<Int>(0)  // next slot to read; written by the consumer
    private let tail = Atomic<Int>(0)  // next slot to write; written by the producer

    /// Creates an empty queue holding at least `minimumCapacity` elements.
    public init(minimumCapacity: Int) {
        precondition(minimumCapacity > 0, "capacity must be positive")
        var cap = 1
        while cap < minimumCapacity { cap <<= 1 }
        capacity = cap
        mask = cap - 1
        storage = .allocate(capacity: cap)
        storage.initialize(repeating: nil, count: cap)
    }

    deinit {
        storage.deinitialize(count: capacity)
        storage.deallocate()
    }

    /// Appends `element`, or returns it when the queue is full (the caller decides what to do).
    ///
    /// - Returns: `nil` on success, the rejected element when the queue is full.
    @discardableResult
    public func push(_ element: Element) -> Element? {
        let t = tail.load(ordering: .relaxed)
        let h = head.load(ordering: .acquiring)
        if t &- h == capacity { return element }
        storage[t & mask] = element
        tail.store(t &+ 1, ordering: .releasing)
        return nil
    }

    /// Removes and returns the oldest element, or `nil` when the queue is empty.
    public func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        let t = tail.load(ordering: .acquiring)
        if h == t { return nil }
        let slot = storage + (h & mask)
        let element = slot.pointee
        slot.pointee = nil
        head.store(h &+ 1, ordering: .releasing)
        return element
    }

    /// The number of queued elements (a snapshot).
    public var count: Int { tail.load(ordering: .acquiring) &- head.load(ordering: .acquiring) }

    /// Whether the queue is empty (a snapshot).
    public var isEmpty: Bool { count == 0 }
}
