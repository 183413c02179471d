import Foundation

/// The ranking score of a bell candidate for meditation use, 0…100, with the part each term played.
///
/// `score = 100 · Σ weightᵢ · termᵢ / Σ weightᵢ`, every term in 0…1 (weights and targets from the
/// ``BellProfile``):
/// - `decay`: long clean decay, `min(1, decay40 / target)`;
/// - `attack`: soft but definite, 1 inside `attackMin…attackMax`, falling by 1/3 per octave outside;
/// - `warmth`: warm not shrill, 1 when the early centroid is at or below the target, falling by 1 per octave;
/// - `partials`: several inharmonic partials, `min(1, (strong − 1)/3) · min(1, inharmonicity / 0.3)`;
/// - `beating`: gentle beating (1–8 dB at 0.2–4 Hz) earns 1, none 0.3, deeper beats less;
/// - `clean`: `1 − 0.25` per fixable defect.
///
/// The score ranks candidates within a verdict: a `reject` has none (a clipped or truncated file never outranks a
/// clean one).
public struct BellScore: Sendable, Codable, Equatable {
    /// One term: its value (0…1), its weight, and the points it adds to the score.
    public struct Term: Sendable, Codable, Equatable {
        public var name: String
        public var value: Double
        public var weight: Double
        public var points: Double
    }

    public var total: Double
    public var terms: [Term]

    /// What each fixable defect takes off the `clean` term: four mends make a file no cleaner than a reject.
    public static let fixablePenalty = 0.25
    /// The inharmonicity that earns the full `partials` term: partials on average 15 % of a harmonic spacing off
    /// their nearest harmonic (twice ``BellClass/inharmonic``), clearly a struck body's modes.
    public static let fullInharmonicity = 0.3
    /// Gentle beating: a slow swell of 0.2–4 Hz (slower is a drift, faster a roughness), 1 dB deep (the smallest slow
    /// level change heard, ``BellClass/splitModeBeat``) to 8 dB; each 12 dB deeper loses the whole term down to
    /// ``noBeating``.
    public static let beatRates = 0.2...4.0
    public static let gentleBeatDepth = 8.0
    public static let beatDepthFalloff = 12.0
    /// The `beating` term of a sound that does not beat gently (none, or too fast or slow): a bell without beating
    /// is still a bell.
    public static let noBeating = 0.3

    /// Scores `m` under `profile`, counting `fixableDefects` against the `clean` term.
    public init(_ m: BellAuditionMetrics, fixableDefects: Int, profile: BellProfile) {
        let t = profile.targets
        let w = profile.weights
        func octaves(_ a: Double, _ b: Double) -> Double { abs(log2(max(a, 1e-6) / b)) }
        let decay = min(1, (m.decay40 ?? 0) / t.decay40)
        let attack: Double =
            m.attack < t.attackMin
            ? max(0, 1 - octaves(m.attack, t.attackMin) / 3)
            : m.attack > t.attackMax ? max(0, 1 - octaves(m.attack, t.attackMax) / 3) : 1
        let warmth = m.earlyCentroid <= t.warmth ? 1 : max(0, 1 - octaves(m.earlyCentroid, t.warmth))
        let partials =
            min(1, Double(max(0, m.strongPartials - 1)) / 3) * min(1, m.inharmonicity / Self.fullInharmonicity)
        let beating: Double
        if Self.beatRates.contains(m.beatRate) && m.beatDepth >= BellClass.splitModeBeat {
            beating =
                m.beatDepth <= Self.gentleBeatDepth
                ? 1 : max(Self.noBeating, 1 - (m.beatDepth - Self.gentleBeatDepth) / Self.beatDepthFalloff)
        } else {
            beating = Self.noBeating
        }
        let clean = max(0, 1 - Self.fixablePenalty * Double(fixableDefects))
        let raw: [(String, Double, Double)] = [
            ("decay", decay, w.decay), ("attack", attack, w.attack), ("warmth", warmth, w.warmth),
            ("partials", partials, w.partials), ("beating", beating, w.beating), ("clean", clean, w.clean),
        ]
        let sum = raw.map(\.2).reduce(0, +)
        terms = raw.map { Term(name: $0.0, value: $0.1, weight: $0.2, points: sum > 0 ? 100 * $0.1 * $0.2 / sum : 0) }
        total = terms.map(\.points).reduce(0, +)
    }
}
