import AudioCore

/// A command from the control thread to the render thread (fixed size; carried by an SPSC queue).
enum EngineCommand {
    case pause
    case resume
    case stop(withBell: Bool)
    case setTheme(LoadedAsset?, crossfadeFrames: Int)
    /// A theme change held by the render thread until the session clock reaches `sessionFrame`.
    case setThemeAt(LoadedAsset?, sessionFrame: FramePosition, crossfadeFrames: Int)
    case setVolume(EngineBus, Float, rampFrames: Int)
    case strike(LoadedAsset?)
}
