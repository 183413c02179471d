import AudioCore

/// A loop inside an asset: frames `start ..< end` repeat (start inclusive, end exclusive), as
/// `AudioFile.LoopRegion` stores them. The engine keeps its own type because it does not import AudioFile.
///
/// - Thread safety: value type, any thread.
public struct LoopPoints: Sendable, Hashable {
    /// First frame of the loop (inclusive).
    public var start: FramePosition
    /// Frame after the loop's last frame (exclusive).
    public var end: FramePosition

    public init(start: FramePosition, end: FramePosition) {
        self.start = start
        self.end = end
    }

    /// The loop length in frames.
    public var length: FrameCount { end - start }
}
