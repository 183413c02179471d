import AudioEngine

/// The fields of a `preview` request: one bell struck once, or one theme played for a few seconds with short
/// fades, without a session (docs/protocol.md, "Preview").
public struct PreviewFields: Sendable, Equatable {
    /// What to play: a bell, or a theme for ``seconds``.
    public enum Sound: Sendable, Equatable {
        /// `bell`: an asset id or a sound file, struck once and left to ring out.
        case bell(String)
        /// `theme`: an asset id or a sound file, looped for `seconds` (fades included).
        case theme(String, seconds: Double)
    }

    public var sound: Sound
    /// `volume`: the gain 0…1 (default: the plan's default for the kind, `bellVolume` 1 or `ambientVolume` 0.6).
    public var volume: Double?

    /// The range of `seconds`.
    public static let secondsRange: ClosedRange<Double> = 1...600
    /// How long a theme plays when `seconds` is not given.
    public static let defaultSeconds = 10.0

    public init(sound: Sound, volume: Double? = nil) {
        self.sound = sound
        self.volume = volume
    }

    /// Reads and range-checks the fields of `request`.
    ///
    /// - Throws: `invalid-request` without `bell` or `theme`, or with both; `invalid-field` naming a field of the
    ///   wrong type, out of range or an empty asset name, or `seconds` given with a bell (it rings out).
    public init(_ request: Request) throws(ProtocolError) {
        let bell = try request.assetName("bell")
        let theme = try request.assetName("theme")
        let seconds = try request.number("seconds", in: Self.secondsRange, unit: "s")
        volume = try request.number("volume", in: SessionPlan.volumeRange)
        switch (bell, theme) {
        case (let b?, nil):
            if seconds != nil { throw .invalidField("seconds", "applies to a theme; a bell rings out") }
            sound = .bell(b)
        case (nil, let t?):
            sound = .theme(t, seconds: seconds ?? Self.defaultSeconds)
        case (nil, nil):
            throw ProtocolError(.invalidRequest, "preview needs a bell or a theme")
        case (.some, .some):
            throw ProtocolError(.invalidRequest, "preview plays a bell or a theme, not both")
        }
    }
}
