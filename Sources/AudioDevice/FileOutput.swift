import AudioCore
import SystemIO

#if canImport(Glibc)
    import Glibc
#endif

/// Playback into a raw file as fast as the source renders: the live path without a device.
///
/// The render thread runs exactly as for ``ALSAOutput`` (same periods, same conversion) but writes the
/// converted interleaved samples to a headerless file, unpaced. `stop(drain: true)` completes the file
/// atomically (temporary file, fsync, rename); `stop(drain: false)` leaves the destination untouched.
/// Pair it with `start(_:startFrame:frameLimit:)` to render an exact length.
///
/// - Thread safety: `start`/`stop` from one control thread; the rest from any thread.
public final class FileOutput: AudioOutput {
    let core: OutputCore<FileSink>
    /// The destination path.
    public let path: String

    /// An output writing `config`'s rate and channels, as `sampleFormat`, to `path`.
    ///
    /// - Throws: ``EnsoError``: `invalidInput` (a config field out of range), `unavailable` (the
    ///   folder does not exist), `permission`, `failure`.
    public init(path: String, sampleFormat: SampleFormat = .float32, config: OutputConfig = OutputConfig())
        throws(EnsoError)
    {
        try config.validate()
        let sink = try FileSink(path: path)
        sink.bytesPerFrame = config.channels.count * sampleFormat.bytesPerSample
        self.path = path
        let format = StreamFormat(
            sampleRate: config.sampleRate, channels: config.channels, sampleFormat: sampleFormat,
            periodFrames: config.periodFrames, bufferFrames: config.bufferFrames)
        core = OutputCore(sink: sink, format: format, realtimePriority: nil, lockMemory: false, anchorInterval: 1)
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

    /// Why writing stopped (a write error such as a full disk) or the file could not be completed.
    public var failure: EnsoError? {
        if let f = core.failure { return f }
        guard var e = core.sink.finishError else { return nil }
        e.message = "cannot complete '\(path)': \(e.code.map(systemReason) ?? e.message)"
        return e
    }

    public func start(
        _ source: any RenderSource, startFrame: FramePosition, frameLimit: FrameCount?
    ) throws(EnsoError) {
        try core.start(source, startFrame: startFrame, frameLimit: frameLimit)
    }

    /// Stops; with `drain`, completes the file (fsync, rename into place), otherwise removes what was written.
    public func stop(drain: Bool) { core.stop(drain: drain) }
}
