import AudioCore

/// The paced null device on a clock moved by hand, its render loop run on the caller's thread: playback a test
/// steps period by period, as swift-nio's `EmbeddedEventLoop` runs an event loop.
///
/// ``start(_:startFrame:frameLimit:)`` spawns no thread: nothing plays until ``step()`` or ``advance(periods:)``
/// renders, converts and writes periods there and then, exactly as ``NullOutput``'s render thread would (the
/// same loop, the same sink, the same clock estimate, xrun recovery and skip). Time moves only with the device:
/// a write that finds the buffer full moves the clock on to when there is room, as a render thread woken exactly
/// on time would see it, so after the buffer has filled each period advances the clock by one period's duration.
/// ``stall(nanoseconds:)`` lets time pass without rendering, as when the render thread is descheduled: a stall
/// longer than what is buffered is an xrun on the next step. Everything the clock publishes is therefore exact
/// and the same on a loaded machine as on an idle one.
///
///     let output = try ManualOutput()
///     try output.start(engine)
///     output.advance(periods: 10)         // 10 × 2048 frames rendered and written, here and now
///     output.stall(nanoseconds: 400_000_000)
///     output.step()                       // the xrun: recovered, counted, the lost time skipped
///
/// - Thread safety: one thread (the test's) for everything.
public final class ManualOutput: PCMOutput, @unchecked Sendable {
    private let time: ManualClock

    /// A manual null output with `config`'s rate, channels, period and buffer (float32), whose monotonic clock
    /// reads `monotonicStart` and wall clock `realtimeStart` (nanoseconds since the Unix epoch) until it moves.
    ///
    /// - Throws: ``EnsoError`` of kind `invalidInput` when a config field is out of range.
    public convenience init(
        config: OutputConfig = OutputConfig(), monotonicStart: Int64 = 1_000_000_000,
        realtimeStart: Int64 = 1_800_000_000_000_000_000
    ) throws(EnsoError) {
        let format = try config.unnegotiatedFormat(.float32)
        let time = ManualClock(monotonic: monotonicStart, realtime: realtimeStart)
        let sink = NullSink(
            name: "null (manual clock)", rate: format.sampleRate.hertz, bufferFrames: format.bufferFrames,
            clock: time)
        self.init(sink: sink, format: format, clock: time, anchorInterval: config.anchorInterval)
    }

    /// A manual output on any sink that plays by `clock` (tests inject faults with a sink of their own).
    init<Sink: PCMSink>(sink: Sink, format: StreamFormat, clock: ManualClock, anchorInterval: Int = 1) {
        time = clock
        super.init(
            core: OutputCore(
                sink: sink, format: format, realtimePriority: nil, lockMemory: false, anchorInterval: anchorInterval,
                threaded: false, now: { [clock] in clock.monotonicNow() }))
    }

    /// The output's monotonic time now, in nanoseconds (its ``clock`` maps frames to this time).
    public var now: Int64 { time.monotonicNow() }

    /// Renders and writes one period on the caller's thread.
    ///
    /// - Returns: `false` when no period was written: not started, or ended (the frame limit reached, a stop,
    ///   a failure; ``isRunning`` is then false).
    @discardableResult
    public func step() -> Bool { core.step() }

    /// Renders and writes `periods` periods, fewer when the output ends first.
    ///
    /// - Returns: The periods rendered.
    @discardableResult
    public func advance(periods: Int) -> Int {
        var done = 0
        while done < periods && step() { done += 1 }
        return done
    }

    /// Renders periods until the output ends (its frame limit or a failure), at most `maxPeriods`.
    ///
    /// - Returns: The periods rendered.
    @discardableResult
    public func runToEnd(maxPeriods: Int = 1_000_000) -> Int { advance(periods: maxPeriods) }

    /// Lets `nanoseconds` pass with nothing rendered, as when the render thread is descheduled.
    public func stall(nanoseconds: Int64) { time.advance(nanoseconds: nanoseconds) }
}
