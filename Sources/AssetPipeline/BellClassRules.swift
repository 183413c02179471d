import AudioDSP
import Foundation

/// One rule of the class as a value: what it reads, its thresholds with their probes, the class it gives, its
/// principle in one sentence, and the pure function from the metrics to the class and the reasons for it (nil when
/// the rule does not decide and the next one is asked).
public struct BellClassRule: Sendable {
    /// The rule's name in docs/bells.md's class table (`too-short`, `noise`, …).
    public var name: String
    /// The class it gives when it decides (`decay-unknown` gives `ambiguous`, or `notification-like` for a figure).
    public var gives: String
    /// When it decides, in the words of the docs table (markdown).
    public var when: String
    /// Why, in one sentence a listener would accept.
    public var principle: String
    /// Its thresholds, each with a probe on both sides of it: the probe's metrics reach this rule (no earlier rule
    /// decides them) and it decides them exactly on the firing side. Empty only for the last rule, which decides
    /// whatever reaches it.
    public var thresholds: [RuleThreshold<BellAuditionMetrics>]
    /// The class and its reasons, strongest first; nil to ask the next rule.
    public var decide: @Sendable (BellAuditionMetrics) -> (BellClass, [String])?

    /// The docs table's row: `| # | rule | gives | when | why |`.
    func docsRow(_ number: Int) -> String {
        "| \(number) | `\(name)` | \(gives) | \(when) | \(principle) |"
    }
}

/// The registry of class rules, asked in order (decay first, then the figure, never brightness); the first that
/// decides gives the class (``BellClass/classify(_:)``). docs/bells.md's class table is made of them (`BellDocsTests`).
public enum BellClassRules {
    /// Every rule, in the order they are asked; the last decides whatever reaches it.
    public static let all: [BellClassRule] = [
        decayCut, tooShort, noise, decayUnknown, fastDecay, onePeriodicTone, melodicFigure, rings,
    ]

    /// The rule that decides `m`, its class and the reasons.
    public static func decision(_ m: BellAuditionMetrics) -> (
        rule: BellClassRule, bellClass: BellClass, reasons: [String]
    ) {
        for rule in all {
            if let (c, reasons) = rule.decide(m) { return (rule, c, reasons) }
        }
        preconditionFailure("the last class rule decides whatever reaches it")
    }

    /// `decay40` in words, as the reasons say it.
    private static func how(_ m: BellAuditionMetrics, _ d: Double) -> String {
        // Two decimals under 0.1 s: a click falls 40 dB in 0.02 s, not in "0.0 s".
        let s = String(format: d < 0.1 ? "%.2f" : d < 10 ? "%.1f" : "%.0f", d)
        return m.d40 != nil ? "falls 40 dB in \(s) s" : "would fall 40 dB in \(s) s (extrapolated: the file ends first)"
    }

    private static func probe(_ change: (inout BellAuditionMetrics) -> Void) -> BellAuditionMetrics {
        var m = BellAuditionMetrics.reference
        change(&m)
        return m
    }

    /// One periodic tone at 256 Hz: one strong partial, its second harmonic 30 dB down, no beating; `change` then
    /// moves one quantity.
    private static func tone(_ change: (inout BellAuditionMetrics) -> Void) -> BellAuditionMetrics {
        probe { m in
            m.sound.partials = [
                PartialAnalysis.Partial(frequency: 256, level: 0, t60: nil),
                PartialAnalysis.Partial(frequency: 512, level: -30, t60: nil),
            ]
            (m.sound.strongPartials, m.sound.beatDepth) = (1, 0)
            change(&m)
        }
    }

    /// A 0.3 s sound cut off while it rings (`ringingAtEnd`) at `level` dB re its peak, its decay unknown; `change`
    /// then moves one quantity.
    private static func cut(
        level: Double, ringing: Bool = true, _ change: (inout BellAuditionMetrics) -> Void = { _ in }
    ) -> BellAuditionMetrics {
        probe { m in
            (m.decay.ringingAtEnd, m.decay.cutLevel, m.decay.endLevel) = (ringing, level, level)
            (m.decay.d20, m.decay.d40, m.decay.d40Extrapolated, m.decay.d60) = (nil, nil, nil, nil)
            m.sound.duration = 0.3
            change(&m)
        }
    }

