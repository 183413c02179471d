import AudioCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The render thread's work: pull a period from the source, convert it, write it, take a clock reading.
///
/// Everything the loop touches is allocated before it starts (`init`); the loop itself makes no
/// allocation, takes no lock and builds no string. It stops when ``stopRequested`` is set (after at
/// most one period) or when the device fails (``failureCode``). ``run()`` is ``step()`` until it ends: a
/// render thread runs it; a ``ManualOutput`` calls ``step()`` on the test's own thread instead.
///
/// Xruns: a write that fails with `-EPIPE`/`-ESTRPIPE` is recovered with the sink's `recover`
/// (`snd_pcm_recover`), counted in ``xruns`` and the write retried. After the period is written, the
/// loop compares when its first frame is really heard with when the clock line drawn before the stall
/// promised: the difference is wall time the stream lost. A ``WallClockSource`` is told to skip that
/// many frames, so later bells stay on their wall-clock times; the clock is re-taken at once.
///
/// - Thread safety: `run()` on the render thread; the atomics from any thread.
/// - Real-time safe: `run()`'s loop body is, as far as the sink's calls are.
final class RenderLoop<Sink: PCMSink>: @unchecked Sendable {
    let sink: Sink
    let source: any RenderSource
    let skipper: (any WallClockSource)?
    let format: StreamFormat
    let clock: AudioClock
    let xruns: RealtimeCounter
    let lostFrames: RealtimeCounter
    let statistics: RenderStatistics

    /// Set by the control thread to end the loop after the current period.
    let stopRequested = Atomic<Bool>(false)
    /// A negative errno when the device failed and the loop ended on its own; 0 otherwise.
    let failureCode = Atomic<Int32>(0)
    /// Whether the loop has ended.
    let finished = Atomic<Bool>(false)

    private let floatBuffer: UnsafeMutablePointer<Float>
    private let deviceBuffer: UnsafeMutableRawPointer
    private let bytesPerFrame: Int
    private var estimator: ClockEstimator
    /// The source-timeline frame the next render starts at.
    private var timelineFrame: Int64
    private let anchorInterval: Int
    /// Frames still to write before the loop ends on its own (`Int64.max`: no limit).
    private var remaining: Int64
    /// Whether the stream was recovered from an xrun since the last clock reading.
    private var recovered = false
    /// Periods written since the last clock reading.
    private var periodsSinceAnchor = 0

    init(
        sink: Sink, source: any RenderSource, format: StreamFormat, clock: AudioClock, anchorInterval: Int,
        startFrame: Int64, frameLimit: Int64?, xruns: RealtimeCounter, lostFrames: RealtimeCounter,
        statistics: RenderStatistics
    ) {
        self.sink = sink
        self.source = source
        self.skipper = source as? any WallClockSource
        self.format = format
        self.clock = clock
        self.xruns = xruns
        self.lostFrames = lostFrames
        self.statistics = statistics
        self.anchorInterval = anchorInterval
        let samples = format.periodFrames * format.channels.count
        floatBuffer = .allocate(capacity: samples)
        floatBuffer.initialize(repeating: 0, count: samples)
        bytesPerFrame = format.channels.count * format.sampleFormat.bytesPerSample
        deviceBuffer = .allocate(byteCount: format.periodFrames * bytesPerFrame, alignment: 16)
        deviceBuffer.initializeMemory(as: UInt8.self, repeating: 0, count: format.periodFrames * bytesPerFrame)
        estimator = ClockEstimator(rate: format.sampleRate.hertz)
        timelineFrame = startFrame
        remaining = frameLimit ?? .max
    }

    deinit {
        floatBuffer.deallocate()
        deviceBuffer.deallocate()
    }

    /// The loop; returns when stopped or when the device failed.
    ///
    /// Specialised for each production sink: a render thread is started through the type-erased ``PCMOutput``, and
    /// this keeps its loop free of generic dispatch.
    @_specialize(where Sink == ALSAPCM)
    @_specialize(where Sink == NullSink<SystemClock>)
    @_specialize(where Sink == FileSink)
    func run() {
        while step() {}
    }

