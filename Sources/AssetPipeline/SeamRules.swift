import AudioDSP
import Foundation

/// The registry of seam rules, one per ``SeamMetrics/Name``, in the order docs/loops.md numbers them; its table is
/// their rows (`JudgmentDocsTests`), and `JudgmentRuleTests` judges each on both sides of both limits.
///
/// A seam is judged against the file's own junctions (``SeamMetrics`` measures the seam against the 99th percentile
/// of the same measure at 512 ordinary junctions). It warns where one ordinary junction in about 300 would reach and
/// fails past one in 1000: the p99.9, extrapolated from the p99 with the tail the measure has, since a sample of 512
/// cannot estimate its own p99.9 (``exponentialTail``, ``gaussianTail``).
public enum SeamRules {
    /// Ratio to p99 past which a measure with an exponential tail (step and energy ratios of impulsive material) is
    /// rarer than one ordinary junction in 300 (warn) and in 1000 (fail): ln 300 / ln 100 ≈ 1.25 and
    /// ln 1000 / ln 100 = 1.5.
    public static let exponentialTail = (warn: 1.25, fail: 1.5)

    /// Ratio to p99 past which a near-Gaussian measure (a level difference in dB) is rarer than one ordinary junction
    /// in 300 (2.94 σ against 2.58 σ: 1.14) and in 1000 (3.29 σ: 1.28).
    public static let gaussianTail = (warn: 1.14, fail: 1.28)

    /// The smallest level step that warns: 0.5 dB, the just-noticeable difference in level for broadband sound.
    static let levelJustNoticeable = 0.5

    /// The smallest level step that fails: 0.75 dB, half as much again.
    static let levelClearlyHeard = 0.75

    public static let all: [SeamRule] = SeamMetrics.Name.allCases.map(rule)

    /// The rule of `name`.
    public static func rule(_ name: SeamMetrics.Name) -> SeamRule {
        switch name {
        case .continuity: return continuity
        case .spectral: return spectral
        case .level: return level
        case .click: return click
        case .dcOffset: return dcOffset
        case .rhythm: return rhythm
        case .dip: return dip
        }
    }

    /// The evidence a rule was not written for: a programmer's error.
    static func unexpected(_ evidence: SeamMetrics.Evidence, _ name: SeamMetrics.Name) -> Never {
        preconditionFailure("\(evidence) is no evidence of the \(name.rawValue) metric")
    }

    /// " on channel N" for a multichannel file's worst channel (`nil`: a mono file, nothing).
    static func onChannel(_ channel: Int?) -> String { channel.map { " on channel \($0 + 1)" } ?? "" }

    /// What the seam was judged against, in words: `percentile` (the 99th percentile of the loop's ordinary
    /// junctions), or, when the places of the loop's own pattern set the reference (`pattern`, its period in seconds:
    /// ``SeamMetrics/Measure/pattern``), `atPattern`; each followed by `value` (the reference, when the sentence
    /// gives it), then for the pattern where its places are.
    static func own(_ pattern: Double?, _ percentile: String, _ atPattern: String, _ value: String? = nil) -> String {
        let amount = value.map { " " + $0 } ?? ""
        guard let pattern else { return percentile + amount }
        return atPattern + amount + String(format: " where its %.3f s pattern repeats", pattern)
    }

    // MARK: - The seven rules

    static let continuity = SeamRule(
        .continuity, unit: "ratio", pass: exponentialTail.warn, fail: exponentialTail.fail,
        value: "seam step / p99 of the loop's steps (or a sound's own, where one starts)", needs: "16 frames",
        principle:
            "a step at the wrap rarer than one ordinary junction in 300 of the loop (warn) or in 1000 (fail) is heard as a jump",
        typical: .step(jump: 0.01, channel: nil)
    ) { value, evidence, limits, pattern in
        guard case .step(let jump, let channel, let sound) = evidence else { unexpected(evidence, .continuity) }
        let reference =
            sound.map { String(format: "the largest step of the sound that starts there, %.4f", $0) }
            ?? own(pattern, "the step 99 % of the loop's junctions stay under", "the loop's own step")
        if value <= limits.pass {
            return String(
                format: "the waveform continues smoothly across the seam (its step is %.2f× %@)", value, reference)
        }
        // Against the pattern's places and the sound that starts at the seam the jumps compare directly
        // (``SeamMetrics/continuity(_:pattern:)``).
        return String(
            format: "the waveform jumps by %.4f at the seam%@ (%.1f× %@%@)", jump, onChannel(channel), value, reference,
            pattern == nil && sound == nil ? ", each against its own ±5 ms" : "")
    }