    static let decayCut = BellClassRule(
        name: "decay-cut", gives: "ambiguous (notification-like for a figure or one periodic tone)",
        when:
            "sounding for less than **\(BellDefectRules.limit(BellClass.shortest)) s** (`soundLength`) because it was cut off while ringing (`ringingAtEnd`) before it fell **\(BellDefectRules.limit(-BellClass.decaySeen)) dB** (`cutLevel` above \(BellDefectRules.limit(BellClass.decaySeen)) dB re peak, `decay40` unknown); not clipped, not noise",
        principle:
            "a cut before 10 dB of decay (the span of an EDT) leaves neither the sound's length nor its decay to judge it by, so a listener decides (a figure of new pitches is still a figure, and one periodic tone still a synthesised tone: neither needs a decay to be told)",
        thresholds: [
            RuleThreshold("cutLevel", "dB re peak", limit: BellClass.decaySeen, firesAbove: true, step: 0.1) { x in
                cut(level: x)
            },
            RuleThreshold("ringingAtEnd", "flag", limit: 0, firesAbove: true, step: 1) { x in
                cut(level: -3, ringing: x > 0)
            },
            RuleThreshold("soundLength", "s", limit: BellClass.shortest, firesAbove: false, step: 0.001) { x in
                cut(level: -3) { $0.sound.duration = x }
            },
            RuleThreshold("decay40", "s", limit: 0, firesAbove: false, inclusive: true, step: 1) { x in
                cut(level: -3) { $0.decay.d40Extrapolated = x > 0 ? x : nil }
            },
            RuleThreshold("clipRuns", "runs", limit: 0, firesAbove: false, inclusive: true, step: 1) { x in
                cut(level: -3) { ($0.sound.clipRuns, $0.sound.clippedSamples) = (Int(x), 3 * Int(x)) }
            },
            RuleThreshold(
                "tonality", "share of power", limit: TonalityAnalysis.tonalShare, firesAbove: true, inclusive: true,
                step: 0.01
            ) { x in cut(level: -3) { $0.sound.tonality = x } },
        ],
        decide: { m in
            guard m.soundLength < BellClass.shortest, m.ringingAtEnd, m.cutLevel > BellClass.decaySeen, m.decay40 == nil
            else { return nil }
            // A clipped peak is not the sound's: how far the sound fell from it cannot be read. Noise is noise, cut or
            // not (the `noise` rule says so).
            guard m.clipRuns < 1 else { return nil }
            if let t = m.tonality, t < TonalityAnalysis.tonalShare { return nil }
            let below = Int(max(0, -m.cutLevel).rounded())
            let cut = "cut off while still ringing " + (below == 0 ? "at its peak level" : "\(below) dB below its peak")
            if let figure = BellClass.figure(m) {
                return (.notificationLike, ["\(figure): a melodic figure, not one bell (\(cut))"])
            }
            if readsAsOnePeriodicTone(m) { return (.notificationLike, [onePeriodicToneReason + " (\(cut))"]) }
            let ms = String(format: "%.0f", m.soundLength * 1000)
            return (
                .ambiguous,
                [
                    "\(cut), \(ms) ms in, before it fell 10 dB: a sound cut that early cannot be judged by its length or its decay"
                ]
            )
        })

    static let tooShort = BellClassRule(
        name: "too-short", gives: "notification-like",
        when:
            "sounding for less than **\(BellDefectRules.limit(BellClass.shortest)) s** (`soundLength`: from its first sample over 60 dB under its peak to the end of the file), unless cut off while ringing (`ringingAtEnd`) with a decay to read (`decay40`)",
        principle:
            "one BS.1770 loudness block: far too short for a bell (silence before the sound is no part of it: the `leading-silence` defect judges that; a sound cut off while it rang is as short as the cut made it, and the decay it showed, when one can be read, judges it)",
        thresholds: [
            RuleThreshold("soundLength", "s", limit: BellClass.shortest, firesAbove: false, step: 0.001) { x in
                probe { $0.sound.duration = x }
            },
            // Cut after it fell 20 dB (so `decay-cut` abstains), its decay shown: the decay rules judge it.
            RuleThreshold("ringingAtEnd", "flag", limit: 0, firesAbove: false, inclusive: true, step: 1) { x in
                cut(level: -20, ringing: x > 0) { $0.decay.d40Extrapolated = 0.6 }
            },
        ],
        decide: { m in
            // A sound cut off while it rang is as short as the cut made it, not as it is: where it showed a decay to
            // read (`decay40`), that judges it (the rules below; cut before it fell 10 dB, `decay-cut` above).
            guard m.soundLength < BellClass.shortest, !(m.ringingAtEnd && m.decay40 != nil) else { return nil }
            // Under a millisecond with two decimals (a 6-frame file is 0.14 ms long, not "0 ms").
            let ms = String(format: m.soundLength < 0.001 ? "%.2f" : "%.0f", m.soundLength * 1000)
            return (.notificationLike, ["only \(ms) ms long: far too short for a bell"])
        })

