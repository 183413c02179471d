import AudioDSP
import Foundation

/// The registry of bell defects: one ``BellDefectRule`` per ``BellDefect/Kind``, in the order they are looked for
/// (and listed). docs/bells.md's defect table is these rules' ``BellDefectRule/docsRows`` (`BellDocsTests` fails when
/// they disagree), and `JudgmentRuleTests` evaluates each rule on both sides of each threshold.
///
/// Adding a defect kind: a case of ``BellDefect/Kind`` (the switch in ``rule(_:)`` then fails to build until its rule
/// is written here, with its thresholds and their probes), and its row in docs/bells.md.
public enum BellDefectRules {
    /// Every rule, in the order of ``BellDefect/Kind``.
    public static let all: [BellDefectRule] = BellDefect.Kind.allCases.map(rule)

    /// The rule of `kind`.
    public static func rule(_ kind: BellDefect.Kind) -> BellDefectRule {
        switch kind {
        case .clipping: return clipping
        case .truePeak: return truePeak
        case .leadingSilence: return leadingSilence
        case .dcOffset: return dcOffset
        case .truncatedTail: return truncatedTail
        case .noiseFloor: return noiseFloor
        case .tooQuiet: return tooQuiet
        case .tooLoud: return tooLoud
        case .channel: return channel
        case .damagedStream: return damagedStream
        case .nonFinite: return nonFinite
        }
    }

    /// Every finding the measures show, defects and notes, in the order of ``all``.
    public static func findings(_ measures: BellDefectRule.Measures) -> [BellDefectRule.Finding] {
        all.compactMap { $0.judge(measures) }
    }

    private typealias Measures = BellDefectRule.Measures

    /// `x` to `digits` decimals; a value that rounds to zero without its sign (``RuleFigure/fixed(_:decimals:)``).
    private static func f(_ x: Double, _ digits: Int = 1) -> String { RuleFigure.fixed(x, decimals: digits) }
    /// `x`, a value over `limit`, with as many decimals as show it over (one, up to three): a true peak of −0.96 dBTP
    /// printed "−1.0" would read as at the −1 dBTP limit, not over it.
    static func over(_ x: Double, _ limit: Double) -> String {
        var digits = 1
        while digits < 3, (x * pow(10, Double(digits))).rounded() <= (limit * pow(10, Double(digits))).rounded() {
            digits += 1
        }
        return f(x, digits)
    }
    /// A limit as the docs write it: no trailing zeros, a true minus sign.
    static func limit(_ x: Double) -> String {
        let s = String(format: "%g", x)
        return s.hasPrefix("-") ? "−" + s.dropFirst() : s
    }

    private static let fixLoudness = "enso bells normalize IN OUT"
    private static let fixTrim = "enso bells trim IN OUT"

    // MARK: - Rejects: the recording itself is spoilt

    static let clipping = BellDefectRule(
        kind: .clipping, severity: .reject, fix: nil,
        when: "a run of ≥ 3 samples at full scale, or on a rail below it (a file clipped and then turned down)",
        principle: "a flattened top is distortion baked in; no gain undoes it",
        thresholds: [
            RuleThreshold("clipRuns", "runs", limit: 0, firesAbove: true, step: 1) { x in
                Measures.probe {
                    $0.sound.clipRuns = Int(x)
                    ($0.sound.clippedSamples, $0.sound.longestClipRun) = x > 0 ? (3 * Int(x), 3) : (0, 0)
                }
            }
        ],
        judge: { s in
            let m = s.metrics
            guard m.clipRuns > 0 else { return nil }
            let runs = "in \(m.clipRuns) run\(m.clipRuns == 1 ? "" : "s") (longest \(m.longestClipRun))"
            guard let rails = m.clipRails else {
                return .defect(BellDefect(.clipping, "\(m.clippedSamples) samples at full scale \(runs)"))
            }
            return .defect(
                BellDefect(.clipping, "\(clippedAt(rails)): \(m.clippedSamples) samples on its rails \(runs)"))
        })

    /// How a clipping on a rail below full scale is named wherever it is reported (`bells audition`'s `clipping`,
    /// `assets check`'s `bell-samples`): "clipped at -6.0 dBFS"; each rail's level when they differ ("clipped at
    /// -0.1 dBFS (positive) and full scale (negative)"); the side when only one holds a rail ("clipped at -6.0 dBFS
    /// (positive tops)"). `levels` are ``ClipRails/levels``.
    static func clippedAt(_ levels: [Double?]) -> String {
        func named(_ level: Double) -> String { level == 0 ? "full scale" : "\(f(level)) dBFS" }
        let sides = zip(["positive", "negative"], levels).compactMap { side, l in l.map { (side, named($0)) } }
        if sides.count == 1 { return "clipped at \(sides[0].1) (\(sides[0].0) tops)" }
        if Set(sides.map(\.1)).count == 1 { return "clipped at \(sides[0].1)" }
        return "clipped at " + sides.map { "\($0.1) (\($0.0))" }.joined(separator: " and ")
    }

