import AudioEngine

/// The fields of a `set` request: live changes to a playing session. At least one must be given.
///
/// The ranges and defaults are the engine's table's (`SessionPlan.themeCrossfade`, `SessionPlan.volumeRamp`,
/// `SessionPlan.volumeRange`), which the CLI's `--theme-crossfade` reads too.
public struct SetFields: Sendable, Equatable {
    /// `theme`: the ambient theme id or file to crossfade to, or `"none"` for silence (``AudioEngine/AssetName``; an
    /// empty one is refused).
    public var theme: String?
    /// `crossfade`: seconds of the theme crossfade.
    public var crossfade: Double?
    /// `ambientVolume`, `bellVolume`, `volume` (master): gains, ramped without zipper noise.
    public var ambientVolume: Double?
    public var bellVolume: Double?
    public var volume: Double?
    /// `ramp`: seconds the volume changes of this request take, linear.
    public var ramp: Double?
    /// Fields of the request `set` does not know (sorted): ignored, and listed in the reply so a typo shows.
    public var ignoredFields: [String] = []

    /// Every field `set` reads (besides `id` and `command`).
    public static let knownFields: Set<String> = [
        "theme", crossfadeSetting.key, "ambientVolume", "bellVolume", "volume", rampSetting.key,
    ]
    /// `crossfade`: its range and default.
    static let crossfadeSetting = SessionPlan.themeCrossfade
    /// `ramp`: its range and default.
    static let rampSetting = SessionPlan.volumeRamp

    public init(
        theme: String? = nil, crossfade: Double? = nil, ambientVolume: Double? = nil, bellVolume: Double? = nil,
        volume: Double? = nil, ramp: Double? = nil
    ) {
        self.theme = theme
        self.crossfade = crossfade
        self.ambientVolume = ambientVolume
        self.bellVolume = bellVolume
        self.volume = volume
        self.ramp = ramp
    }

    /// Reads and range-checks the fields of `request`.
    ///
    /// - Throws: `invalid-field` naming the field and its range, or an empty `theme`; `invalid-request` when no field
    ///   is given.
    public init(_ request: Request) throws(ProtocolError) {
        theme = try request.assetName("theme", silenceAllowed: true)
        crossfade = try request.number(Self.crossfadeSetting.key, in: Self.crossfadeSetting.range, unit: "s")
        ambientVolume = try request.number("ambientVolume", in: SessionPlan.volumeRange)
        bellVolume = try request.number("bellVolume", in: SessionPlan.volumeRange)
        volume = try request.number("volume", in: SessionPlan.volumeRange)
        ramp = try request.number(Self.rampSetting.key, in: Self.rampSetting.range, unit: "s")
        ignoredFields = request.fields.keys.filter { $0 != "id" && $0 != "command" && !Self.knownFields.contains($0) }
            .sorted()
        if theme == nil && ambientVolume == nil && bellVolume == nil && volume == nil {
            throw ProtocolError(
                .invalidRequest, "set needs at least one of theme, ambientVolume, bellVolume, volume")
        }
    }
}
