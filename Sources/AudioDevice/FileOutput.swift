import AudioCore
import SystemIO

/// Playback into a raw file as fast as the source renders: the live path without a device.
///
/// The render thread runs exactly as for ``ALSAOutput`` (same periods, same conversion) but writes the
/// converted interleaved samples to a headerless file, unpaced. `stop(drain: true)` completes the file
/// atomically (temporary file, fsync, rename); `stop(drain: false)` leaves the destination untouched.
/// Pair it with `start(_:startFrame:frameLimit:)` to render an exact length.
///
/// - Thread safety: `start`/`stop` from one control thread; the rest from any thread.
public final class FileOutput: PCMOutput, @unchecked Sendable {
    private let sink: FileSink
    /// The destination path.
    public let path: String

    /// An output writing `config`'s rate and channels, as `sampleFormat`, to `path`.
    ///
    /// - Throws: ``EnsoError``: `invalidInput` (a config field out of range), `unavailable` (the
    ///   folder does not exist), `permission`, `failure`.
    public init(path: String, sampleFormat: SampleFormat = .float32, config: OutputConfig = OutputConfig())
        throws(EnsoError)
    {
        let format = try config.unnegotiatedFormat(sampleFormat)
        sink = try FileSink(path: path, bytesPerFrame: format.channels.count * sampleFormat.bytesPerSample)
        self.path = path
        super.init(
            core: OutputCore(sink: sink, format: format, realtimePriority: nil, lockMemory: false, anchorInterval: 1))
    }

    /// Why writing stopped (a write error such as a full disk) or the file could not be completed.
    public override var failure: EnsoError? {
        if let f = super.failure { return f }
        guard var e = sink.finishError else { return nil }
        e.message = "cannot complete '\(path)': \(e.code.map(systemReason) ?? e.message)"
        return e
    }
}
