/// The audio a ``SessionEngine`` starts with: the plan's bell and, optionally, its ambient theme.
///
/// Both must be at the engine's rate. Other bells and themes can be handed over later with
/// ``SessionEngine/strike(_:)`` and ``SessionEngine/setTheme(_:crossfadeFrames:)``.
///
/// - Thread safety: value type holding immutable assets; any thread.
public struct EngineAssets: Sendable {
    /// The bell struck by the timeline.
    public var bell: LoadedAsset
    /// The ambient theme that fades in at the start, or `nil` for none.
    public var ambient: LoadedAsset?
    /// The bell of the interval bells, or `nil` for ``bell``.
    public var interval: LoadedAsset?

    public init(bell: LoadedAsset, ambient: LoadedAsset? = nil, interval: LoadedAsset? = nil) {
        self.bell = bell
        self.ambient = ambient
        self.interval = interval
    }
}