    /// The share of the samples `tonality` is read from that the arcs alone may draw under the clipping
    /// (`tonalityArcShare`) for a tonality under the line to count as noise: half. Past it most of the reading is the
    /// arcs' estimate, one sinusoid through each top, which over a sound of many partials leaves distortion that
    /// reads as noise; clipping can turn a tonal sound's power into noise-like distortion but never turns noise
    /// tonal, so there a low tonality is no evidence of noise (a tonality over the line still counts).
    static let arcsDrawnMost = 0.5

    static let noise = BellClassRule(
        name: "noise", gives: "notification-like",
        when:
            "`tonality` under **\(BellDefectRules.limit(TonalityAnalysis.tonalShare))**, unless in a clipped file the arcs alone drew over **\(BellDefectRules.limit(arcsDrawnMost))** of the samples it is read from (`tonalityArcShare`: then the rule abstains)",
        principle:
            "a struck body rings in modes; noise, steady or decaying as slowly as a bell, is never bell-like (clipping turns tones into noise-like distortion, never noise into tones: a low tonality read mostly through arcs is no evidence)",
        thresholds: [
            RuleThreshold(
                "tonality", "share of power", limit: TonalityAnalysis.tonalShare, firesAbove: false, step: 0.01
            ) {
                x in probe { $0.sound.tonality = x }
            },
            RuleThreshold(
                "tonalityArcShare", "share of samples", limit: arcsDrawnMost, firesAbove: false, inclusive: true,
                step: 0.01
            ) { x in
                probe { ($0.sound.tonality, $0.sound.tonalityArcShare) = (0.3, x) }
            },
        ],
        decide: { m in
            guard let t = m.tonality, t < TonalityAnalysis.tonalShare else { return nil }
            if let arcs = m.tonalityArcShare, arcs > arcsDrawnMost { return nil }
            return (
                .notificationLike,
                [
                    "no steady partials: only \(Int((t * 100).rounded())) % of its power in partials (noise, or pitches that keep changing), not a struck body's modes"
                ]
            )
        })

    static let decayUnknown = BellClassRule(
        name: "decay-unknown", gives: "ambiguous (notification-like for a figure or one periodic tone)",
        when: "`decay40` unknown: the level never falls 10 dB before the file ends",
        principle:
            "a sustained tone or a cut file: its decay cannot be told, so a listener decides (a figure of new pitches is still a figure, and one periodic tone, a beep held or cut, still a synthesised tone)",
        thresholds: [
            RuleThreshold("decay40 unknown", "flag", limit: 0, firesAbove: true, step: 1) { x in
                probe { if x > 0 { ($0.decay.d40, $0.decay.d40Extrapolated) = (nil, nil) } }
            }
        ],
        decide: { m in
            guard m.decay40 == nil else { return nil }
            // A new pitch makes a melody whatever its decay: a figure cut off (a ring tone's trill) is still a figure.
            if let figure = BellClass.figure(m) {
                return (
                    .notificationLike,
                    [
                        "\(figure): a melodic figure, "
                            + "not one bell (its decay cannot be told: it does not fall 10 dB before the file ends)"
                    ]
                )
            }
            // One periodic tone is synthesised whatever its decay (`one-periodic-tone`): a beep held to the end.
            if readsAsOnePeriodicTone(m) {
                return (
                    .notificationLike,
                    [onePeriodicToneReason + " (its decay cannot be told: it does not fall 10 dB before the file ends)"]
                )
            }
            return (
                .ambiguous,
                ["does not fall 10 dB before the file ends (a sustained tone, or a cut file): cannot tell its decay"]
            )
        })

    static let fastDecay = BellClassRule(
        name: "fast-decay", gives: "notification-like",
        when: "`decay40` under **\(BellDefectRules.limit(BellClass.ringing)) s**",
        principle: "a bell rings; an alert is designed to be over within about a second",
        thresholds: [
            RuleThreshold("decay40", "s", limit: BellClass.ringing, firesAbove: false, step: 0.01) { x in
                probe { $0.decay.d40 = x }
            }
        ],
        decide: { m in
            guard let d = m.decay40, d < BellClass.ringing else { return nil }
            return (.notificationLike, ["\(how(m, d)): a notification decays that fast; a bell rings 1.5 s or more"])
        })