    static let spectral = SeamRule(
        .spectral, unit: "ratio", pass: exponentialTail.warn, fail: exponentialTail.fail,
        value: "seam change / p99 of the loop's changes",
        needs: "0.1 s (20 pairs of adjacent 21 ms frames, a sixteenth of a frame apart under 0.24 s)",
        principle:
            "a change of timbre across the seam rarer than one moment in 300 of the loop (warn) or in 1000 (fail) is heard as a splice",
        typical: .spectrum(change: 2, reference: 2)
    ) { ratio, evidence, limits, pattern in
        guard case .spectrum(let change, let reference) = evidence else { unexpected(evidence, .spectral) }
        if ratio > limits.pass {
            return String(
                format: "the spectrum changes abruptly at the seam (%.1f dB, %.2f× %@)", change, ratio,
                own(pattern, "the change 99 % of the loop's moments stay under", "the loop's own change"))
        }
        let others = own(
            pattern, "99 % of the loop's changes stay under", "the loop's own changes reach",
            String(format: "%.1f dB", reference))
        if change > reference {
            // Past the loop's own p99 but within the line: said so, not "no more than elsewhere".
            return String(
                format:
                    "the spectrum changes by %.1f dB at the seam, a little more than %@ but not abruptly (%.2f×; abrupt from %.2f×)",
                change,
                own(
                    pattern, String(format: "99 %% of the loop's changes (under %.1f dB)", reference),
                    String(format: "the loop's own changes (%.1f dB)", reference)),
                ratio, limits.pass)
        }
        return String(
            format: "the spectrum changes by %.1f dB at the seam, no more than elsewhere (%@)", change, others)
    }

    /// The level's limits rise with the file's own steps (``gaussianTail`` times their p99), never under the
    /// just-noticeable difference.
    static let level = SeamRule(
        .level, unit: "dB", pass: levelJustNoticeable, fail: levelClearlyHeard, value: "dB",
        passCell:
            "max(\(BellDefectRules.limit(levelJustNoticeable)), \(BellDefectRules.limit(gaussianTail.warn)) × p99)",
        failCell: "max(\(BellDefectRules.limit(levelClearlyHeard)), \(BellDefectRules.limit(gaussianTail.fail)) × p99)",
        needs: "0.1 s (an eighth of a loop under 0.8 s)",
        principle:
            "a level step rarer than the loop's own (one in 300, one in 1000), and never under the just-noticeable difference, is heard as a jump in loudness",
        typical: .level(step: 0.1, reference: 0, window: 0.4),
        limitsOf: { evidence in
            guard case .level(_, let reference, _, _) = evidence else { unexpected(evidence, .level) }
            return (
                max(levelJustNoticeable, gaussianTail.warn * reference),
                max(levelClearlyHeard, gaussianTail.fail * reference)
            )
        }
    ) { value, evidence, limits, pattern in
        guard case .level(let step, let reference, let window, let period) = evidence else {
            unexpected(evidence, .level)
        }
        let sides = String(
            format: period ? "%.0f ms each side, its pattern's period" : "%.0f ms each side", window * 1000)
        let others = own(
            pattern, "99 % of the loop's own steps stay under", "the loop's own steps reach",
            String(format: "%.2f dB", reference))
        if value > limits.pass {
            return String(
                format: "level %@ %.1f dB across the seam (%@; %@)", step < 0 ? "drops" : "rises", value, sides,
                others)
        }
        return String(format: "level changes %.2f dB across the seam (%@; %@)", step, sides, others)
    }

    /// A click warns 6 dB over what one moment in a thousand of the loop reaches and fails 12 dB over it (sixteen
    /// times the energy, where it stands clear of the material's own transients).
    static let click = SeamRule(
        .click, unit: "dB", pass: 6, fail: 12, value: "dB over the p99.9 window", needs: "~20 ms",
        principle: "high-band energy on the seam 6 dB over what one moment in a thousand reaches is a click",
        typical: .click
    ) { ratio, evidence, limits, pattern in
        guard case .click = evidence else { unexpected(evidence, .click) }
        let reference = own(pattern, "what one moment in a thousand of the loop reaches", "the loop's own")
        if ratio > limits.pass {
            return String(format: "a click at the seam: high-band energy %.1f dB above %@", ratio, reference)
        }
        // No "-0.0 dB": a seam a few hundredths under its reference reads as level with it.
        return "high-band energy at the seam is \(RuleFigure.fixed(ratio, decimals: 1)) dB relative to \(reference)"
    }

    /// The one DC threshold of every command, in %. A constant offset never fails: its failure limit is full scale.
    static let dcOffset = SeamRule(
        .dcOffset, unit: "%", pass: SignalDefectScan.audibleDCOffset * 100, fail: 100, value: "% of full scale",
        failCell: "never (100)", needs: "—",
        principle:
            "starting or stopping the file steps the output by as much: a click as loud as an audible cut; a constant offset never breaks the seam itself",
        typical: .offset(mean: 0.001, channel: nil)
    ) { _, evidence, _, _ in
        guard case .offset(let mean, let channel) = evidence else { unexpected(evidence, .dcOffset) }
        let db = 20 * log10(max(abs(mean), 1e-12))
        return String(format: "DC offset of %+.2f %% (%.0f dBFS)%@", mean * 100, db, onChannel(channel))
    }

