// The messages of `prefetch` (docs/protocol.md, "Loading"): the request's fields and the reply.

/// The fields of a `prefetch` request: bells and themes (ids or files) to load into the shared asset cache now, so
/// the `start` that follows finds them decoded and resampled and replies at once.
public struct PrefetchFields: Sendable, Equatable {
    /// `bells`: asset ids or sound files.
    public var bells: [String]
    /// `themes`: asset ids or sound files (`"none"` is no theme and is skipped; an empty name is refused).
    public var themes: [String]
    /// `seamFix`: load the themes as a `start` with this `seamFix` would (default true), so its start finds them.
    public var seamFix: Bool

    /// The most assets one request names: a settings screen's bells and themes, a few dozen; a larger list would hold
    /// the loading worker (and every other client's loads behind it) for minutes.
    public static let maximumAssets = 32

    public init(bells: [String] = [], themes: [String] = [], seamFix: Bool = true) {
        self.bells = bells
        self.themes = themes
        self.seamFix = seamFix
    }

    /// Reads the fields of `request`.
    ///
    /// - Throws: `invalid-request` when it names no bell and no theme; `invalid-field` naming a field of the wrong
    ///   type, an empty name (`themes[0]`), or `bells` and `themes` together naming more than ``maximumAssets``.
    public init(_ request: Request) throws(ProtocolError) {
        bells = try request.strings("bells") ?? []
        themes = try request.strings("themes") ?? []
        for (i, bell) in bells.enumerated() {
            _ = try Request.assetName(bell, field: "bells[\(i)]", silenceAllowed: false)
        }
        for (i, theme) in themes.enumerated() {
            _ = try Request.assetName(theme, field: "themes[\(i)]", silenceAllowed: true)
        }
        seamFix = try request.bool("seamFix") ?? true
        guard !bells.isEmpty || !themes.isEmpty else {
            throw ProtocolError(.invalidRequest, "prefetch needs bells or themes (arrays of ids or files)")
        }
        guard bells.count + themes.count <= Self.maximumAssets else {
            throw .invalidField(
                bells.count > themes.count ? "bells" : "themes",
                "names \(bells.count + themes.count) assets in all; at most \(Self.maximumAssets) per request")
        }
    }
}

/// The reply to `prefetch`: what is now in the cache, and the cache's size.
public struct PrefetchReply: Codable, Sendable, Equatable {
    /// One asset loaded (or found in the cache already).
    public struct Asset: Codable, Sendable, Equatable {
        /// The id or file, as asked for.
        public var asset: String
        /// `bell` or `theme`.
        public var kind: String
        /// Its length at the rate it was loaded at, seconds.
        public var seconds: Double

        public init(asset: String, kind: String, seconds: Double) {
            self.asset = asset
            self.kind = kind
            self.seconds = seconds
        }
    }

    /// Every asset asked for, bells first, in the order given.
    public var prefetched: [Asset]
    /// The rate they were loaded at: the rate a `start` now would play at.
    public var sampleRate: Int
    /// The bytes of samples the cache holds now, and its bound (as in `assets`).
    public var cachedBytes: Int
    public var cacheLimitBytes: Int
    /// What the loads noticed (a theme seam-fixed in memory), as `start` says it; absent when none.
    public var warnings: [String]?

    public init(
        prefetched: [Asset], sampleRate: Int, cachedBytes: Int, cacheLimitBytes: Int, warnings: [String]? = nil
    ) {
        self.prefetched = prefetched
        self.sampleRate = sampleRate
        self.cachedBytes = cachedBytes
        self.cacheLimitBytes = cacheLimitBytes
        self.warnings = warnings
    }
}
