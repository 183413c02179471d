import AudioCore
import AudioEngine
import ControlProtocol

extension SessionController {
    /// The rate a `start` now would load its assets at: the last session's output rate (an output may negotiate
    /// another rate than the one asked for), else ``preferredRate``.
    var startLoadRate: SampleRate { lastSessionRate ?? preferredRate }

    /// `prefetch`: loads each bell and theme as `start` would (at ``startLoadRate``, themes seam-fixed as asked) into
    /// the shared cache. The server's scheduler has its worker decode them first (``preloads(for:startRate:)``), so
    /// this finds them prepared and returns at once; the `start` that follows then decodes nothing.
    ///
    /// - Throws: the first asset's `ProtocolError` that cannot be loaded (`unavailable`, `invalid-field`, …), naming
    ///   its field (`bells[1]`); the ones before it stay cached.
    func prefetchAssets(_ fields: PrefetchFields) throws(ProtocolError) -> PrefetchReply {
        let rate = startLoadRate
        var loaded: [PrefetchReply.Asset] = []
        var loadWarnings: [String] = []
        for (i, bell) in fields.bells.enumerated() {
            let a = try assets.load(bell, kind: .bell, rate: rate, field: "bells[\(i)]")
            loaded.append(.init(asset: bell, kind: "bell", seconds: rate.seconds(frames: FrameCount(a.frameCount))))
        }
        for (i, theme) in fields.themes.enumerated() where !AssetName.isSilence(theme) {
            let a = try assets.load(
                theme, kind: .soundscape, rate: rate, field: "themes[\(i)]", seamFix: fields.seamFix,
                warn: { loadWarnings.append($0) })
            loaded.append(.init(asset: theme, kind: "theme", seconds: rate.seconds(frames: FrameCount(a.frameCount))))
        }
        return PrefetchReply(
            prefetched: loaded, sampleRate: rate.hertz, cachedBytes: assets.cachedBytes,
            cacheLimitBytes: assets.maxCachedBytes, warnings: loadWarnings.isEmpty ? nil : loadWarnings)
    }
}
