/// Something that fills interleaved audio buffers on demand: the engine, a test tone.
///
/// A device output (ALSA, paced null, file) pulls from a `RenderSource` on its render thread. The
/// device layer knows only this protocol, so `AudioDevice` never imports `AudioEngine` and the engine
/// never imports a device.
///
/// - Thread safety: `render` is called from one thread at a time (the device's render thread).
/// - Real-time safe: `render` must be (no allocation, no lock, no I/O).
public protocol RenderSource: AnyObject {
    /// The number of interleaved channels `render` writes.
    var channelCount: Int { get }

    /// Writes exactly `frames` interleaved frames (`frames * channelCount` samples) into `buffer`.
    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int)
}
