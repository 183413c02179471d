import AssetPipeline
import Foundation

/// What the bundled pack holds: ids, names and the model that synthesises each asset.
struct PackCatalog {
    struct Item: Sendable {
        var id: String
        var displayName: String
        var kind: AssetPack.Kind
        /// Renders the raw (unprocessed) asset: stereo planar channels at `sampleRate`.
        var render: @Sendable (_ seed: UInt64, _ seconds: Double, _ sampleRate: Double) -> [[Float]]

        /// The rate the asset is made and stored at: 48 kHz for bells (their attack is broadband);
        /// 32 kHz for soundscapes, whose synthesised spectra end below 12 kHz, so nothing is lost and the
        /// lossless pack stays under its 12 MB budget.
        var sampleRate: Double { kind == .bell ? 48_000 : 32_000 }

        /// The folder inside the pack (`bells` or `soundscapes`).
        var folder: String { kind == .bell ? "bells" : "soundscapes" }
    }

    /// The default seed; the pack in the repository was made with it.
    static let defaultSeed: UInt64 = 2024
    /// Seconds of raw soundscape material: the loop length plus room for the seam crossfade.
    static let rawSoundscapeSeconds = 34.0
    /// The loop length the pipeline looks for in each soundscape, in seconds.
    static let loopSeconds = 30.0
    /// The seam crossfade `enso loops bake` uses: long enough that no grain is cut in half audibly.
    static let seamCrossfadeSeconds = 2.0

    static let items: [Item] = [
        Item(id: "singing-bowl", displayName: "Singing Bowl", kind: .bell) { seed, _, sr in
            BellCatalog.singingBowl.render(sampleRate: sr, rng: SynthRandom(seed: seed, salt: "singing-bowl"))
        },
        Item(id: "temple-bell", displayName: "Temple Bell", kind: .bell) { seed, _, sr in
            BellCatalog.templeBell.render(sampleRate: sr, rng: SynthRandom(seed: seed, salt: "temple-bell"))
        },
        Item(id: "soft-chime", displayName: "Soft Chime", kind: .bell) { seed, _, sr in
            BellCatalog.softChime.render(sampleRate: sr, rng: SynthRandom(seed: seed, salt: "soft-chime"))
        },
        Item(id: "rain", displayName: "Rain", kind: .soundscape) { seed, s, sr in
            RainTexture.render(seconds: s, sampleRate: sr, seed: seed)
        },
        Item(id: "hearth", displayName: "Hearth", kind: .soundscape) { seed, s, sr in
            HearthTexture.render(seconds: s, sampleRate: sr, seed: seed)
        },
        Item(id: "forest", displayName: "Forest", kind: .soundscape) { seed, s, sr in
            ForestTexture.render(seconds: s, sampleRate: sr, seed: seed)
        },
        Item(id: "stream", displayName: "Stream", kind: .soundscape) { seed, s, sr in
            StreamTexture.render(seconds: s, sampleRate: sr, seed: seed)
        },
    ]
}
