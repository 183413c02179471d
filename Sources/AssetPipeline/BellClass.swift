import AudioDSP
import Foundation

/// What a candidate sounds like, decided by its decay first and then by its figure, never by its brightness
/// (docs/bells.md gives each rule's reason):
///
/// 1. shorter than 0.4 s (one BS.1770 loudness block): **notification-like**, far too short for a bell;
/// 2. noise rather than partials (under half the ringing's power in partials, ``TonalityAnalysis``):
///    **notification-like**, whatever its decay: a struck body rings in modes, and noise is never a bell;
/// 3. the time to fall 40 dB (`d40`, or extrapolated from a clean decay when the file ends first, and said so):
///    unknown (the level never falls 10 dB before the file ends: a sustained tone, a cut file) → **ambiguous**;
///    under 1.5 s → **notification-like** (a bell rings; an alert is designed to be over within about a second);
/// 4. a long decay carried by a single partial → **notification-like** (a struck body rings in several modes at
///    once; one decaying sine is a synthesised tone);
/// 5. the figure: strikes that bring new pitches (``StrikeFigure``) make a melody or an arpeggio →
///    **notification-like**; one strike, or several strikes of the same bell → **bell-like**.
public enum BellClass: String, Sendable, Codable, CaseIterable {
    case bellLike = "bell-like"
    case notificationLike = "notification-like"
    case ambiguous

    /// The shortest sound that can be a bell (s): one 400 ms loudness block.
    public static let shortest = 0.4
    /// The time to fall 40 dB from which a sound rings like a bell (s).
    public static let ringing = 1.5

    /// The class of `m` and the reasons for it, strongest first.
    public static func classify(_ m: BellAuditionMetrics) -> (BellClass, [String]) {
        func f(_ x: Double) -> String { String(format: x < 10 ? "%.1f" : "%.0f", x) }
        if m.duration < shortest {
            let ms = String(format: "%.0f", m.duration * 1000)
            return (.notificationLike, ["only \(ms) ms long: far too short for a bell"])
        }
        if let t = m.tonality, t < TonalityAnalysis.tonalShare {
            return (.notificationLike, [
                "its sound is noise: only \(Int((t * 100).rounded())) % of its power in partials, not a struck body's modes",
            ])
        }
        guard let d = m.decay40 else {
            return (.ambiguous, ["does not fall 10 dB before the file ends (a sustained tone, or a cut file): cannot tell its decay"])
        }
        let how = m.d40 != nil ? "falls 40 dB in \(f(d)) s" : "would fall 40 dB in \(f(d)) s (extrapolated: the file ends first)"
        if d < ringing {
            return (.notificationLike, ["\(how): a notification decays that fast; a bell rings 1.5 s or more"])
        }
        if m.strongPartials <= 1 {
            return (.notificationLike, ["\(how), but with a single pure partial: a synthesised tone, not a struck body's modes"])
        }
        if m.newNotes > 0 {
            return (.notificationLike, [
                "\(how), but \(m.strikes) strikes bring \(m.newNotes) new note\(m.newNotes == 1 ? "" : "s"): a melodic figure, not one bell",
            ])
        }
        var reasons = ["\(how), as a bell rings"]
        if m.strikes >= 2 { reasons.append("\(m.strikes) strikes of the same bell (its partials again)") }
        if m.strongPartials >= 3 && m.inharmonicity > 0.15 {
            reasons.append("\(m.strongPartials) inharmonic partials, as a struck bell has")
        }
        return (.bellLike, reasons)
    }
}
