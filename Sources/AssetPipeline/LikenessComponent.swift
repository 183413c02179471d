import AudioDSP
import Foundation

/// One cue by which a listener tells two sounds apart at matched loudness, as a rule value: its name, what is
/// measured and in which unit, its just-noticeable difference, the principle in one sentence and where the figure
/// comes from, and a pure function from two signatures to the difference (docs/similarity.md, whose table is
/// checked against ``all``).
///
/// - Thread safety: immutable; any thread.
/// - Real-time safe: no.
public struct LikenessComponent: Sendable {
    /// The key in `similar --json` and in docs/similarity.md.
    public var name: String
    /// The sounds it applies to.
    public var kind: LikenessSignature.Kind
    /// The unit of the difference.
    public var unit: String
    /// The just-noticeable difference, in `unit`.
    public var jnd: Double
    /// Why it is there and why that JND, in a listener's words.
    public var principle: String
    /// The difference between two signatures of `kind`, in `unit`; nil when neither holds the cue.
    public var measure: @Sendable (LikenessSignature, LikenessSignature) -> Double?

    /// The components of each kind, in the order docs/similarity.md lists them.
    public static let all: [LikenessComponent] = [
        pitch, partialLevels, envelope, decay, bandLevels, modulation, tempo,
    ]

    /// The components that apply to `kind`.
    public static func applying(to kind: LikenessSignature.Kind) -> [LikenessComponent] {
        kind == .struck ? struckComponents : textureComponents
    }

    private static let struckComponents = all.filter { $0.kind == .struck }
    private static let textureComponents = all.filter { $0.kind == .texture }

    // MARK: - Struck sounds

    /// Pitches of the strong partials.
    public static let pitch = LikenessComponent(
        name: "pitch", kind: .struck, unit: "cents", jnd: 5,
        principle:
            "A bell is heard by the pitches of its strong partials; a frequency difference of about 0.3 % (5 cents) is "
            + "just heard between tones at moderate levels (Wier, Jesteadt & Green 1977).",
        measure: { a, b in (pitchOneWay(a, b) + pitchOneWay(b, a)) / 2 })

    /// Levels of the strong partials, relative to the strongest.
    public static let partialLevels = LikenessComponent(
        name: "partialLevels", kind: .struck, unit: "dB", jnd: 1,
        principle:
            "The balance of a bell's partials is its colour; a level change of about 1 dB of a component is just "
            + "heard (Jesteadt, Wier & Green 1977; Green 1988, profile analysis).",
        measure: { a, b in
            let pairs = matchedPartials(a, b) + matchedPartials(b, a)
            return weightedRMS(pairs.map { ($0.level - $1.level, pow(10, max($0.level, $1.level) / 20)) })
        })

    /// The spectral envelope over time, on the ERB scale.
    public static let envelope = LikenessComponent(
        name: "envelope", kind: .struck, unit: "dB", jnd: 1,
        principle:
            "How each auditory band's level evolves after the strike (the ring, then its fading colour); a band's "
            + "level change of about 1 dB is just heard (Jesteadt, Wier & Green 1977).",
        measure: { a, b in cellRMS(a.envelope, b.envelope) })

    /// Decay time per band.
    public static let decay = LikenessComponent(
        name: "decay", kind: .struck, unit: "%", jnd: 10,
        principle:
            "How long the bell rings; ISO 3382-1:2009 (annex A) gives 5 % as the JND of a room's decay times, heard "
            + "in its steady sound; two separate strikes compared one after the other are heard less finely, so "
            + "twice that, the upper end of the 5-10 % the issue sets, is used; a decay 30 % shorter stays 4 JNDs away.",
        measure: { a, b in
            let n = min(a.decay.count, b.decay.count)
            var pairs: [(Double, Double)] = []
            for i in 0..<n {
                guard let x = a.decay[i], let y = b.decay[i], x > 0, y > 0 else { continue }
                // Weighted by the band's amplitude at the strike: the loud bands carry what is heard ringing.
                let level = max(a.envelope.first?[safe: i] ?? -50, b.envelope.first?[safe: i] ?? -50)
                pairs.append((abs(log(x / y)), pow(10, level / 20)))
            }
            guard !pairs.isEmpty else { return nil }
            let w = pairs.reduce(0) { $0 + $1.1 }
            return (exp(pairs.reduce(0) { $0 + $1.0 * $1.1 } / w) - 1) * 100
        })

    // MARK: - Textures

    /// Mean band levels.
    public static let bandLevels = LikenessComponent(
        name: "bandLevels", kind: .texture, unit: "dB", jnd: 1,
        principle:
            "A texture's colour is its long-term spectrum on the ear's bands; a band's level change of about 1 dB "
            + "is just heard (Jesteadt, Wier & Green 1977).",
        measure: { a, b in cellRMS([a.bandLevels], [b.bandLevels]) })

