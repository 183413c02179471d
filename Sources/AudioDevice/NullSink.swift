import AudioCore

#if canImport(Glibc)
    import Glibc
#endif

/// A device that plays nothing, at exactly the rate of its clock: a buffer that drains on `Clock`'s time.
///
/// It behaves as an ALSA PCM would: the first write of a prepared stream starts it, `write` blocks
/// until the buffer has room, a stream left empty underruns (`-EPIPE` on the next write) and `recover`
/// prepares it again. Its `delay` is exact, so clock estimates on it are exact. On the ``SystemClock`` it is
/// ``NullOutput``'s device; on a ``ManualClock`` a blocking write moves time on to when there is room, which is
/// how ``ManualOutput`` plays by hand.
///
/// - Thread safety: see ``PCMSink``.
final class NullSink<Clock: DeviceClock>: PCMSink, @unchecked Sendable {
    let deviceName: String
    let clock: Clock
    private let rate: Int64
    private let bufferFrames: Int64
    private var started = false
    private var startTime: Int64 = 0
    private var written: Int64 = 0

    init(name: String, rate: Int, bufferFrames: Int, clock: Clock) {
        deviceName = name
        self.rate = Int64(rate)
        self.bufferFrames = Int64(bufferFrames)
        self.clock = clock
    }

    /// Frames played since the stream started, at `now`.
    @inline(__always)
    private func played(at now: Int64) -> Int64 { (now - startTime) * rate / 1_000_000_000 }

    /// When frame count `frames` of the stream has been played (rounded up to the nanosecond).
    @inline(__always)
    private func time(played frames: Int64) -> Int64 { startTime + (frames * 1_000_000_000 + rate - 1) / rate }

    func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
        let now = clock.monotonicNow()
        if !started {
            started = true
            startTime = now
            written = 0
        } else if played(at: now) > written {
            return Int(-EPIPE)
        }
        // Wait until the buffer has room for `frames`: until played >= written + frames - buffer.
        let needPlayed = written + Int64(frames) - bufferFrames
        if needPlayed > 0 { clock.sleep(untilMonotonic: time(played: needPlayed)) }
        written += Int64(frames)
        return frames
    }

    func delay(_ frames: inout Int) -> Int32 {
        guard started else {
            frames = 0
            return 0
        }
        let queued = written - played(at: clock.monotonicNow())
        if queued < 0 { return -EPIPE }
        frames = Int(queued)
        return 0
    }

    func recover(_ code: Int32) -> Int32 {
        guard isXrun(code) else { return code }
        started = false
        return 0
    }

    func prepare() -> Int32 {
        started = false
        return 0
    }

    func drain() {
        guard started else { return }
        clock.sleep(untilMonotonic: time(played: written))
        started = false
    }

    func drop() { started = false }

    func timestamps() -> (monotonic: Int64, realtime: Int64) { (clock.monotonicNow(), clock.realtimeNow()) }
}
