import AudioCore

/// A place a render source plays to: an ALSA device (``ALSAOutput``), the paced null device
/// (``NullOutput``), a raw file (``FileOutput``) or the null device on a clock moved by hand (``ManualOutput``).
///
/// Open the output first, read the negotiated ``format``, build the source at that rate and channel
/// count, then ``start(_:)``. A dedicated render thread (for ``ManualOutput``, the caller's `step()`) pulls periods
/// from the source until ``stop(drain:)`` or until the device fails (then ``failure`` says why, naming the device).
///
/// - Thread safety: `start`, `stop` from one control thread; the rest from any thread.
public protocol AudioOutput: AnyObject, Sendable {
    /// The device's name, for messages.
    var deviceName: String { get }
    /// The negotiated stream.
    var format: StreamFormat { get }
    /// When timeline frames are heard.
    var clock: AudioClock { get }
    /// Xruns (underruns) recovered since the output was opened.
    var xrunCount: Int { get }
    /// Frames of wall time skipped after stalls (reported to a ``WallClockSource``).
    var lostFrameCount: Int { get }
    /// Render time per period.
    var statistics: RenderStatistics { get }
    /// Warnings from the last `start` (no real-time priority, memory not locked): show each once.
    var warnings: [String] { get }
    /// Whether the render thread is running.
    var isRunning: Bool { get }
    /// Why the render thread ended on its own (the device disappeared or failed), or `nil`.
    var failure: EnsoError? { get }

    /// Starts the render thread pulling from `source`, whose timeline begins at `startFrame`.
    ///
    /// With a `frameLimit`, the render thread ends on its own after writing that many frames
    /// (``isRunning`` turns false; call ``stop(drain:)`` with `drain: true` to play them out).
    ///
    /// - Throws: ``EnsoError``: `invalidInput` when the source's channel count differs from the
    ///   stream's or the output is already running; `failure` when no thread could be created.
    func start(_ source: any RenderSource, startFrame: FramePosition, frameLimit: FrameCount?) throws(EnsoError)

    /// Stops the render thread after its current period and waits for it; with `drain`, plays out what
    /// was written before returning, otherwise discards it. Does nothing when not running.
    func stop(drain: Bool)
}

extension AudioOutput {
    /// Starts the render thread pulling from `source`, whose timeline begins at frame 0.
    public func start(_ source: any RenderSource) throws(EnsoError) {
        try start(source, startFrame: 0, frameLimit: nil)
    }
}