    /// Renders, converts and writes one period, and takes a clock reading when one is due.
    ///
    /// - Returns: `true` when a period was written; `false` when the loop has ended (``finished``): it was
    ///   stopped or had written its frame limit, or the device failed. A call after that does nothing.
    func step() -> Bool {
        if finished.load(ordering: .relaxed) { return false }
        if stopRequested.load(ordering: .relaxed) || remaining <= 0 { return end() }
        let period = Int(min(Int64(format.periodFrames), remaining))
        let samples = period * format.channels.count

        let t0 = AudioClock.monotonicNow()
        source.render(into: floatBuffer, frames: period)
        format.sampleFormat.convert(floatBuffer, count: samples, into: deviceBuffer)
        statistics.record(nanoseconds: AudioClock.monotonicNow() - t0)

        var offset = 0
        while offset < period {
            let n = sink.write(deviceBuffer + offset * bytesPerFrame, frames: period - offset)
            if n >= 0 {
                offset += n
                continue
            }
            let code = Int32(truncatingIfNeeded: n)
            if code == -EINTR || code == -EAGAIN { continue }
            if isXrun(code) {
                xruns.increment()
                recovered = true
                let rc = sink.recover(code)
                if rc == 0 { continue }
                return fail(rc)
            }
            return fail(code)
        }
        timelineFrame += Int64(period)
        remaining -= Int64(period)

        periodsSinceAnchor += 1
        if recovered || !estimator.isSettled || periodsSinceAnchor >= anchorInterval {
            periodsSinceAnchor = 0
            if !takeReading(periodFrames: period) { return false }
        }
        return true
    }

    /// Marks the loop ended; returns `false` (for ``step()``).
    private func end() -> Bool {
        finished.store(true, ordering: .releasing)
        return false
    }

    /// Reads the delay and the clocks, updates the estimate and, after an xrun, skips the lost time.
    /// Returns `false` when the device failed.
    private func takeReading(periodFrames: Int) -> Bool {
        var delay = 0
        var rc = sink.delay(&delay)
        if isXrun(rc) {
            // The stream ran dry between the write and this reading: recover; measure next period.
            xruns.increment()
            recovered = true
            rc = sink.recover(rc)
            return rc == 0 || fail(rc)
        }
        if rc < 0 { return fail(rc) }
        let (now, wall) = sink.timestamps()
        // The next frame to write (timelineFrame) is heard after the `delay` frames queued before it.
        let heardAt = now + AudioClock.nanoseconds(frames: Int64(max(delay, 0)), rate: format.sampleRate.hertz)
        let wasRecovered = recovered
        recovered = false
        if wasRecovered && estimator.isValid {
            // The period just written started at timelineFrame - period; the line from before the stall
            // says when it should have been heard. What it is later than that is lost wall time.
            let firstFrame = timelineFrame - Int64(periodFrames)
            let firstHeard = Double(heardAt) - Double(periodFrames) * 1e9 / format.sampleRate.double
            let lateNs = firstHeard - estimator.predictedMonotonic(ofFrame: firstFrame)
            let lost = Int64((lateNs * format.sampleRate.double / 1e9).rounded())
            if lost > 0, let skipper {
                skipper.skip(lostFrames: Int(lost))
                timelineFrame += lost
                lostFrames.increment(by: Int(lost))
            }
            estimator.reset(frame: timelineFrame, monotonic: heardAt, realtime: wall + (heardAt - now))
        } else {
            estimator.update(frame: timelineFrame, monotonic: heardAt, realtime: wall + (heardAt - now))
        }
        clock.publish(estimator.anchor, settled: estimator.isSettled)
        return true
    }

    /// Records the device's failure and ends the loop; returns `false`.
    private func fail(_ code: Int32) -> Bool {
        failureCode.store(code < 0 ? code : -EIO, ordering: .relaxed)
        return end()
    }
}
