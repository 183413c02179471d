// The messages of a preview (docs/protocol.md, "Preview"): the reply to `preview`, the reply to the `stop` that
// ends one, and the event when it has ended.

/// The reply to `preview`: what plays and until when.
public struct PreviewReply: Codable, Sendable, Equatable {
    public var previewId: String
    /// `bell` or `theme`.
    public var kind: String
    /// The asset id or file, as asked for.
    public var asset: String
    /// How long it sounds: the bell until it has decayed below -60 dB, the theme's `seconds`.
    public var seconds: Double
    public var startsAt: String
    /// When its last frame is heard.
    public var endsAt: String
    /// What the load changed or noticed, as in `start`'s reply (a theme whose seam is fixed in memory); absent when
    /// none.
    public var warnings: [String]?

    public init(
        previewId: String, kind: String, asset: String, seconds: Double, startsAt: String, endsAt: String,
        warnings: [String]? = nil
    ) {
        self.previewId = previewId
        self.kind = kind
        self.asset = asset
        self.seconds = seconds
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.warnings = warnings
    }
}

/// The reply to `stop`: the session it stops, or the preview it ends (one of the two).
public struct StopReply: Codable, Sendable, Equatable {
    public var sessionId: String?
    public var previewId: String?

    public init(sessionId: String) { self.sessionId = sessionId }
    public init(previewId: String) { self.previewId = previewId }
}

/// `preview.ended`: a preview fell silent.
public struct PreviewEnded: Codable, Sendable, Equatable {
    public var previewId: String
    /// `finished` (played out), `stopped` (`stop`), `replaced` (by another `preview` or a `start`), `failed` (the
    /// output failed: see `error`).
    public var reason: String
    /// When it ended.
    public var at: String
    /// Why the output failed (`failed` only).
    public var error: ProtocolError?

    public init(previewId: String, reason: String, at: String, error: ProtocolError? = nil) {
        self.previewId = previewId
        self.reason = reason
        self.at = at
        self.error = error
    }
}