    /// The modulation spectrum.
    public static let modulation = LikenessComponent(
        name: "modulation", kind: .texture, unit: "dB", jnd: 2,
        principle:
            "Rain, wind and water are told apart by how their bands fluctuate (McDermott & Simoncelli 2011); a "
            + "change of modulation depth of about 2 dB is just heard (Wakefield & Viemeister 1990).",
        measure: { a, b in
            // Only the groups within ``modulationMasking`` of the loudest in either sound: a fluctuation far under
            // the loud bands is masked by them.
            let heard = zip(a.modulationLevels, b.modulationLevels).map { max($0, $1) >= -modulationMasking }
            // Only the rates both envelopes resolve: a 1-bar loop cannot read 0.5-1 Hz, which its 2-bar copy holds.
            let seconds = min(a.duration, b.duration)
            let rates = LikenessSignature.modulationRates.indices.filter {
                LikenessSignature.resolves(LikenessSignature.modulationRates[$0], seconds: seconds)
            }
            func keep(_ rows: [[Double]]) -> [[Double]] {
                zip(rows, heard).filter(\.1).map { row in rates.compactMap { row.0[safe: $0] } }
            }
            return cellRMS(keep(a.modulation), keep(b.modulation), floor: LikenessSignature.modulationFloor)
        })

    /// The tempo of a pulse that events keep (a beat loop's, a timer's ticks).
    public static let tempo = LikenessComponent(
        name: "tempo", kind: .texture, unit: "%", jnd: 4,
        principle:
            "Two loops of the same sounds at 80 and 100 beats a minute are two loops; listeners tell an isochronous "
            + "sequence's tempo apart from about 2 % at best (Drake & Botte 1993), and loops heard one after the "
            + "other, twice that. Read modulo an octave (a pulse found at the beat in one file and the half bar in "
            + "its copy is one tempo); a sound without such a pulse (rain, a drone) holds no tempo.",
        measure: { a, b in
            guard let x = a.pulse, let y = b.pulse, x > 0, y > 0 else { return nil }
            let octaves = log2(x / y)
            return (pow(2, abs(octaves - octaves.rounded())) - 1) * 100
        })

    /// A group of bands more than this under the loudest group (dB) has its fluctuation masked: its modulation is
    /// not compared.
    public static let modulationMasking = 30.0

    // MARK: - Measures

    /// Partials further apart than this (cents) are different partials: a semitone is another note.
    static let partialMatchCents = 100.0

    /// Power-weighted mean, over `a`'s strong partials, of the distance in cents to the nearest partial of `b`
    /// (capped at a semitone: a partial with no counterpart counts as a semitone off).
    static func pitchOneWay(_ a: LikenessSignature, _ b: LikenessSignature) -> Double {
        let others = b.weakPartials.isEmpty ? b.partials : b.weakPartials
        return pitchOneWay(
            cents: a.partials.lazy.map(\.cents), weights: a.partials.lazy.map(pitchWeight),
            others: others.lazy.map(\.cents))
    }

    /// A strong partial's weight in ``pitchOneWay(_:_:)``: its power.
    static func pitchWeight(_ p: LikenessSignature.Partial) -> Double { pow(10, p.level / 10) }

    /// ``pitchOneWay(_:_:)`` over `a`'s partials' cents and weights and the cents of `b`'s partials it is matched
    /// against: the one formula, which grouping also reads from flat tables made once per signature
    /// (``LikenessGroups``).
    static func pitchOneWay<C: Collection<Double>, W: Collection<Double>, O: Collection<Double>>(
        cents: C, weights: W, others: O
    ) -> Double {
        guard !cents.isEmpty else { return others.isEmpty ? 0 : partialMatchCents }
        var sum = 0.0
        var total = 0.0
        for (c, w) in zip(cents, weights) {
            var nearest = others.isEmpty ? partialMatchCents : Double.infinity
            for o in others { nearest = min(nearest, abs(o - c)) }
            sum += w * min(nearest, partialMatchCents)
            total += w
        }
        return sum / total
    }

    /// `a`'s strong partials paired with their nearest partial in `b` within a semitone.
    static func matchedPartials(
        _ a: LikenessSignature, _ b: LikenessSignature
    ) -> [(LikenessSignature.Partial, LikenessSignature.Partial)] {
        let others = b.weakPartials.isEmpty ? b.partials : b.weakPartials
        return a.partials.compactMap { p in
            others.min { abs($0.cents - p.cents) < abs($1.cents - p.cents) }
                .flatMap { abs($0.cents - p.cents) < partialMatchCents ? (p, $0) : nil }
        }
    }

    /// The root of the weighted mean square of differences; nil for none.
    static func weightedRMS(_ values: [(difference: Double, weight: Double)]) -> Double? {
        let w = values.reduce(0) { $0 + $1.weight }
        guard w > 0 else { return nil }
        return (values.reduce(0) { $0 + $1.difference * $1.difference * $1.weight } / w).squareRoot()
    }

    /// The RMS difference of two tables of levels over the cells both hold (the bands under both Nyquist
    /// frequencies) where either is above `floor` (cells both sounds leave silent say nothing).
    static func cellRMS(
        _ a: [[Double]], _ b: [[Double]], floor: Double = LikenessSignature.floorDecibels
    ) -> Double? {
        var sum = 0.0
        var count = 0
        for (x, y) in zip(a, b) {
            for (u, v) in zip(x, y) where u > floor || v > floor {
                sum += (u - v) * (u - v)
                count += 1
            }
        }
        return count > 0 ? (sum / Double(count)).squareRoot() : nil
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
