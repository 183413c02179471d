import AudioCore

/// Live playback to an ALSA device.
///
/// Opening negotiates the stream (see ``OutputConfig``); the engine then runs at ``format``'s rate.
/// The render thread (SCHED_FIFO when permitted) writes one period at a time with `snd_pcm_writei`,
/// recovers xruns with `snd_pcm_recover` (counted in ``xrunCount``), keeps a ``WallClockSource`` on its
/// wall-clock schedule after a stall, and stops with ``failure`` set when the device disappears.
///
///     let output = try ALSAOutput(config: OutputConfig(device: "default"))
///     let engine = makeEngine(rate: output.format.sampleRate)
///     try output.start(engine)
///     ...
///     output.stop(drain: true)
///
/// - Thread safety: `start`/`stop` from one control thread; the rest from any thread.
public final class ALSAOutput: AudioOutput {
    let core: OutputCore<ALSAPCM>

    /// Opens and configures `config.device`.
    ///
    /// - Throws: ``EnsoError``: `unavailable` (no such device), `busy` (another program holds it),
    ///   `permission`, `unsupported` (no acceptable format, rate, channel count or sizes), `invalidInput`
    ///   (a config field out of range). Every message names the device and what to try.
    public init(config: OutputConfig = OutputConfig()) throws(EnsoError) {
        let pcm = try ALSAPCM(config: config)
        core = OutputCore(
            sink: pcm, format: pcm.format, realtimePriority: config.realtimePriority, lockMemory: config.lockMemory,
            anchorInterval: config.anchorInterval)
    }

    deinit { core.stop(drain: false) }

    public var deviceName: String { core.sink.deviceName }
    public var format: StreamFormat { core.format }
    public var clock: AudioClock { core.clock }
    public var xrunCount: Int { core.xruns.count }
    public var lostFrameCount: Int { core.lostFrames.count }
    public var statistics: RenderStatistics { core.statistics }
    public var warnings: [String] { core.warnings }
    public var isRunning: Bool { core.isRunning }
    public var failure: EnsoError? { core.failure }

    public func start(
        _ source: any RenderSource, startFrame: FramePosition, frameLimit: FrameCount?
    ) throws(EnsoError) {
        try core.start(source, startFrame: startFrame, frameLimit: frameLimit)
    }

    public func stop(drain: Bool) { core.stop(drain: drain) }

    /// Test hook: the render thread sleeps `nanoseconds` before its next period, as a descheduled thread would.
    func injectStall(nanoseconds: Int64) { core.injectStall(nanoseconds: nanoseconds) }

    /// Test hook: every write fails with `code` (a negative errno), as when the device disappears.
    func injectWriteError(_ code: Int32) { core.sink.injectedWriteError.store(code, ordering: .relaxed) }
}
