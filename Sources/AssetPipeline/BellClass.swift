import AudioDSP
import Foundation

/// What a candidate sounds like, decided by its decay first and then by its figure, never by its brightness. Each
/// rule is a value of ``BellClassRules`` (docs/bells.md gives each rule's reason):
///
/// 1. sounding for less than 0.4 s (one BS.1770 loudness block; ``BellAuditionMetrics/soundLength``, silence in front
///    left out): **notification-like**, far too short for a bell;
/// 2. noise rather than partials (under half the ringing's power in partials, ``TonalityAnalysis``):
///    **notification-like**, whatever its decay: a struck body rings in modes, and noise is never a bell (unless
///    clipping's arcs drew most of what the tonality was read from: clipping makes tones read as noise, never noise
///    as tones, so the rule abstains);
/// 3. the time to fall 40 dB (`d40`, or extrapolated from a clean decay when the file ends first, and said so):
///    unknown (the level never falls 10 dB before the file ends: a sustained tone, a cut file) → **ambiguous**,
///    unless it is a figure of new pitches (rule 5 needs no decay: a melody cut off is still a melody);
///    under 1.5 s → **notification-like** (a bell rings; an alert is designed to be over within about a second);
/// 4. a long decay carried by one periodic tone → **notification-like**: a single strong partial with nothing
///    within 40 dB of it but its own harmonics (and their sidebands), and no beating (``isOnePeriodicTone(_:)``). A
///    struck body rings in modes that are not harmonics of one another, or beats where a near-symmetric body splits
///    a mode in two, however soft the mallet that leaves its upper modes 25–35 dB down;
/// 5. the figure: strikes that bring new pitches, or new tones that enter, struck or not (a tone and its harmonics
///    rising 20 dB over all heard at their pitch: a soft note too), make a melody or an arpeggio (``StrikeFigure``) →
///    **notification-like**; one strike, or several strikes of the same bell → **bell-like**.
public enum BellClass: String, Sendable, Codable, CaseIterable {
    case bellLike = "bell-like"
    case notificationLike = "notification-like"
    case ambiguous

    /// The shortest sound that can be a bell (s): one 400 ms loudness block.
    public static let shortest = 0.4
    /// The time to fall 40 dB from which a sound rings like a bell (s).
    public static let ringing = 1.5
    /// The decay a sound must show before it is judged by its decay or its length (dB re peak): 10 dB, the span of an
    /// early decay time (ISO 3382), as ``DecayAnalysis``'s extrapolation asks. A sound cut off while it rings before
    /// falling that far is `ambiguous` (``BellClassRules``'s `decay-cut`).
    public static let decaySeen = -10.0

    /// Partials this far from the harmonics, on average (``PartialAnalysis``'s inharmonicity: 0 on a harmonic, 1
    /// halfway between two), are heard as inharmonic: a struck body's modes rather than one tone's harmonics. A
    /// reason given for a bell-like class, never a rule of it.
    public static let inharmonic = 0.15

    /// The class of `m` and the reasons for it, strongest first: the first rule of ``BellClassRules`` that decides.
    public static func classify(_ m: BellAuditionMetrics) -> (BellClass, [String]) {
        let d = BellClassRules.decision(m)
        return (d.bellClass, d.reasons)
    }

    /// What makes `m` a figure of different notes, in words (nil for one bell, struck once or again): strikes that
    /// bring new pitches, or new tones that enter, struck or not (``StrikeFigure``).
    static func figure(_ m: BellAuditionMetrics) -> String? {
        var parts: [String] = []
        if m.newNotes > 0 {
            parts.append("\(m.strikes) strikes bring \(m.newNotes) new note\(m.newNotes == 1 ? "" : "s")")
        }
        if !m.entryTimes.isEmpty {
            let times = m.entryTimes.map { String(format: "%.2f", $0) }
            let when = times.count == 1 ? times[0] : times.dropLast().joined(separator: ", ") + " and " + times.last!
            parts.append(
                times.count == 1
                    ? "a new tone rises 20 dB over all heard at its pitch at \(when) s"
                    : "new tones rise 20 dB over all heard at their pitch at \(when) s")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", and ")
    }

    /// The level down to which another partial is heard in the ring (dB re the strongest): at −40 dB a partial of
    /// a bell peaking at 75–80 dB SPL still sounds at 35–40 dB SPL, over a 25–30 dBA room (the line a cut tail is
    /// heard at, ``BellDefect/cutAudible``). It is also how far ``PartialAnalysis`` lists partials.
    public static let heardPartial = -40.0
    /// How far from a harmonic a partial is still the tone's own (a fraction of its fundamental): a semitone. The
    /// sidebands of a tone's own amplitude changes (a beep switched on and off, an envelope's steps) sit at the same
    /// distance in hertz from every harmonic.
    public static let harmonicReach = 0.06
    /// The beating that shows a split mode (peak to peak, dB): about the smallest slow level change heard, and
    /// where the score's beating term starts (``BellScore``).
    public static let splitModeBeat = 1.0

    /// Whether the sound rings as one periodic tone: one strong partial (within 25 dB of the strongest), every
    /// partial heard with it (within ``heardPartial``) within ``harmonicReach`` of a harmonic of it, and no beating
    /// of ``splitModeBeat`` or more. That is a synthesised tone. A struck body's modes are inharmonic (a free bar's
    /// 2.76 and 5.40, a bowl's or a bell's), and a near-symmetric body (a bowl, a bell) splits each mode into a
    /// beating pair, so a soft-struck bowl whose upper modes are 25–35 dB down is still a struck body.
    public static func isOnePeriodicTone(_ m: BellAuditionMetrics) -> Bool {
        guard m.strongPartials <= 1, m.beatDepth < splitModeBeat else { return false }
        guard let f0 = m.partials.max(by: { $0.level < $1.level })?.frequency, f0 > 0 else { return true }
        return m.partials.allSatisfy { p in
            guard p.level >= heardPartial else { return true }
            let h = max(1, (p.frequency / f0).rounded())
            return abs(p.frequency - h * f0) <= harmonicReach * f0
        }
    }
}
