/// A loop in frames: frames `start ..< end` repeat (`start` inclusive, `end` exclusive, so `end - start` is the
/// loop length and `end` is the first frame after the loop).
///
/// One type for the loop wherever it travels: read from and written to a file's `smpl` chunk or AIFF instrument
/// loops (`AudioFile`), found, verified, baked and kept in sidecars and pack manifests (`AssetPipeline`), and played
/// by the engine's ambient voice (`AudioEngine.LoadedAsset`). Its JSON form is `{"start": …, "end": …}`.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: yes.
public struct LoopRegion: Hashable, Sendable, Codable {
    /// The first frame of the loop (inclusive).
    public var start: FramePosition
    /// The frame after the last frame of the loop (exclusive).
    public var end: FramePosition

    public init(start: FramePosition, end: FramePosition) {
        self.start = start
        self.end = end
    }

    /// The loop length in frames.
    public var length: FrameCount { end - start }

    /// The region scaled to a new rate (`ratio` = new rate / old rate), each end rounded to the nearest frame.
    public func scaled(by ratio: Double) -> LoopRegion {
        LoopRegion(
            start: FramePosition((Double(start) * ratio).rounded()),
            end: FramePosition((Double(end) * ratio).rounded()))
    }
}
