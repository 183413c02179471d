import AudioCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// When a frame of the stream is heard: the mapping from a source's timeline to the wall clock.
///
/// The render thread takes a measurement after every write (the timeline frame it will render next,
/// the device's delay, `CLOCK_MONOTONIC`, `CLOCK_REALTIME`), smooths out the jitter of those readings
/// and publishes an ``Anchor``: "timeline frame F is heard at monotonic time T (and wall time W)".
/// Any thread can then ask when a frame is heard (``audibleTime(ofFrame:)``) or which frame is being
/// heard now (``frameHeard(atMonotonic:)``). The anchor follows the device continuously, so a DAC that
/// runs 100 ppm fast or slow does not pull the estimate away; after an xrun it is re-taken at once.
///
/// Frames are in the *source's* timeline: when the device skips lost time (``WallClockSource``), the
/// timeline jumps with it and the clock keeps mapping timeline frames to the times they are heard.
///
/// - Thread safety: any thread may read; only the output's render thread publishes.
/// - Real-time safe: yes (reads and writes are a seqlock over atomics).
public final class AudioClock: Sendable {
    /// One published point of the mapping.
    public struct Anchor: Sendable, Equatable {
        /// A frame of the source's timeline.
        public var frame: FramePosition
        /// When that frame is heard, on `CLOCK_MONOTONIC`, in nanoseconds.
        public var monotonicNanoseconds: Int64
        /// When that frame is heard, on `CLOCK_REALTIME` (nanoseconds since the Unix epoch).
        public var realtimeNanoseconds: Int64
    }

    /// When one frame is heard, on both clocks.
    public struct AudibleTime: Sendable, Equatable {
        /// `CLOCK_MONOTONIC` nanoseconds: for measuring intervals.
        public var monotonicNanoseconds: Int64
        /// `CLOCK_REALTIME` nanoseconds since the Unix epoch: the wall clock, for people and front ends.
        public var realtimeNanoseconds: Int64
    }

    /// The stream's rate: frames per second of the timeline.
    public let sampleRate: SampleRate

    private let sequence = Atomic<UInt64>(0)
    private let frame = Atomic<Int64>(0)
    private let monotonic = Atomic<Int64>(0)
    private let realtime = Atomic<Int64>(0)
    private let settled = Atomic<Bool>(false)
    /// Monotonic time now: `CLOCK_MONOTONIC`, or a ``ManualOutput``'s clock moved by hand.
    private let now: @Sendable () -> Int64

    /// A clock with no anchor yet (nothing has been written), on `CLOCK_MONOTONIC`.
    public convenience init(sampleRate: SampleRate) {
        self.init(sampleRate: sampleRate, now: AudioClock.monotonicNow)
    }

    /// A clock with no anchor yet whose "now" is `now` (a device clock's monotonic time).
    init(sampleRate: SampleRate, now: @escaping @Sendable () -> Int64) {
        self.sampleRate = sampleRate
        self.now = now
    }

    /// The latest anchor, or `nil` before the first write.
    public var anchor: Anchor? {
        while true {
            let s1 = sequence.load(ordering: .acquiring)
            if s1 & 1 == 1 { continue }
            let a = Anchor(
                frame: frame.load(ordering: .relaxed), monotonicNanoseconds: monotonic.load(ordering: .relaxed),
                realtimeNanoseconds: realtime.load(ordering: .relaxed))
            atomicMemoryFence(ordering: .acquiring)
            let s2 = sequence.load(ordering: .relaxed)
            if s1 == s2 { return s1 == 0 ? nil : a }
        }
    }

    /// When timeline frame `frame` is (or was) heard, estimated from the latest anchor; `nil` before the
    /// first write.
    public func audibleTime(ofFrame frame: FramePosition) -> AudibleTime? {
        guard let a = anchor else { return nil }
        let ns = Self.nanoseconds(frames: frame - a.frame, rate: sampleRate.hertz)
        return AudibleTime(
            monotonicNanoseconds: a.monotonicNanoseconds + ns, realtimeNanoseconds: a.realtimeNanoseconds + ns)
    }

    /// The timeline frame heard at monotonic time `nanoseconds` (rounded down); `nil` before the first write.
    public func frameHeard(atMonotonic nanoseconds: Int64) -> FramePosition? {
        guard let a = anchor else { return nil }
        let dt = nanoseconds - a.monotonicNanoseconds
        return a.frame + Int64((Double(dt) * sampleRate.double / 1e9).rounded(.down))
    }

    /// Whether the estimate has settled: the device's readings agreed with each other after the last
    /// (re)start. Until then the anchor follows raw readings, which a sound server reports inaccurately
    /// for its first few hundred milliseconds; a front end that shows times should ask again once settled.
    public var isSettled: Bool { settled.load(ordering: .acquiring) }

    /// The timeline frame being heard now (on the output's clock); `nil` before the first write.
    public var frameHeardNow: FramePosition? { frameHeard(atMonotonic: now()) }

    /// Publishes a new anchor (render thread only).
    func publish(_ a: Anchor, settled isSettled: Bool) {
        settled.store(isSettled, ordering: .releasing)
        let s = sequence.load(ordering: .relaxed)
        sequence.store(s &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        frame.store(a.frame, ordering: .relaxed)
        monotonic.store(a.monotonicNanoseconds, ordering: .relaxed)
        realtime.store(a.realtimeNanoseconds, ordering: .relaxed)
        sequence.store(s &+ 2, ordering: .releasing)
    }

    // MARK: - Clocks

    /// `CLOCK_MONOTONIC` now, in nanoseconds. Real-time safe (vDSO).
    @inline(__always)
    public static func monotonicNow() -> Int64 { read(CLOCK_MONOTONIC) }

    /// `CLOCK_REALTIME` now, in nanoseconds since the Unix epoch. Real-time safe (vDSO).
    @inline(__always)
    public static func realtimeNow() -> Int64 { read(CLOCK_REALTIME) }

    @inline(__always)
    private static func read(_ id: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// `frames` at `rate` as nanoseconds (rounded to nearest).
    @inline(__always)
    static func nanoseconds(frames: Int64, rate: Int) -> Int64 {
        Int64((Double(frames) * 1e9 / Double(rate)).rounded())
    }
}
