import AudioCore

/// Where ``LoopPlaybackReader`` reads a file's frames: the file itself (``SoundFileReader``), or a view of it that
/// changes some of them (a streamed theme's seam fix, which replaces the frames of its crossfade, AssetLoading).
///
/// - Thread safety: one thread at a time.
/// - Real-time safe: no (file I/O).
public protocol PlaybackFrameSource: AnyObject {
    /// The path named in errors.
    var path: String { get }
    /// The frames as read: their rate, channel count and number (`loops` and `cues` are not read).
    var info: AudioFileInfo { get }
    /// Moves the read position to `frame` (0 ..< `info.frames`).
    ///
    /// - Throws: `EnsoError` naming the file when it cannot seek.
    func seek(toFrame frame: FramePosition) throws(EnsoError)
    /// Reads up to `maxFrames` interleaved frames of `info.channels` channels into `buffer`.
    ///
    /// - Returns: the frames read; 0 at the end.
    /// - Throws: `EnsoError` naming the file when reading fails.
    func readFrames(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(EnsoError) -> Int
}

extension SoundFileReader: PlaybackFrameSource {}
