import AudioCore

/// A weak reference to a stream an engine opened.
struct WeakStream {
    weak var stream: AmbientStream?
}

extension SessionEngine {
    /// What a voice plays of `asset`: the asset itself, or a new play of a streamed one (``LoadedAsset/opened()``),
    /// remembered for ``pullStreams()``.
    ///
    /// - Thread safety: the one control thread.  - Real-time safe: no (a stream opens its file).
    func open(_ asset: LoadedAsset) -> LoadedAsset {
        let played = asset.opened()
        if let s = played.stream {
            openedStreams.removeAll { $0.stream == nil }
            openedStreams.append(WeakStream(stream: s))
        }
        return played
    }

    /// Fills every stream this engine opened that still plays, on the calling thread, until its ring is full.
    ///
    /// ``OfflineRenderer`` calls it before each block, so an offline render never depends on a loader thread's
    /// timing: every block finds each ring full, and the render equals that of the same session with its themes
    /// loaded whole, bit for bit. A live output never waits: a loader thread keeps the rings filled.
    ///
    /// - Thread safety: the one control thread.  - Real-time safe: no (decodes).
    public func pullStreams() {
        for entry in openedStreams { entry.stream?.fill() }
    }

    /// The streams this engine opened that are still alive (for tests and diagnostics).
    ///
    /// - Thread safety: the one control thread.
    public var liveStreams: [AmbientStream] { openedStreams.compactMap(\.stream) }
}
