import AudioDSP
import Foundation

/// A fault found in a bell candidate, how bad it is, the evidence in words, and for a fixable one the command that
/// mends it.
///
/// Each kind is a rule of ``BellDefectRules`` (its thresholds, severity, fix and principle; docs/bells.md's table
/// is made of them). The thresholds below carry their reasons.
public struct BellDefect: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case clipping, truePeak = "true-peak", leadingSilence = "leading-silence", dcOffset = "dc-offset"
        case truncatedTail = "truncated-tail", noiseFloor = "noise-floor", tooQuiet = "too-quiet"
        case tooLoud = "too-loud", channel, damagedStream = "damaged-stream", nonFinite = "non-finite"

        /// Whether one command mends it (then it is `fixable`); the rest spoil the recording (`reject`).
        public var severity: Severity { BellDefectRules.rule(self).severity }
    }

    /// `fixable`: one command mends it; `reject`: the recording itself is spoilt.
    public enum Severity: String, Sendable, Codable, Comparable {
        case fixable, reject
        public static func < (a: Severity, b: Severity) -> Bool { a == .fixable && b == .reject }
    }

    public var kind: Kind
    public var severity: Severity
    /// What was measured, in words ("1.50 s of silence or room tone before the strike").
    public var evidence: String
    /// The command that mends a fixable defect (`enso bells normalize IN OUT`; in an audition's row, the command line
    /// for its file: ``fixCommand(for:normalizeTarget:)``); nil for a reject, and in a row whose file no command
    /// mends as it is (NaN or infinite samples, a damaged stream, a sound too short for `normalize`'s integrated
    /// loudness).
    public var fix: String?

    /// A defect of `kind` with its evidence; `fix` is the command that mends this one when it says more than the
    /// rule's (which channel to use or to invert), else the rule's.
    public init(_ kind: Kind, _ evidence: String, fix: String? = nil) {
        self.kind = kind
        self.severity = kind.severity
        self.evidence = evidence
        self.fix = fix ?? BellDefectRules.rule(kind).fix
    }

    /// A cut at or above this level (dB re the envelope peak) is heard: a bell normalised for a quiet room peaks
    /// around 75–80 dB SPL, so a sound stopped at −40 dB stops at 35–40 dB SPL, clearly above a quiet room's
    /// 25–30 dBA. At −50 dB it stops at about the room's level (a note), at −60 dB below it (not heard).
    public static let cutAudible = -40.0
    /// The lowest cut level worth a note (dB re peak): the room's level (``OnsetAnalysis/roomLevel``).
    public static let cutNoted = OnsetAnalysis.roomLevel
    /// A steady noise floor at or above this level re the envelope peak is heard as hiss under the ring, in the same
    /// quiet room at the same level (the floor 50 dB down sits at about the room's own noise:
    /// ``OnsetAnalysis/roomLevel``).
    public static let noiseAudible = OnsetAnalysis.roomLevel
    /// The padded integrated loudness under which a bell is too quiet (LUFS): 15 LU under the −20 LUFS it is
    /// normalised to, a gain that lifts the file's own noise and quantisation by as much.
    public static let quietLoudness = -35.0
    /// The padded integrated loudness above which a bell is too loud (LUFS): 10 LU over −20 LUFS, where a struck
    /// sound's true peak (its crest is 15–20 dB over its loudness) is at or past full scale.
    public static let loudLoudness = -10.0
    /// Silence before the strike longer than this (s) is noticed: sound lagging its event by more than 185 ms is
    /// beyond ITU-R BT.1359's acceptability threshold.
    public static let leadingSilenceLimit = 0.185
    /// True peak above this (dBTP) may clip in a codec or a converter (EBU R 128).
    public static let truePeakLimit = -1.0

    /// A channel correlation under this is out of phase: the two channels cancel more than they add, and the mono
    /// mix (a phone speaker) is 6 dB or more under the channels. Inverting one channel turns the correlation
    /// positive (c → −c), and the mix is whole again: `enso convert --invert-channel 2` mends it.
    public static let outOfPhase = -0.5
    /// A correlation under this says the channels are inverted copies (the evidence's words; the defect is the same).
    public static let invertedCopies = -0.95
    /// A channel this far (dB) under the other carries a hundredth of its power: the mono mix loses the sound's
    /// other half, and on headphones it sits in one ear. What it holds is a hundredth of the sound, so the live
    /// channel alone, copied to both, loses nothing one hears: `enso convert --use-channel N` mends it.
    public static let quietChannel = -20.0
    /// A mono mix this far (dB) under the channels is said to cancel out: that is under any level the audition
    /// measures (its silence is −60 dBFS).
    public static let mixCancels = -60.0

    /// Every defect the measures show, in the order of ``Kind`` (``BellDefectRules``), and notes on what is worth a
    /// listen but is no defect (a cut between −40 and −50 dB).
    public static func detect(_ measures: BellDefectRule.Measures) -> (defects: [BellDefect], notes: [String]) {
        var defects: [BellDefect] = []
        var notes: [String] = []
        for finding in BellDefectRules.findings(measures) {
            switch finding {
            case .defect(let d): defects.append(d)
            case .note(let n): notes.append(n)
            }
        }
        return (defects, notes)
    }

    /// The level of the mono mix (L + R) / 2 relative to the mean level of the two channels, in dB, from their
    /// correlation `c` and balance `b` (quieter channel's RMS re the louder, dB): with powers 1 and r² (r = 10^(b/20)),
    /// the mix holds (1 + r² + 2·c·r) / 4 against (1 + r²) / 2. 0 dB for identical channels, −∞ for inverted copies.
    static func monoMixLoss(correlation c: Double, balance b: Double) -> Double {
        let r = pow(10, min(0, b) / 20)
        let ratio = (1 + r * r + 2 * c * r) / (2 * (1 + r * r))
        return ratio > 0 ? 10 * log10(ratio) : -.infinity
    }
}
