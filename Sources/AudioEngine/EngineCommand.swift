import AudioCore

/// A command from the control thread to the render thread (fixed size; carried by an SPSC queue).
enum EngineCommand {
    case pause
    case resume
    case stop(withBell: Bool)
    case setTheme(LoadedAsset?, crossfadeFrames: Int)
    case setVolume(EngineBus, Float, rampFrames: Int)
    case strike(LoadedAsset?)
}
