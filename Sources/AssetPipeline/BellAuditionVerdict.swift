import Foundation

/// The class of a bell candidate and the reasons for it, in plain words.
///
/// - `defective`: at least one major ``BellDefect``;
/// - `error`: the file could not be auditioned (unreadable, silent, too short, non-finite samples, more than
///   2 channels);
/// - otherwise `bell-like` or `notification-like` by weighing evidence. Decay weighs most: falling 40 dB
///   in under 0.5 s counts 4 towards a notification, under 1.5 s counts 2; ringing 3 s or more counts 3
///   towards a bell, 1.5–3 s counts 1. Two strikes count 2.5 and three or more 3 towards a notification
///   (a "ding-dong" or an arpeggio), a file under 1 s 2, a single pure partial 1.5; several inharmonic
///   partials count 1 towards a bell. Brightness counts for neither: desktop alerts and bells are both
///   bright or dull. Ties go to notification-like.
public enum BellAuditionVerdict: String, Sendable, Codable, CaseIterable {
    case bellLike = "bell-like"
    case notificationLike = "notification-like"
    case defective
    case error

    /// Whether `enso bells normalize` with its defaults mends a major defect of `kind`: pre-roll and DC always; the
    /// loudness and the true peak when the gain that brings the sound to −20 LUFS leaves its true peak at or under
    /// −1 dBTP (normalize refuses otherwise).
    static func mends(_ kind: BellDefect.Kind, _ m: BellAuditionMetrics) -> Bool {
        switch kind {
        case .leadingSilence, .dcOffset: return true
        case .tooLoud, .tooQuiet, .truePeak:
            guard let i = m.loudness.integrated, let tp = m.loudness.truePeak else { return false }
            return tp + (BellTrim.defaultTarget - i) <= BellTrim.defaultMaxTruePeak
        default: return false
        }
    }

    /// Classifies a candidate that was measured. A defective one's reasons are its major defects, then the class
    /// the sound has underneath them (as measured: a cut tail or clipping changes what is measured) and, when every
    /// major defect is one `enso bells normalize` mends, a line that says so.
    public static func classify(_ m: BellAuditionMetrics, defects: [BellDefect]) -> (Self, [String]) {
        let major = defects.filter { $0.severity == .major }
        if !major.isEmpty {
            var reasons = major.map { "\($0.kind.rawValue): \($0.evidence)" }
            // Whether it is worth mending: what the sound is underneath, and whether trim/normalize mend it.
            let (underneath, why) = classify(m, defects: [])
            reasons.append("underneath its defects, as measured, \(underneath.rawValue)" + (why.first.map { ": \($0)" } ?? ""))
            if major.allSatisfy({ mends($0.kind, m) }) {
                reasons.append("`enso bells normalize` can mend this: it trims pre-roll, removes DC and sets the loudness")
            }
            return (.defective, reasons)
        }
        var bell = 0.0
        var note = 0.0
        var reasons: [(Double, String)] = []
        func f(_ x: Double) -> String { String(format: x < 10 ? "%.1f" : "%.0f", x) }
        if let d = m.decay40 {
            if d < 0.5 {
                note += 4
                reasons.append((4, "falls 40 dB in \(f(d)) s: a notification decays that fast"))
            } else if d < 1.5 {
                note += 2
                reasons.append((2, "falls 40 dB in \(f(d)) s: short for a bell"))
            } else if d >= 3 {
                bell += 3
                reasons.append((3, "rings \(f(d)) s before falling 40 dB, as a bell does"))
            } else {
                bell += 1
                reasons.append((1, "rings \(f(d)) s before falling 40 dB"))
            }
        }
        if m.onsets >= 3 {
            note += 3
            reasons.append((3, "\(m.onsets) strikes: an arpeggio figure, not one bell"))
        } else if m.onsets == 2 {
            note += 2.5
            reasons.append((2.5, "2 strikes: a two-note figure, not one bell"))
        }
        if m.duration < 1 {
            note += 2
            reasons.append((2, "only \(f(m.duration)) s long"))
        }
        if m.strongPartials <= 1 {
            note += 1.5
            reasons.append((1.5, "a single pure partial, like an alert tone"))
        } else if m.strongPartials >= 3 && m.inharmonicity > 0.15 {
            bell += 1
            reasons.append((1, "\(m.strongPartials) inharmonic partials, as a struck bell has"))
        } else if m.inharmonicity <= 0.05 {
            reasons.append((0, "harmonic partials, like a tuned tone"))
        }
        let verdict: Self = bell > note ? .bellLike : .notificationLike
        return (verdict, reasons.sorted { $0.0 > $1.0 }.map(\.1))
    }
}
