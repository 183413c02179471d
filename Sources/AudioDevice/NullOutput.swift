import AudioCore

/// Playback to nowhere, paced by the real-time clock: sessions run on machines with no sound device.
///
/// Behaves like a device with a buffer of ``OutputConfig/bufferFrames``: the render thread renders
/// one period at a time at exactly the stream's rate, bells happen at their wall-clock times, a stall
/// longer than the buffer is an xrun (recovered, counted, skipped as on ALSA), and the clock estimate
/// is exact. Only the rate, channels and sizes of the config are used; the format is `float32`.
/// ``ManualOutput`` is the same device on a clock moved by hand.
///
/// - Thread safety: `start`/`stop` from one control thread; the rest from any thread.
public final class NullOutput: PCMOutput, @unchecked Sendable {
    /// A paced null output with `config`'s rate, channels, period and buffer.
    ///
    /// - Throws: ``EnsoError`` of kind `invalidInput` when a config field is out of range.
    public init(config: OutputConfig = OutputConfig()) throws(EnsoError) {
        let format = try config.unnegotiatedFormat(.float32)
        let sink = NullSink(
            name: "null (paced)", rate: format.sampleRate.hertz, bufferFrames: format.bufferFrames,
            clock: SystemClock())
        super.init(
            core: OutputCore(
                sink: sink, format: format, realtimePriority: config.realtimePriority, lockMemory: config.lockMemory,
                anchorInterval: config.anchorInterval))
    }
}
