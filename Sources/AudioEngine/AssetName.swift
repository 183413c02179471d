/// The one reading of a name a front end gives for a sound: a pack id or a sound file, and, where a theme is named,
/// the word `none` for silence.
///
/// Every place a bell or a theme is named reads it here: the plan's `bell`, `intervalBell` and `ambient`, each
/// `themeAt` change, `set`'s `theme`, `preview`, `strike` and `prefetch` in the protocol; `--bell`,
/// `--interval-bell`, `--ambient` and `--theme-at` on the command line. An empty name names nothing, so it is
/// refused, naming the field: it is never looked up as an id nor taken as silence (an empty `ambient` or `themeAt`
/// theme played silence, and an empty `set` theme silenced the session, before 2026-12-07). Silence is said with
/// ``silence`` (`none`); in the protocol, leaving `ambient` out or `null` is no ambient too.
///
///     try AssetName.theme("none")     // nil: silence
///     try AssetName.theme("rain")     // "rain"
///     try AssetName.theme("")         // throws: "ambient is empty: an empty id names no asset; …"
///
/// - Thread safety: stateless; any thread.
public enum AssetName {
    /// The word that names no theme: silence (`--ambient none`, `"theme": "none"`).
    public static let silence = "none"

    /// A name that names nothing: empty.
    public struct Refusal: Error, Sendable, Equatable {
        /// Whether the field takes ``AssetName/silence`` (a theme), so the message says how to ask for silence.
        public var silenceAllowed: Bool

        public init(silenceAllowed: Bool) { self.silenceAllowed = silenceAllowed }

        /// What is wrong, after the field's name: `is empty: an empty id names no asset; give …`.
        public var problem: String {
            "is empty: an empty id names no asset; give an asset id"
                + (silenceAllowed ? ", a sound file or \(AssetName.silence) for silence" : " or a sound file")
        }

        /// The sentence naming `field` as the front end spells it: `ambient is empty: …`, `--bell is empty: …`.
        public func message(field: String) -> String { "\(field) \(problem)" }
    }

    /// Checks a name: any name but the empty one, returned as given (`none` included: a theme's caller reads it
    /// with ``isSilence(_:)``).
    ///
    /// - Parameter silenceAllowed: whether the field takes `none` (a theme); it only words the refusal.
    /// - Throws: ``Refusal`` when `text` is empty.
    public static func check(_ text: String, silenceAllowed: Bool) throws(Refusal) -> String {
        guard !text.isEmpty else { throw Refusal(silenceAllowed: silenceAllowed) }
        return text
    }

    /// A bell's name: the name as given.
    ///
    /// - Throws: ``Refusal`` when `text` is empty.
    public static func bell(_ text: String) throws(Refusal) -> String {
        try check(text, silenceAllowed: false)
    }

    /// A theme's name as a plan holds it: `nil` for ``silence``, else the name as given.
    ///
    /// - Throws: ``Refusal`` when `text` is empty.
    public static func theme(_ text: String) throws(Refusal) -> String? {
        let name = try check(text, silenceAllowed: true)
        return isSilence(name) ? nil : name
    }

    /// Whether a checked theme name asks for silence (exactly ``silence``: `none`).
    public static func isSilence(_ name: String) -> Bool { name == silence }
}
