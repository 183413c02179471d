#if canImport(Glibc)
    import Glibc
#endif

/// Where a render loop writes converted frames: an ALSA PCM, a paced null device, a file, a test's sink.
///
/// The calls mirror ALSA's blocking playback API so one render loop drives them all: `write` blocks
/// until there is room and returns frames written or `-errno` (`-EPIPE` after an underrun), `recover`
/// makes the stream writable again after an xrun, `delay` says how many written frames are not yet
/// heard, `timestamps` reads the clocks the delay is measured against.
///
/// - Thread safety: the render thread calls everything while it runs; `prepare`, `drain`, `drop` and
///   `close` are called by the control thread only while no render thread runs.
/// - Real-time safe: `write`, `delay`, `recover` and `timestamps` are as real-time safe as the device allows.
protocol PCMSink: AnyObject {
    /// The device name, for messages.
    var deviceName: String { get }
    /// Writes up to `frames` frames from `data`; returns frames written or `-errno`.
    func write(_ data: UnsafeRawPointer, frames: Int) -> Int
    /// Frames written but not yet heard; returns 0 and sets `frames`, or `-errno`.
    func delay(_ frames: inout Int) -> Int32
    /// Makes the stream writable again after `code` (`-EPIPE`, `-ESTRPIPE`); returns 0 or `-errno`.
    func recover(_ code: Int32) -> Int32
    /// Makes a stopped stream ready to start again (the next write of a period starts it).
    func prepare() -> Int32
    /// Plays out what was written, then stops.
    func drain()
    /// Stops at once, discarding what was written.
    func drop()
    /// `CLOCK_MONOTONIC` and `CLOCK_REALTIME` now, in nanoseconds, on the device's time (read in that order).
    func timestamps() -> (monotonic: Int64, realtime: Int64)
}

extension PCMSink {
    /// The system's clocks: a real device plays in real time.
    @inline(__always)
    func timestamps() -> (monotonic: Int64, realtime: Int64) {
        let monotonic = SystemClock().monotonicNow()
        return (monotonic, SystemClock().realtimeNow())
    }
}

/// Whether `code` (a negative errno) is an xrun that `recover` handles.
@inline(__always)
func isXrun(_ code: Int32) -> Bool { code == -EPIPE || code == -ESTRPIPE }