    static let truncatedTail = BellDefectRule(
        kind: .truncatedTail, severity: .reject, fix: nil,
        when: "`ringingAtEnd` and `cutLevel` ≥ **\(limit(BellDefect.cutAudible)) dB** re peak",
        principle: "stopped at −40 dB the sound stops at 35–40 dB SPL, clearly over the room: the cut is heard",
        note: BellDefectRule.NoteRow(
            when: "`ringingAtEnd` with `cutLevel` \(limit(BellDefect.cutAudible)) … \(limit(BellDefect.cutNoted)) dB",
            why: "at about the room's level: listed in `notes` (\"tail: … listen at a high level\"), never a defect"),
        thresholds: [
            RuleThreshold(
                "cutLevel", "dB re peak", limit: BellDefect.cutAudible, firesAbove: true, inclusive: true, step: 0.1
            ) {
                x in
                Measures.probe {
                    $0.decay.ringingAtEnd = true
                    ($0.decay.cutLevel, $0.decay.endLevel, $0.decay.endSlope) = (x, x, -10)
                }
            },
            RuleThreshold("ringingAtEnd", "flag", limit: 0, firesAbove: true, step: 1) { x in
                Measures.probe {
                    $0.decay.ringingAtEnd = x > 0
                    ($0.decay.cutLevel, $0.decay.endLevel, $0.decay.endSlope) = (-20, -20, -10)
                }
            },
        ],
        judge: { s in
            let m = s.metrics
            guard m.ringingAtEnd else { return nil }
            // Within half a dB of the peak (a 6 ms click cut at its loudest) is at it: "-0 dB below" was how it read.
            let below = -m.cutLevel
            let level = below < 0.5 ? "at its peak" : "\(f(below, 0)) dB below its peak"
            // What the level did at the end (before a fade, if any), in words: a rise is no decay (a word's last
            // syllable, a swell).
            let before =
                m.endSlope < -1
                ? "decaying \(f(-m.endSlope, 0)) dB/s" : m.endSlope > 1 ? "rising \(f(m.endSlope, 0)) dB/s" : "steady"
            let e =
                m.endsWithFade && m.cutLevel > m.endLevel
                ? "faded out while still ringing \(level) (\(before))"
                : m.endSlope < -1
                    ? "stops while still sounding \(level) (\(before))"
                    : "stops while still sounding \(level), no longer decaying: a sustained sound cut off"
            if m.cutLevel >= BellDefect.cutAudible { return .defect(BellDefect(.truncatedTail, e)) }
            return .note(
                "tail: \(e); quiet enough (under −40 dB) not to be heard as a cut in a quiet room, listen at a high level"
            )
        })

    static let noiseFloor = BellDefectRule(
        kind: .noiseFloor, severity: .reject, fix: nil,
        when: "`noiseFloor` within **\(limit(-BellDefect.noiseAudible)) dB** of `peakLevel`, and at least "
            + "**\(limit(DecayAnalysis.overFloor)) dB** under it",
        principle:
            "50 dB under the peak the hiss sits at the room's noise; closer it is heard under the ring; a floor the "
            + "sound never rises 10 dB over is the sound itself (a steady noise), not hiss under it",
        thresholds: [
            RuleThreshold(
                "noiseFloor − peakLevel", "dB", limit: BellDefect.noiseAudible, firesAbove: true, inclusive: true,
                step: 0.1
            ) { x in Measures.probe { ($0.decay.peakLevel, $0.decay.noiseFloor) = (0, x) } },
            RuleThreshold(
                "peakLevel − noiseFloor", "dB", limit: DecayAnalysis.overFloor, firesAbove: true, inclusive: true,
                step: 0.1
            ) { x in Measures.probe { ($0.decay.peakLevel, $0.decay.noiseFloor) = (0, -x) } },
        ],
        judge: { s in
            let m = s.metrics
            guard let nf = m.noiseFloor, nf - m.peakLevel >= BellDefect.noiseAudible,
                m.peakLevel - nf >= DecayAnalysis.overFloor
            else { return nil }
            let what = m.decay.humFrequency.map { "steady \(f($0, 0)) Hz mains hum" } ?? "steady noise"
            return .defect(
                BellDefect(.noiseFloor, "\(what) at \(f(nf)) dBFS, \(f(m.peakLevel - nf, 0)) dB under the peak"))
        })

