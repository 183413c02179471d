import AudioCore

/// A theme change the render thread holds until the session clock reaches ``frame``
/// (``SessionEngine/setTheme(_:atSessionFrame:crossfadeFrames:)``).
///
/// - Thread safety: render thread only.
/// - Real-time safe: yes (a value holding a reference; copying it retains, never allocates).
struct TimedTheme {
    var frame: FramePosition
    var asset: LoadedAsset?
    var crossfadeFrames: Int
}
