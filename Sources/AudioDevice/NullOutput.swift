import AudioCore

/// Playback to nowhere, paced by the real-time clock: sessions run on machines with no sound device.
///
/// Behaves like a device with a buffer of ``OutputConfig/bufferFrames``: the render thread renders
/// one period at a time at exactly the stream's rate, bells happen at their wall-clock times, a stall
/// longer than the buffer is an xrun (recovered, counted, skipped as on ALSA), and the clock estimate
/// is exact. Only the rate, channels and sizes of the config are used; the format is `float32`.
///
/// - Thread safety: `start`/`stop` from one control thread; the rest from any thread.
public final class NullOutput: AudioOutput {
    let core: OutputCore<NullSink>

    /// A paced null output with `config`'s rate, channels, period and buffer.
    ///
    /// - Throws: ``EnsoError`` of kind `invalidInput` when a config field is out of range.
    public init(config: OutputConfig = OutputConfig()) throws(EnsoError) {
        try config.validate()
        let format = StreamFormat(
            sampleRate: config.sampleRate, channels: config.channels, sampleFormat: .float32,
            periodFrames: config.periodFrames, bufferFrames: config.bufferFrames)
        core = OutputCore(
            sink: NullSink(rate: config.sampleRate.hertz, bufferFrames: config.bufferFrames), format: format,
            realtimePriority: config.realtimePriority, lockMemory: config.lockMemory,
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
}