    /// The rhythm value is the share of the pulse's self-similarity that survives the seam (for events, 0.5 at the
    /// timing allowance and 0.8 at 40 % of it): under 0.8 a careful listener hears the beat stumble, under 0.5 anyone.
    static let rhythm = SeamRule(
        .rhythm, unit: "fraction", direction: .lowerIsWorse, pass: 0.8, fail: 0.5, value: "fraction (lower is worse)",
        needs: "a pulse (events at a period, a repeating texture), events at a steady pulse, or a steady pitch",
        principle: "a pulse that loses its self-similarity across the seam skips a beat at every wrap",
        typical: .pulse(period: 0.5)
    ) { value, evidence, limits, pattern in
        let breaks = value < limits.pass
        switch evidence {
        case .pulse(let period):
            // Against the ordinary points, or the least its pattern's places keep (a bar line's).
            let usual = own(pattern, "its usual self-similarity", "the self-similarity it keeps")
            if breaks {
                return String(
                    format: "the %.3f s pulse breaks at the seam (%.0f %% of %@ survives)", period,
                    max(value, 0) * 100, usual)
            }
            return String(
                format: "the %.3f s pulse carries on across the seam (%.0f %% of %@)", period, value * 100, usual)
        case .events(let period, let across, let beats, let off, let jitter):
            let grid = beats > 1 ? String(format: " (%.0f beats)", beats) : ""
            let how = String(
                format: "the interval across it is %.3f s%@, %.0f %% of a beat %@ (the loop's own stay within %.0f %%)",
                across, grid, abs(off), off < 0 ? "short" : "long", jitter)
            let what = breaks ? "skips at the seam" : "carries on across the seam"
            return String(format: "the events' %.3f s pulse ", period) + what + ": " + how
        case .phase(let period, let hertz):
            if breaks {
                return String(
                    format:
                        "the waveform's %.1f ms period (%.0f Hz) breaks at the seam: its phase jumps (%.0f %% of its usual self-similarity survives)",
                    period * 1000, hertz, max(value, 0) * 100)
            }
            return String(
                format:
                    "no pulse; the waveform's %.1f ms period (%.0f Hz) carries on across the seam (%.0f %% of its usual self-similarity)",
                period * 1000, hertz, value * 100)
        default: unexpected(evidence, .rhythm)
        }
    }

    /// A dip warns 1.5 dB deeper than the loop's own deepest and fails 3 dB deeper (half the power, for a few ms: an
    /// audible drop in material that never drops so far); digital silence at the seam measures 60 dB.
    static let dip = SeamRule(
        .dip, unit: "dB", pass: 1.5, fail: 3.0, value: "dB over the p99 dip",
        needs: "0.1 s (half of a loop under 0.8 s; digital silence: any length)",
        principle: "a dip at the seam deeper than the loop's own is heard as a gap or a fade",
        typical: .dip(depth: 3, reference: 3, window: 0.02)
    ) { value, evidence, limits, pattern in
        switch evidence {
        case .gap(let silence, let elsewhere):
            let others =
                elsewhere == 0
                ? "the loop is never digitally silent elsewhere"
                // A run of a sample or two (a zero crossing on the grid) read as "0.0 ms" beside "never silent".
                : String(
                    format: elsewhere < 0.0001 ? "elsewhere at most %.3f ms" : "elsewhere at most %.1f ms",
                    elsewhere * 1000)
            return String(format: "%.1f ms of digital silence at the seam (a gap: %@)", silence * 1000, others)
        case .dip(let depth, let reference, let window):
            let scale = String(format: "%.0f ms", window * 1000)
            let others = own(
                pattern, "99 % of the loop's own dips stay under", "the loop's own dips reach",
                String(format: "%.1f dB", reference))
            if value > limits.pass {
                return String(
                    format:
                        "level dips %.1f dB at the seam (%@ windows; a fade, a gap or a dropout at the loop's ends); %@",
                    depth, scale, others)
            }
            if depth > reference {
                // Past the loop's own p99 but within the line: said so, not "no dip".
                return String(
                    format:
                        "a dip of %.1f dB at the seam (%@ windows), %.1f dB past %@: too little to be heard as a gap (from %.1f dB past)",
                    depth, scale, depth - reference,
                    own(
                        pattern, String(format: "what 99 %% of the loop's own dips reach (%.1f dB)", reference),
                        String(format: "the loop's own dips (%.1f dB)", reference)),
                    limits.pass)
            }
            return String(format: "no dip at the seam (%.1f dB in %@ windows; %@)", depth, scale, others)
        case .fade(let depth, let reference, let window):
            if value > limits.pass {
                return String(
                    format:
                        "the %.0f ms around the seam sit %.1f dB under the loop's median level (a fade at the loop's ends: the sound goes away at every wrap); the loop's own never fall more than %.1f dB under it",
                    window * 1000, depth, reference)
            }
            return String(
                format:
                    "no dip at the seam (the %.0f ms around it %.1f dB under the loop's median level; the loop's own at most %.1f dB)",
                window * 1000, depth, reference)
        default: unexpected(evidence, .dip)
        }
    }
}
