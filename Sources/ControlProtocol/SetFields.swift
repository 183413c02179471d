/// The fields of a `set` request: live changes to a playing session. At least one must be given.
public struct SetFields: Sendable, Equatable {
    /// `theme`: the ambient theme id to crossfade to, or `"none"` for silence.
    public var theme: String?
    /// `crossfade`: seconds of the theme crossfade (0.05…60, default 3).
    public var crossfade: Double?
    /// `ambientVolume`, `bellVolume`, `volume` (master): gains 0…1, ramped without zipper noise.
    public var ambientVolume: Double?
    public var bellVolume: Double?
    public var volume: Double?
    /// `ramp`: seconds the volume changes of this request take (0…60, default 0.05), linear.
    public var ramp: Double?
    /// Fields of the request `set` does not know (sorted): ignored, and listed in the reply so a typo shows.
    public var ignoredFields: [String] = []

    /// Every field `set` reads (besides `id` and `command`).
    public static let knownFields: Set<String> = [
        "theme", "crossfade", "ambientVolume", "bellVolume", "volume", "ramp",
    ]
    /// The range of `ramp`, in seconds.
    public static let rampRange: ClosedRange<Double> = 0...60

    /// The range of every gain.
    public static let volumeRange: ClosedRange<Double> = 0...1
    /// The range of `crossfade`, in seconds.
    public static let crossfadeRange: ClosedRange<Double> = 0.05...60

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
    /// - Throws: `invalid-field` naming the field and its range; `invalid-request` when no field is given.
    public init(_ request: Request) throws(ProtocolError) {
        theme = try request.string("theme")
        crossfade = try request.number("crossfade", in: Self.crossfadeRange, unit: "s")
        ambientVolume = try request.number("ambientVolume", in: Self.volumeRange)
        bellVolume = try request.number("bellVolume", in: Self.volumeRange)
        volume = try request.number("volume", in: Self.volumeRange)
        ramp = try request.number("ramp", in: Self.rampRange, unit: "s")
        ignoredFields = request.fields.keys.filter { $0 != "id" && $0 != "command" && !Self.knownFields.contains($0) }
            .sorted()
        if theme == nil && ambientVolume == nil && bellVolume == nil && volume == nil {
            throw ProtocolError(
                .invalidRequest, "set needs at least one of theme, ambientVolume, bellVolume, volume")
        }
    }
}
