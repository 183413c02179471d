import AudioCore

#if canImport(Glibc)
    import Glibc
#endif

/// The time a sink plays by: the system's clocks for a real device, a clock moved by hand for a manual output.
///
/// A sink reads it to know what it has played (the paced null device) and when its readings were taken, and
/// waits on it for room in its buffer; the render loop's clock readings come from it, so the published
/// ``AudioClock`` is in this clock's time.
///
/// - Thread safety: the render thread reads and waits; ``ManualClock`` is moved by the one thread that steps.
/// - Real-time safe: yes (the system clocks are vDSO reads; a wait is the wait a blocking write makes).
protocol DeviceClock {
    /// `CLOCK_MONOTONIC` now, in nanoseconds.
    func monotonicNow() -> Int64
    /// `CLOCK_REALTIME` now, in nanoseconds since the Unix epoch.
    func realtimeNow() -> Int64
    /// Returns once the monotonic time is `deadline` or later.
    func sleep(untilMonotonic deadline: Int64)
}

/// The system's clocks: `CLOCK_MONOTONIC`, `CLOCK_REALTIME` and `clock_nanosleep`.
struct SystemClock: DeviceClock {
    @inline(__always)
    func monotonicNow() -> Int64 { AudioClock.monotonicNow() }

    @inline(__always)
    func realtimeNow() -> Int64 { AudioClock.realtimeNow() }

    func sleep(untilMonotonic deadline: Int64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

/// A clock that moves only when told, as swift-nio's `EmbeddedEventLoop` does: a wait jumps to its deadline at
/// once (the sleeper wakes exactly on time), and ``advance(nanoseconds:)`` lets time pass while nothing runs.
///
/// - Thread safety: one thread (the one stepping a ``ManualOutput``).
final class ManualClock: DeviceClock, @unchecked Sendable {
    private(set) var monotonic: Int64
    /// `CLOCK_REALTIME` minus `CLOCK_MONOTONIC`: fixed, so wall times are exact too.
    let realtimeOffset: Int64

    /// A clock reading `monotonic` now, whose wall clock reads `realtime` at that moment.
    init(monotonic: Int64, realtime: Int64) {
        self.monotonic = monotonic
        realtimeOffset = realtime - monotonic
    }

    func monotonicNow() -> Int64 { monotonic }

    func realtimeNow() -> Int64 { monotonic + realtimeOffset }

    func sleep(untilMonotonic deadline: Int64) { monotonic = max(monotonic, deadline) }

    /// Lets `nanoseconds` (at least 0) pass.
    func advance(nanoseconds: Int64) {
        precondition(nanoseconds >= 0, "a manual clock does not go back")
        monotonic += nanoseconds
    }
}
