import AudioCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An ``AudioOutput`` whose loop may also be run by hand: what ``PCMOutput`` forwards to.
///
/// - Thread safety: as ``AudioOutput``; ``step()`` from the thread that started a manual core.
protocol OutputControl: AudioOutput {
    /// Runs one period of the loop on the caller's thread (a core without a render thread).
    func step() -> Bool
}

/// What every output shares: the sink, the counters, the clock, and the render loop's life cycle.
///
/// The loop runs on a render thread of its own, or (``threaded`` false: a ``ManualOutput``) one period per
/// ``step()`` on the caller's thread.
///
/// - Thread safety: `start`/`stop` from one control thread (a `Mutex` guards the thread handle on the
///   control side only; the render thread never takes it).
final class OutputCore<Sink: PCMSink>: OutputControl {
    nonisolated(unsafe) let sink: Sink
    let format: StreamFormat
    let clock: AudioClock
    let xruns = RealtimeCounter()
    let lostFrames = RealtimeCounter()
    let statistics = RenderStatistics()
    private let realtimePriority: Int32?
    private let lockMemory: Bool
    private let anchorInterval: Int
    /// Whether `start` spawns a render thread; otherwise the caller runs the loop with ``step()``.
    private let threaded: Bool

    private struct Running {
        var thread: RenderThread?
        var loop: RenderLoop<Sink>
    }
    private let state = Mutex<(running: Running?, warnings: [String], needsPrepare: Bool)>((nil, [], false))

    /// A core playing to `sink`; `clock` reads the time the sink plays by (the system's monotonic clock unless
    /// it is a manual one) and `threaded` false leaves the loop to ``step()``.
    init(
        sink: Sink, format: StreamFormat, realtimePriority: Int32?, lockMemory: Bool, anchorInterval: Int,
        threaded: Bool = true, now: @escaping @Sendable () -> Int64 = AudioClock.monotonicNow
    ) {
        self.sink = sink
        self.format = format
        self.clock = AudioClock(sampleRate: format.sampleRate, now: now)
        self.realtimePriority = realtimePriority
        self.lockMemory = lockMemory
        self.anchorInterval = anchorInterval
        self.threaded = threaded
    }

    var deviceName: String { sink.deviceName }
    var xrunCount: Int { xruns.count }
    var lostFrameCount: Int { lostFrames.count }

    var warnings: [String] { state.withLock { $0.warnings } }

    var isRunning: Bool {
        state.withLock { s in s.running.map { !$0.loop.finished.load(ordering: .acquiring) } ?? false }
    }

    var failure: EnsoError? {
        let code = state.withLock {
            $0.running?.loop.failureCode.load(ordering: .relaxed) ?? lastFailure.load(ordering: .relaxed)
        }
        guard code != 0 else { return nil }
        return Self.lostError(sink.deviceName, code)
    }
    private let lastFailure = Atomic<Int32>(0)

    func start(_ source: any RenderSource, startFrame: FramePosition, frameLimit: FrameCount?) throws(EnsoError) {
        guard source.channelCount == format.channels.count else {
            throw EnsoError(
                .invalidInput,
                "the source renders \(source.channelCount) channel(s) but device '\(sink.deviceName)' plays \(format.channels.count)"
            )
        }
        try state.withLock { (s) throws(EnsoError) in
            if let old = s.running, old.loop.finished.load(ordering: .acquiring) {
                old.thread?.join()
                lastFailure.store(old.loop.failureCode.load(ordering: .relaxed), ordering: .relaxed)
                s.running = nil
            }
            guard s.running == nil else {
                throw EnsoError(.invalidInput, "device '\(sink.deviceName)' is already playing")
            }
            if s.needsPrepare {
                let rc = sink.prepare()
                if rc < 0 { throw Self.lostError(sink.deviceName, rc) }
            }
            s.needsPrepare = true
            var warnings: [String] = []
            // MCL_ONFAULT: lock pages as they are touched instead of faulting in every mapping (all
            // thread stacks and libraries at once, ~350 MiB of RSS for the CLI); the render path's
            // memory is touched before it runs, so it stays resident.
            if lockMemory && mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) != 0 {
                let reason = String(cString: strerror(errno))
                warnings.append(
                    "memory not locked (mlockall: \(reason)); a page fault may delay the render thread (grant 'memlock' in /etc/security/limits.conf, or run as root)"
                )
            }
            lastFailure.store(0, ordering: .relaxed)
            let loop = RenderLoop(
                sink: sink, source: source, format: format, clock: clock, anchorInterval: anchorInterval,
                startFrame: startFrame, frameLimit: frameLimit, xruns: xruns, lostFrames: lostFrames,
                statistics: statistics)
            var thread: RenderThread?
            if threaded {
                let (spawned, warning) = try RenderThread.spawn(priority: realtimePriority) { loop.run() }
                if let warning { warnings.append(warning) }
                thread = spawned
            }
            s.running = Running(thread: thread, loop: loop)
            s.warnings = warnings
        }
    }

    func stop(drain: Bool) {
        state.withLock { s in
            guard let running = s.running else { return }
            running.loop.stopRequested.store(true, ordering: .relaxed)
            running.thread?.join()
            let code = running.loop.failureCode.load(ordering: .relaxed)
            lastFailure.store(code, ordering: .relaxed)
            if code == 0 && drain { sink.drain() } else { sink.drop() }
            s.running = nil
        }
    }

    /// Runs one period of a loop with no thread of its own, on the caller's thread.
    ///
    /// - Returns: `false` when nothing is playing or the loop has ended (its limit, a stop, a failure).
    func step() -> Bool {
        precondition(!threaded, "a render thread runs this output's loop")
        return state.withLock { $0.running?.loop.step() ?? false }
    }

    /// The error for a device that failed while playing.
    static func lostError(_ name: String, _ code: Int32) -> EnsoError {
        let reason = code == -ENODEV || code == -EBADFD ? "the device disappeared" : alsa_strerror(code)
        return EnsoError(
            .unavailable,
            "device '\(name)' stopped playing: \(reason); check the connection or pick another with --device (see 'enso devices')",
            code: code)
    }
}