    static let onePeriodicTone = BellClassRule(
        name: "one-periodic-tone", gives: "notification-like",
        when:
            "one strong partial, every partial within **\(BellDefectRules.limit(-BellClass.heardPartial)) dB** of it within **\(BellDefectRules.limit(BellClass.harmonicReach * 100)) %** of its fundamental from a harmonic, beating under **\(BellDefectRules.limit(BellClass.splitModeBeat)) dB**",
        principle:
            "a struck body rings in modes that are not harmonics of one another, or beats where a near-symmetric body splits a mode in two: one periodic tone is synthesised",
        thresholds: [
            RuleThreshold("strongPartials", "partials", limit: 1, firesAbove: false, inclusive: true, step: 1) { x in
                tone { $0.sound.strongPartials = Int(x) }
            },
            RuleThreshold("beatDepth", "dB", limit: BellClass.splitModeBeat, firesAbove: false, step: 0.01) { x in
                tone { $0.sound.beatDepth = x }
            },
            // An inharmonic partial (a free bar's 2.76) at this level re the strongest.
            RuleThreshold(
                "inharmonic partial's level", "dB", limit: BellClass.heardPartial, firesAbove: false, step: 0.1
            ) {
                x in tone { $0.sound.partials[1] = PartialAnalysis.Partial(frequency: 256 * 2.76, level: x, t60: nil) }
            },
            // A heard partial this far (a fraction of the fundamental) above the second harmonic.
            RuleThreshold(
                "partial's distance from a harmonic", "fraction of the fundamental", limit: BellClass.harmonicReach,
                firesAbove: false, inclusive: true, step: 0.001, exact: false
            ) { x in
                tone { $0.sound.partials[1] = PartialAnalysis.Partial(frequency: 256 * (2 + x), level: -30, t60: nil) }
            },
        ],
        decide: { m in
            guard let d = m.decay40, BellClass.isOnePeriodicTone(m) else { return nil }
            return (.notificationLike, ["\(how(m, d)), but as " + onePeriodicToneReason])
        })

    /// Whether a sound whose decay cannot be told is heard as one periodic tone: a tone was read, one strong partial
    /// that carries the sound (`tonality` known and at least ``TonalityAnalysis/tonalShare``, the line the `noise`
    /// rule draws: a few milliseconds of a click hold no partial, and half a second of brown noise a chance peak
    /// among no ringing to read a tonality from, and ``BellClass/isOnePeriodicTone(_:)`` is true of both for want
    /// of any other partial), and it is one periodic tone.
    static func readsAsOnePeriodicTone(_ m: BellAuditionMetrics) -> Bool {
        guard m.strongPartials == 1, let t = m.tonality, t >= TonalityAnalysis.tonalShare else { return false }
        return BellClass.isOnePeriodicTone(m)
    }

    /// Why one periodic tone is no bell, in the words every rule that says so uses.
    static let onePeriodicToneReason =
        "one periodic tone (a single partial, its harmonics at most, no beating): a synthesised tone, not a struck "
        + "body's modes"

    static let melodicFigure = BellClassRule(
        name: "melodic-figure", gives: "notification-like",
        when: "a strike that brings a new pitch (`newNotes` > 0), or a new tone that enters (`entryTimes`)",
        principle: "strikes of new pitches make a melody or an arpeggio; one bell, struck once or again, does not",
        thresholds: [
            RuleThreshold("newNotes", "notes", limit: 0, firesAbove: true, step: 1) { x in
                probe { ($0.sound.strikes, $0.sound.newNotes) = (1 + Int(x), Int(x)) }
            },
            RuleThreshold("entryTimes.count", "tones", limit: 0, firesAbove: true, step: 1) { x in
                probe { m in
                    m.sound.entryTimes = (0..<max(0, Int(x))).map { 1 + Double($0) }
                    m.sound.enteringNotes = max(0, Int(x))
                }
            },
        ],
        decide: { m in
            guard let d = m.decay40, let figure = BellClass.figure(m) else { return nil }
            return (.notificationLike, ["\(how(m, d)), but \(figure): a melodic figure, not one bell"])
        })

    static let rings = BellClassRule(
        name: "rings", gives: "bell-like",
        when: "none of the above: a long decay of inharmonic or beating modes, one bell struck once or again",
        principle: "that is how a struck bell rings",
        thresholds: [],
        decide: { m in
            var reasons = ["\(how(m, m.decay40 ?? 0)), as a bell rings"]
            if m.strikes >= 2 { reasons.append("\(m.strikes) strikes of the same bell (its partials again)") }
            if m.strongPartials >= 3 && m.inharmonicity > BellClass.inharmonic {
                reasons.append("\(m.strongPartials) inharmonic partials, as a struck bell has")
            }
            return (.bellLike, reasons)
        })
}