    static let damagedStream = BellDefectRule(
        kind: .damagedStream, severity: .reject, fix: nil,
        when: "the decoder stopped before the stream's end",
        principle: "the file is damaged; what decoded is measured",
        thresholds: [
            RuleThreshold("truncatedStream", "flag", limit: 0, firesAbove: true, step: 1) { x in
                Measures.probe { $0.sound.truncatedStream = x > 0 }
            }
        ],
        judge: { s in
            let m = s.metrics
            guard m.truncatedStream else { return nil }
            return .defect(
                BellDefect(
                    .damagedStream,
                    "the stream ends early (damaged or cut file): \(f(m.duration, 2)) s decoded and measured"))
        })

    static let nonFinite = BellDefectRule(
        kind: .nonFinite, severity: .reject, fix: nil,
        when: "any NaN/∞ sample",
        principle: "the file is corrupt; the sound around them is measured with them set to 0",
        thresholds: [
            RuleThreshold("nonFiniteSamples", "samples", limit: 0, firesAbove: true, step: 1) { x in
                Measures(.reference, nonFiniteSamples: Int(x), firstNonFinite: x > 0 ? 0.5 : nil)
            }
        ],
        judge: { s in
            guard s.nonFiniteSamples > 0 else { return nil }
            let at = String(format: "%.3f", s.firstNonFinite ?? 0)
            return .defect(
                BellDefect(.nonFinite, "\(s.nonFiniteSamples) NaN or infinite samples, the first at \(at) s"))
        })

    // MARK: - Fixable: one command mends it

    static let truePeak = BellDefectRule(
        kind: .truePeak, severity: .fixable, fix: fixLoudness,
        when: "above **\(limit(BellDefect.truePeakLimit)) dBTP**",
        principle: "may clip in a codec or DAC (EBU R 128)",
        thresholds: [
            RuleThreshold("loudness.truePeak", "dBTP", limit: BellDefect.truePeakLimit, firesAbove: true, step: 0.01) {
                x in Measures.probe { $0.sound.loudness.truePeak = x }
            }
        ],
        judge: { s in
            guard let tp = s.metrics.loudness.truePeak, tp > BellDefect.truePeakLimit else { return nil }
            return .defect(
                BellDefect(
                    .truePeak,
                    "true peak \(over(tp, BellDefect.truePeakLimit)) dBTP (limit \(String(format: "%g", BellDefect.truePeakLimit)) dBTP)"
                ))
        })

    static let leadingSilence = BellDefectRule(
        kind: .leadingSilence, severity: .fixable, fix: fixTrim,
        when:
            "more than **\(limit(BellDefect.leadingSilenceLimit * 1000)) ms** before the sound is heard (`leadingSilence`: "
            + "its first sample over a line 60 dB under its peak, −60 dBFS at full scale, from where it rises over the "
            + "room's level, its first 10 ms within "
            + "**\(limit(-OnsetAnalysis.roomLevel)) dB** of its loudest)",
        principle:
            "sound lagging its event by more than 185 ms is past ITU-R BT.1359's acceptability threshold: the bell comes late",
        thresholds: [
            RuleThreshold("leadingSilence", "s", limit: BellDefect.leadingSilenceLimit, firesAbove: true, step: 0.001) {
                x in Measures.probe { $0.sound.leadingSilence = x }
            }
        ],
        judge: { s in
            let m = s.metrics
            guard m.leadingSilence > BellDefect.leadingSilenceLimit else { return nil }
            return .defect(
                BellDefect(.leadingSilence, "\(f(m.leadingSilence, 2)) s of silence or room tone before the strike"))
        })

    static let dcOffset = BellDefectRule(
        kind: .dcOffset, severity: .fixable, fix: fixTrim,
        when: "\\|mean\\| above **\(limit(SignalDefectScan.audibleDCOffset * 100)) %** of full scale (−40 dBFS)",
        principle: "starting or stopping the file steps the output by as much: a click as loud as an audible cut",
        thresholds: [
            RuleThreshold(
                "dcOffset", "fraction of full scale", limit: SignalDefectScan.audibleDCOffset, firesAbove: true,
                step: 1e-4
            ) {
                x in Measures.probe { $0.sound.dcOffset = x }
            }
        ],
        judge: { s in
            let m = s.metrics
            guard m.dcOffset > SignalDefectScan.audibleDCOffset else { return nil }
            return .defect(BellDefect(.dcOffset, "DC offset of \(f(m.dcOffset * 100)) % of full scale"))
        })

