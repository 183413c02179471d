import AudioCore

/// The render thread's running estimate of when timeline frames are heard, fed one measurement per write.
///
/// A single reading of (delay, clock) jitters by the time between the two calls and by the device's
/// reporting granularity (a sound server reports latency in chunks). The estimator keeps a line
/// `heard(frame) = t0 + (frame - f0) / rate`; each measurement moves the line a fraction (``smoothing``)
/// of the way towards it, which averages the jitter while still following a drifting DAC (100 ppm is
/// 4 µs per 43 ms period, far below what the smoothing lags). ``reset(frame:monotonic:realtime:)``
/// re-takes the line at once (start, after an xrun).
///
/// - Thread safety: render thread only (a plain value owned by the render loop).
/// - Real-time safe: yes.
struct ClockEstimator {
    /// How far each measurement moves the estimate (1 = follow every reading).
    var smoothing: Double = 1.0 / 16
    let rate: Double
    private(set) var isValid = false
    /// The line: `frame` is heard at `monotonic` ns (as a Double to keep sub-nanosecond corrections).
    private(set) var frame: Int64 = 0
    private(set) var monotonic: Double = 0
    private(set) var realtimeOffset: Int64 = 0  // realtime - monotonic at the last reading

    init(rate: Int) { self.rate = Double(rate) }

    /// When `frame` is heard according to the current line (monotonic ns).
    func predictedMonotonic(ofFrame f: Int64) -> Double {
        monotonic + Double(f - frame) * 1e9 / rate
    }

    /// Starts a new line through one measurement: `frame` is heard at `monotonic`.
    mutating func reset(frame f: Int64, monotonic m: Int64, realtime r: Int64) {
        frame = f
        monotonic = Double(m)
        realtimeOffset = r - m
        isValid = true
    }

    /// Moves the line towards a measurement that says `frame` is heard at `monotonic`.
    mutating func update(frame f: Int64, monotonic m: Int64, realtime r: Int64) {
        guard isValid else { return reset(frame: f, monotonic: m, realtime: r) }
        let predicted = predictedMonotonic(ofFrame: f)
        monotonic = predicted + (Double(m) - predicted) * smoothing
        frame = f
        realtimeOffset = r - m
    }

    /// The anchor to publish: the line at its current frame.
    var anchor: AudioClock.Anchor {
        let m = Int64(monotonic.rounded())
        return AudioClock.Anchor(frame: frame, monotonicNanoseconds: m, realtimeNanoseconds: m + realtimeOffset)
    }
}
