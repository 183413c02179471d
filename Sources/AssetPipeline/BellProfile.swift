import AudioCore
import Foundation

/// What a meditation bell should sound like: the weights of the score's terms and the targets they measure
/// against. `bowl`, `temple` and `chime` are built in; a JSON file may override any field of one of them.
///
///     {"base": "bowl", "weights": {"decay": 4, "beating": 2}, "targets": {"decay40": 10}}
public struct BellProfile: Sendable, Codable, Equatable {
    /// Relative weights (≥ 0) of the score terms; see ``BellScore``.
    public struct Weights: Sendable, Codable, Equatable {
        public var decay: Double
        public var attack: Double
        public var warmth: Double
        public var partials: Double
        public var beating: Double
        public var clean: Double
    }

    /// What each term aims at.
    public struct Targets: Sendable, Codable, Equatable {
        /// Seconds to fall 40 dB that earn the full decay term.
        public var decay40: Double
        /// The attack range (seconds) that earns the full attack term: soft but definite.
        public var attackMin: Double
        public var attackMax: Double
        /// Early spectral centroid (Hz) at or below which the sound counts as warm.
        public var warmth: Double
    }

    public var name: String
    public var weights: Weights
    public var targets: Targets

    /// A singing bowl: very long decay, soft attack, warm, beating welcome.
    public static let bowl = BellProfile(
        name: "bowl", weights: Weights(decay: 3, attack: 1.5, warmth: 2, partials: 1, beating: 1.5, clean: 1),
        targets: Targets(decay40: 8, attackMin: 0.015, attackMax: 0.08, warmth: 1200))
    /// A temple bell: long decay, definite strike, rich inharmonic partials.
    public static let temple = BellProfile(
        name: "temple", weights: Weights(decay: 3, attack: 1, warmth: 1.5, partials: 1.5, beating: 1, clean: 1),
        targets: Targets(decay40: 5, attackMin: 0.003, attackMax: 0.03, warmth: 1800))
    /// A soft chime: shorter decay accepted, quick attack, brighter allowed.
    public static let chime = BellProfile(
        name: "chime", weights: Weights(decay: 2, attack: 1, warmth: 1, partials: 1, beating: 0.5, clean: 1),
        targets: Targets(decay40: 2.5, attackMin: 0.001, attackMax: 0.012, warmth: 3000))

    public static let builtIn: [BellProfile] = [bowl, temple, chime]

    public static func named(_ name: String) -> BellProfile? { builtIn.first { $0.name == name } }

    /// A profile from a JSON file: `base` (a built-in name, default `temple`), then any of `weights` and
    /// `targets` fields.
    ///
    /// - Throws: `EnsoError` `.unavailable` when the file cannot be read, `.invalidInput` naming the
    ///   field when the JSON is malformed, a weight is negative or all are zero, or a target is not positive.
    public static func load(path: String) throws(EnsoError) -> BellProfile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EnsoError(.unavailable, "\(path): cannot read the profile file")
        }
        struct Overlay: Decodable {
            struct W: Decodable {
                var decay, attack, warmth, partials, beating, clean: Double?
            }
            struct T: Decodable {
                var decay40, attackMin, attackMax, warmth: Double?
            }
            var base: String?
            var weights: W?
            var targets: T?
        }
        let o: Overlay
        do { o = try JSONDecoder().decode(Overlay.self, from: data) } catch let error as DecodingError {
            throw EnsoError(.invalidInput, "\(path): not a bell profile: \(JSONSyntax.message(error, in: data))")
        } catch {
            throw EnsoError(.invalidInput, "\(path): not a bell profile: \(Self.describe(error))")
        }
        guard var p = named(o.base ?? "temple") else {
            throw EnsoError(
                .invalidInput, "\(path): base \"\(o.base ?? "")\" is not one of bowl, temple, chime")
        }
        p.name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        if let w = o.weights {
            p.weights.decay = w.decay ?? p.weights.decay
            p.weights.attack = w.attack ?? p.weights.attack
            p.weights.warmth = w.warmth ?? p.weights.warmth
            p.weights.partials = w.partials ?? p.weights.partials
            p.weights.beating = w.beating ?? p.weights.beating
            p.weights.clean = w.clean ?? p.weights.clean
        }
        if let t = o.targets {
            p.targets.decay40 = t.decay40 ?? p.targets.decay40
            p.targets.attackMin = t.attackMin ?? p.targets.attackMin
            p.targets.attackMax = t.attackMax ?? p.targets.attackMax
            p.targets.warmth = t.warmth ?? p.targets.warmth
        }
        let ws: [(String, Double)] = [
            ("decay", p.weights.decay), ("attack", p.weights.attack), ("warmth", p.weights.warmth),
            ("partials", p.weights.partials), ("beating", p.weights.beating), ("clean", p.weights.clean),
        ]
        for (k, v) in ws where !(v >= 0 && v.isFinite) {
            throw EnsoError(.invalidInput, "\(path): weights.\(k) must be a number ≥ 0, got \(v)")
        }
        guard ws.map(\.1).reduce(0, +) > 0 else {
            throw EnsoError(.invalidInput, "\(path): at least one weight must be above 0")
        }
        let ts: [(String, Double)] = [
            ("decay40", p.targets.decay40), ("attackMin", p.targets.attackMin),
            ("attackMax", p.targets.attackMax), ("warmth", p.targets.warmth),
        ]
        for (k, v) in ts where !(v > 0 && v.isFinite) {
            throw EnsoError(.invalidInput, "\(path): targets.\(k) must be a number > 0, got \(v)")
        }
        guard p.targets.attackMin <= p.targets.attackMax else {
            throw EnsoError(.invalidInput, "\(path): targets.attackMin is above targets.attackMax")
        }
        return p
    }

    private static func describe(_ error: any Error) -> String {
        (error as? DecodingError)?.fieldMessage ?? "\(error)"
    }
}
