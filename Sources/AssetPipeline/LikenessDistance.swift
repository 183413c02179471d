import AudioDSP
import Foundation

/// How far apart two sounds are for a listener comparing them at matched loudness, in just-noticeable
/// differences, and whether they are near-duplicates (docs/similarity.md).
///
/// Each ``LikenessComponent`` gives a difference in its unit; divided by its JND it is a detectability `d'` of
/// about 1 at the JND. Independent cues combine as the root of the sum of their squares (signal detection theory:
/// an observer who uses every cue, Green & Swets 1966), so `distance` = √Σ(differenceᵢ / JNDᵢ)². Two sounds are
/// **near-duplicates** when `distance` ≤ ``nearDuplicateThreshold``: all their cues together stay within one JND,
/// so a listener would not tell them apart. The threshold is that principle, never fitted to files.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct LikenessDistance: Sendable, Codable, Equatable {
    /// One cue's difference.
    public struct Component: Sendable, Codable, Equatable {
        /// ``LikenessComponent/name``.
        public var name: String
        /// The difference, in `unit`.
        public var difference: Double
        public var unit: String
        /// ``LikenessComponent/jnd``, in `unit`.
        public var jnd: Double
        /// `difference / jnd`: how many JNDs apart.
        public var jnds: Double
    }

    /// √Σ(differenceᵢ / JNDᵢ)² over the components both sounds hold.
    public var distance: Double
    /// `distance` ≤ ``nearDuplicateThreshold``.
    public var nearDuplicate: Bool
    /// Every component measured, the one that differs most (in JNDs) first.
    public var components: [Component]

    /// The largest distance of near-duplicates: one JND of all cues combined.
    public static let nearDuplicateThreshold = 1.0

    /// The distance between two signatures of the same kind.
    ///
    /// - Precondition: `a.kind == b.kind` (a bell and a texture are not compared).
    public init(_ a: LikenessSignature, _ b: LikenessSignature) {
        precondition(a.kind == b.kind, "a struck sound and a texture are not compared")
        components = LikenessComponent.applying(to: a.kind).compactMap { c in
            c.measure(a, b).map { Component(name: c.name, difference: $0, unit: c.unit, jnd: c.jnd, jnds: $0 / c.jnd) }
        }
        .sorted { $0.jnds > $1.jnds }
        distance = components.reduce(0) { $0 + $1.jnds * $1.jnds }.squareRoot()
        nearDuplicate = distance <= Self.nearDuplicateThreshold
    }

    /// Whether `a` and `b` are near-duplicates (``nearDuplicate``), answered without building the components: the
    /// sum of squared JNDs stops as soon as it passes the threshold, most often after the first cue. What grouping
    /// asks of every pair in a block (``LikenessGroups``).
    public static func areNearDuplicates(_ a: LikenessSignature, _ b: LikenessSignature) -> Bool {
        guard a.kind == b.kind else { return false }
        let limit = nearDuplicateThreshold * nearDuplicateThreshold
        var sum = 0.0
        for c in LikenessComponent.applying(to: a.kind) {
            guard let d = c.measure(a, b) else { continue }
            sum += (d / c.jnd) * (d / c.jnd)
            if sum > limit { return false }
        }
        return true
    }
}
