/// A render source that keeps its schedule on the wall clock when the device loses time.
///
/// A live device can stall: the render thread is descheduled, the machine is busy, the sound server
/// hiccups. When the device's buffer runs dry (an xrun), the device plays silence that was never
/// rendered, and everything rendered afterwards is heard later than planned. A meditation timer must
/// not let that delay pile up: a bell due at 10:20:00 rings at 10:20:00 even if the stream stalled at
/// 10:05.
///
/// The device measures how much wall time was lost (how much later the first frame after the stall is
/// heard than the frames before it promised) and tells the source through ``skip(lostFrames:)``
/// before it renders the next block. The contract for the source:
///
/// - Advance the timeline by `lostFrames` frames without producing output, as if that many frames had
///   been rendered and played. Continuous material (ambient loops, fades) advances its position by the
///   same amount, so it stays in phase with the clock.
/// - An event whose frame falls inside the skipped range (due during the stall) is **not dropped**: it
///   fires at the first frame of the next `render` call, late by the stall and never early.
/// - Events after the skipped range keep their frames, so they stay on their wall-clock times.
/// - Timeline positions the source reports (status, events) stay in the skipped timeline: after a skip
///   of `n`, the next rendered frame is timeline frame `previous + n`.
///
/// A device calls `skip` only between `render` calls, on the render thread, and only with
/// `lostFrames > 0`. A source that does not adopt this protocol simply plays on late by the stall.
///
/// - Thread safety: called on the render thread, never concurrently with `render`.
/// - Real-time safe: `skip` must be (no allocation, no lock, no I/O).
public protocol WallClockSource: RenderSource {
    /// Advances the timeline by `lostFrames` frames of wall time the device lost; events due inside them
    /// fire at the start of the next `render`.
    ///
    /// - Parameter lostFrames: The number of frames (at the source's rate) of wall time lost, > 0.
    func skip(lostFrames: Int)
}
