import AudioCore

/// What to ask of an output device: which device, rate, channels, formats and buffering.
///
/// The defaults suit a timer: robustness over latency. Strikes are scheduled ahead in the stream, so
/// the buffer size never moves a bell; only live commands (pause, volume) feel it. 2048/8192 frames is
/// about 43/171 ms at 48 kHz, which gave 0 xruns on a loaded 2-core machine where 10 ms periods gave
/// several per second. New fields get defaults, so callers never break.
public struct OutputConfig: Sendable, Equatable {
    /// The ALSA device name (`default`, `pulse`, `hw:0,0`, `plughw:1`, `file:FILE=out.raw,FORMAT=raw`…);
    /// `enso devices` lists them.
    public var device: String = "default"
    /// The rate to ask for; the device may give another (see ``StreamFormat/sampleRate``), and the
    /// engine then runs at the device's rate.
    public var sampleRate: SampleRate = .hz48000
    /// The channel count to ask for.
    public var channels: ChannelCount = .stereo
    /// The formats to try, best first; the first the device accepts is used.
    public var formats: [SampleFormat] = SampleFormat.preference
    /// Frames per period (a power of two); the render thread renders and writes one period at a time.
    public var periodFrames: Int = 2048
    /// Frames in the device buffer (a power of two, at least two periods).
    public var bufferFrames: Int = 8192
    /// The SCHED_FIFO priority of the render thread (1...99), or `nil` for the normal scheduler.
    /// Without permission the thread runs normally and ``AudioOutput/warnings`` says so once.
    public var realtimePriority: Int32? = 70
    /// Whether to lock the process's memory (`mlockall`, pages locked as they are touched) when the stream
    /// starts, so the render path never waits for a page fault. Without permission the stream runs unlocked and a warning says so.
    public var lockMemory: Bool = true
    /// How often the render thread re-anchors its clock estimate to the device, in periods (drift correction
    /// is continuous; this bounds how stale the published anchor can be).
    public var anchorInterval: Int = 1

    /// The defaults: device `default`, 48 kHz stereo, best format, 2048/8192 frames, SCHED_FIFO 70, locked memory.
    public init() {}

    /// A configuration for `device` with every other field at its default.
    public init(device: String) { self.device = device }

    /// Checks the fields that do not depend on the device.
    ///
    /// - Throws: ``EnsoError`` of kind `invalidInput` naming the field.
    public func validate() throws(EnsoError) {
        func isPowerOfTwo(_ n: Int) -> Bool { n > 0 && n & (n - 1) == 0 }
        guard isPowerOfTwo(periodFrames), (16...65_536).contains(periodFrames) else {
            throw EnsoError(
                .invalidInput, "period \(periodFrames) frames: must be a power of two within 16...65536")
        }
        guard isPowerOfTwo(bufferFrames), bufferFrames >= 2 * periodFrames, bufferFrames <= 1 << 20 else {
            throw EnsoError(
                .invalidInput,
                "buffer \(bufferFrames) frames: must be a power of two, at least two periods (\(2 * periodFrames)) and at most 1048576"
            )
        }
        guard !formats.isEmpty else { throw EnsoError(.invalidInput, "no sample format to try") }
        if let p = realtimePriority, !(1...99).contains(p) {
            throw EnsoError(.invalidInput, "real-time priority \(p): must be within 1...99")
        }
        guard anchorInterval >= 1 else {
            throw EnsoError(.invalidInput, "anchor interval \(anchorInterval): must be at least 1 period")
        }
    }
}

/// What a device actually gave: the stream the render thread writes.
public struct StreamFormat: Sendable, Equatable, CustomStringConvertible {
    /// The negotiated rate; render sources must run at this rate.
    public var sampleRate: SampleRate
    /// The negotiated channel count.
    public var channels: ChannelCount
    /// The negotiated sample format.
    public var sampleFormat: SampleFormat
    /// Frames per period.
    public var periodFrames: Int
    /// Frames in the device buffer.
    public var bufferFrames: Int

    public var description: String {
        "\(sampleRate.hertz) Hz, \(channels), \(sampleFormat), period \(periodFrames), buffer \(bufferFrames) frames"
    }
}
