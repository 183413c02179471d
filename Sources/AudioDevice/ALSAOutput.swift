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
public final class ALSAOutput: PCMOutput, @unchecked Sendable {
    /// Opens and configures `config.device`.
    ///
    /// - Throws: ``EnsoError``: `unavailable` (no such device), `busy` (another program holds it),
    ///   `permission`, `unsupported` (no acceptable format, rate, channel count or sizes), `invalidInput`
    ///   (a config field out of range). Every message names the device and what to try.
    public init(config: OutputConfig = OutputConfig()) throws(EnsoError) {
        let pcm = try ALSAPCM(config: config)
        super.init(
            core: OutputCore(
                sink: pcm, format: pcm.format, realtimePriority: config.realtimePriority,
                lockMemory: config.lockMemory, anchorInterval: config.anchorInterval))
    }
}
