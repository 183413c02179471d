import AudioCore

/// The render thread's running estimate of when timeline frames are heard, fed one measurement per write.
///
/// A single reading of (delay, clock) jitters by the time between the two calls and by the device's
/// reporting granularity, and a sound server reports nonsense while a stream starts (PulseAudio's
/// plugin reads a delay of 0 for the first few hundred milliseconds, then the real latency). The
/// estimator keeps a line `heard(frame) = t0 + (frame - f0) / rate` and works in two phases:
///
/// - **Settling** (after a start or an xrun): the line follows each reading, until
///   ``settleCount`` consecutive readings agree with it within ``settleTolerance`` (or
///   ``settleLimit`` readings have passed, for devices whose readings never agree that closely).
/// - **Settled**: each reading moves the line a fraction of the way towards it: 1/n for the n-th
///   reading (a running mean), then ``smoothing`` (an exponential average that still follows a drifting
///   DAC: 100 ppm is 4 µs per 43 ms period, far below what the smoothing lags). A reading further than
///   ``jumpThreshold`` from the line is ignored, unless ``settleCount`` such readings come in a row: then
///   the latency really changed and the estimator settles again.
///
/// - Thread safety: render thread only (a plain value owned by the render loop).
/// - Real-time safe: yes.
struct ClockEstimator {
    var smoothing: Double = 1.0 / 16
    var settleTolerance: Double = 2_000_000  // ns
    var settleCount = 4
    var settleLimit = 32
    var jumpThreshold: Double = 10_000_000  // ns
    let rate: Double
    private(set) var isValid = false
    private(set) var isSettled = false
    /// The line: `frame` is heard at `monotonic` ns (as a Double to keep sub-nanosecond corrections).
    private(set) var frame: Int64 = 0
    private(set) var monotonic: Double = 0
    private(set) var realtimeOffset: Int64 = 0  // realtime - monotonic at the last reading
    private var readings = 0
    private var run = 0

    init(rate: Int) { self.rate = Double(rate) }

    /// When `frame` is heard according to the current line (monotonic ns).
    func predictedMonotonic(ofFrame f: Int64) -> Double {
        monotonic + Double(f - frame) * 1e9 / rate
    }

    /// Starts a new line through one measurement (`frame` is heard at `monotonic`) and settles again.
    mutating func reset(frame f: Int64, monotonic m: Int64, realtime r: Int64) {
        take(f, m, r)
        isValid = true
        isSettled = false
        readings = 1
        run = 0
    }

    /// Feeds one measurement: `frame` is heard at `monotonic`.
    mutating func update(frame f: Int64, monotonic m: Int64, realtime r: Int64) {
        guard isValid else { return reset(frame: f, monotonic: m, realtime: r) }
        let predicted = predictedMonotonic(ofFrame: f)
        let deviation = Double(m) - predicted
        readings += 1
        if !isSettled {
            run = abs(deviation) <= settleTolerance ? run + 1 : 0
            take(f, m, r)
            if run >= settleCount || readings >= settleLimit {
                isSettled = true
                readings = 1
                run = 0
            }
            return
        }
        if abs(deviation) > jumpThreshold {
            run += 1
            if run >= settleCount { reset(frame: f, monotonic: m, realtime: r) }
            return
        }
        run = 0
        monotonic = predicted + deviation * max(smoothing, 1 / Double(readings))
        frame = f
        realtimeOffset = r - m
    }

    private mutating func take(_ f: Int64, _ m: Int64, _ r: Int64) {
        frame = f
        monotonic = Double(m)
        realtimeOffset = r - m
    }

    /// The anchor to publish: the line at its current frame.
    var anchor: AudioClock.Anchor {
        let m = Int64(monotonic.rounded())
        return AudioClock.Anchor(frame: frame, monotonicNanoseconds: m, realtimeNanoseconds: m + realtimeOffset)
    }
}
