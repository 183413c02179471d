import AudioCore

/// An output that writes periods to a sink through a render loop: what ``ALSAOutput``, ``NullOutput``,
/// ``FileOutput`` and ``ManualOutput`` have in common, written once.
///
/// Each subclass opens its sink and negotiates the ``format``; everything from there on (the render loop, xrun
/// recovery, the clock, the counters, start and stop) is the same code for all of them.
///
/// - Thread safety: `start`/`stop` from one control thread; the rest from any thread.
public class PCMOutput: AudioOutput, @unchecked Sendable {
    let core: any OutputControl

    init(core: any OutputControl) {
        self.core = core
    }

    deinit { core.stop(drain: false) }

    public var deviceName: String { core.deviceName }
    public var format: StreamFormat { core.format }
    public var clock: AudioClock { core.clock }
    public var xrunCount: Int { core.xrunCount }
    public var lostFrameCount: Int { core.lostFrameCount }
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
}

extension OutputConfig {
    /// The stream an output without negotiation plays (the null, file and manual outputs): the config's rate,
    /// channels and sizes, as `sampleFormat`.
    ///
    /// - Throws: ``EnsoError`` of kind `invalidInput` when a config field is out of range.
    func unnegotiatedFormat(_ sampleFormat: SampleFormat) throws(EnsoError) -> StreamFormat {
        try validate()
        return StreamFormat(
            sampleRate: sampleRate, channels: channels, sampleFormat: sampleFormat, periodFrames: periodFrames,
            bufferFrames: bufferFrames)
    }
}
