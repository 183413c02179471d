/// A fixed-capacity list of session events held inline (no heap storage), for the render thread.
///
/// - Thread safety: value type; one thread at a time.
/// - Real-time safe: yes.
public struct SessionEventList: Sendable {
    /// The capacity: one cycle's worth of events (``SessionTimeline/maxEventsPerCycle``) plus room.
    public static let capacity = 16

    private var items = InlineArray<16, SessionEvent>(repeating: SessionEvent(kind: .end, frame: 0, cycle: 0))
    /// The number of events held.
    public private(set) var count = 0

    public init() {}

    /// The event at `index` (0 ..< count).
    public subscript(index: Int) -> SessionEvent {
        precondition(index >= 0 && index < count, "event index out of range")
        return items[index]
    }

    /// Whether the list is empty.
    public var isEmpty: Bool { count == 0 }

    /// Appends `event`; traps when full (the timeline never produces more than ``capacity`` per cycle).
    public mutating func append(_ event: SessionEvent) {
        precondition(count < Self.capacity, "session event list is full")
        items[count] = event
        count += 1
    }

    /// Removes every event.
    public mutating func removeAll() { count = 0 }

    /// Stable insertion sort by frame (lists are tiny).
    public mutating func sortByFrame() {
        if count < 2 { return }
        for i in 1..<count {
            let e = items[i]
            var j = i - 1
            while j >= 0 && items[j].frame > e.frame {
                items[j + 1] = items[j]
                j -= 1
            }
            items[j + 1] = e
        }
    }
}
