import AudioCore

#if canImport(Glibc)
    import Glibc
#endif

/// A device that plays nothing, at exactly the real-time rate: a buffer that drains on `CLOCK_MONOTONIC`.
///
/// It behaves as an ALSA PCM would: the first write of a prepared stream starts it, `write` blocks
/// until the buffer has room, a stream left empty underruns (`-EPIPE` on the next write) and `recover`
/// prepares it again. Its `delay` is exact, so clock estimates on it are exact.
///
/// - Thread safety: see ``PCMSink``.
final class NullSink: PCMSink, @unchecked Sendable {
    let deviceName = "null (paced)"
    private let rate: Int64
    private let bufferFrames: Int64
    private var started = false
    private var startTime: Int64 = 0
    private var written: Int64 = 0

    init(rate: Int, bufferFrames: Int) {
        self.rate = Int64(rate)
        self.bufferFrames = Int64(bufferFrames)
    }

    /// Frames played since the stream started, at `now`.
    @inline(__always)
    private func played(at now: Int64) -> Int64 { (now - startTime) * rate / 1_000_000_000 }

    func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
        let now = AudioClock.monotonicNow()
        if !started {
            started = true
            startTime = now
            written = 0
        } else if played(at: now) > written {
            return Int(-EPIPE)
        }
        // Wait until the buffer has room for `frames`: until played >= written + frames - buffer.
        let needPlayed = written + Int64(frames) - bufferFrames
        if needPlayed > 0 {
            let wake = startTime + (needPlayed * 1_000_000_000 + rate - 1) / rate
            var ts = timespec(tv_sec: Int(wake / 1_000_000_000), tv_nsec: Int(wake % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
        }
        written += Int64(frames)
        return frames
    }

    func delay(_ frames: inout Int) -> Int32 {
        guard started else {
            frames = 0
            return 0
        }
        let queued = written - played(at: AudioClock.monotonicNow())
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
        let end = startTime + (written * 1_000_000_000 + rate - 1) / rate
        var ts = timespec(tv_sec: Int(end / 1_000_000_000), tv_nsec: Int(end % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
        started = false
    }

    func drop() { started = false }
}