    static let tooQuiet = BellDefectRule(
        kind: .tooQuiet, severity: .fixable, fix: fixLoudness,
        when: "`integratedPadded` below **\(limit(BellDefect.quietLoudness)) LUFS** (or none)",
        principle:
            "15 LU under the −20 LUFS bells are normalised to: the gain lifts the file's own noise by as much",
        thresholds: [
            RuleThreshold(
                "loudness.integratedPadded", "LUFS", limit: BellDefect.quietLoudness, firesAbove: false, step: 0.01
            ) { x in Measures.probe { $0.sound.loudness.integratedPadded = x } }
        ],
        judge: { s in
            guard let i = s.metrics.loudness.integratedPadded else {
                return .defect(BellDefect(.tooQuiet, "no integrated loudness: every 400 ms block is below −70 LUFS"))
            }
            guard i < BellDefect.quietLoudness else { return nil }
            return .defect(BellDefect(.tooQuiet, "integrated loudness \(f(i)) LUFS (padded)"))
        })

    static let tooLoud = BellDefectRule(
        kind: .tooLoud, severity: .fixable, fix: fixLoudness,
        when: "`integratedPadded` above **\(limit(BellDefect.loudLoudness)) LUFS**",
        principle:
            "10 LU over −20 LUFS, where a struck sound's true peak (its crest is 15–20 dB over its loudness) is at or past full scale",
        thresholds: [
            RuleThreshold(
                "loudness.integratedPadded", "LUFS", limit: BellDefect.loudLoudness, firesAbove: true, step: 0.01
            ) { x in Measures.probe { $0.sound.loudness.integratedPadded = x } }
        ],
        judge: { s in
            guard let i = s.metrics.loudness.integratedPadded, i > BellDefect.loudLoudness else { return nil }
            return .defect(BellDefect(.tooLoud, "integrated loudness \(f(i)) LUFS (padded)"))
        })

    /// The command that inverts a channel's polarity: out-of-phase channels come back in phase.
    static let fixInvert = "enso convert IN OUT --invert-channel 2"
    /// The command that copies channel `n` (1 = left) to every channel: the live one replaces a dead one.
    static func fixUseChannel(_ n: Int) -> String { "enso convert IN OUT --use-channel \(n)" }

    static let channel = BellDefectRule(
        kind: .channel, severity: .fixable, fix: fixInvert + " (a dead channel: --use-channel N)",
        fixes: [fixInvert, fixUseChannel(1), fixUseChannel(2)],
        when:
            "correlation < \(limit(BellDefect.outOfPhase)), or one channel ≥ \(limit(-BellDefect.quietChannel)) dB quieter",
        principle:
            "the mono mix (a phone speaker) loses the sound: the evidence says how much, (1 + r² + 2·c·r) / (2·(1 + r²)) in dB from correlation c and balance r (\"the mono mix cancels out\"); inverting one channel brings out-of-phase channels back in phase, and the live channel copied to both replaces a dead one (the defect's `fix` names it)",
        thresholds: [
            RuleThreshold(
                "channelCorrelation", "correlation", limit: BellDefect.outOfPhase, firesAbove: false, step: 0.01
            ) {
                x in
                Measures.probe { ($0.sound.channels, $0.sound.channelCorrelation, $0.sound.channelBalance) = (2, x, 0) }
            },
            RuleThreshold("channelBalance", "dB", limit: BellDefect.quietChannel, firesAbove: false, step: 0.1) { x in
                Measures.probe {
                    ($0.sound.channels, $0.sound.channelCorrelation, $0.sound.channelBalance) = (2, 0.9, x)
                    $0.sound.quietestChannel = 1
                }
            },
        ],
        judge: { s in
            let m = s.metrics
            // A dead channel is mended by the live one, whatever the correlation (inverting would leave it dead).
            let dead = m.channels >= 2 && m.channelBalance < BellDefect.quietChannel
            let live = dead ? fixUseChannel(m.quietestChannel == 0 ? 2 : 1) : nil
            if let c = m.channelCorrelation, c < BellDefect.outOfPhase {
                let loss = BellDefect.monoMixLoss(correlation: c, balance: m.channelBalance)
                let lost = loss > BellDefect.mixCancels ? "is \(f(-loss)) dB quieter than the channels" : "cancels out"
                let what =
                    c < BellDefect.invertedCopies ? "channels are inverted copies" : "channels are largely out of phase"
                return .defect(
                    BellDefect(
                        .channel, "\(what) (correlation \(f(c, 2))): the mono mix \(lost), as on a phone speaker",
                        fix: live ?? fixInvert))
            }
            guard dead else { return nil }
            let which = m.quietestChannel.map { $0 == 0 ? "the left channel" : "the right channel" } ?? "one channel"
            let how =
                m.channelBalance <= SignalDefectScan.silentChannelBalance
                ? "is digitally silent" : "is \(f(-m.channelBalance, 0)) dB quieter than the other"
            return .defect(BellDefect(.channel, "\(which) \(how)", fix: live))
        })
}
