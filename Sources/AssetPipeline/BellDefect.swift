import Foundation

/// A fault found in a bell candidate, how bad it is, the evidence in words, and for a fixable one the command that
/// mends it.
///
/// Kinds, severities and thresholds (docs/bells.md gives each one's reason):
///
/// | kind | severity | when |
/// |---|---|---|
/// | `clipping` | reject | a run of ≥ 3 samples at full scale (a flattened waveform top, not a peak that touches it) |
/// | `truncated-tail` | reject | still ringing where the file stops it, at ≥ −40 dB re peak (``cutAudible``); −40 … −50 dB is a note |
/// | `noise-floor` | reject | a steady noise floor within 50 dB of the peak (``noiseAudible``) |
/// | `channel` | reject | channels out of phase (correlation < −0.5; the evidence gives what the mono mix loses) or one 20 dB quieter |
/// | `non-finite` | reject | any NaN or infinite sample |
/// | `damaged-stream` | reject | the decoder stopped before the stream's end (what was decoded is measured) |
/// | `true-peak` | fixable | above −1 dBTP |
/// | `too-loud` | fixable | padded integrated loudness above −10 LUFS |
/// | `too-quiet` | fixable | padded integrated loudness below −35 LUFS (or none) |
/// | `leading-silence` | fixable | more than 185 ms before the strike |
/// | `dc-offset` | fixable | more than 1 % of full scale (−40 dBFS) |
public struct BellDefect: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case clipping, truePeak = "true-peak", leadingSilence = "leading-silence", dcOffset = "dc-offset"
        case truncatedTail = "truncated-tail", noiseFloor = "noise-floor", tooQuiet = "too-quiet"
        case tooLoud = "too-loud", channel, nonFinite = "non-finite", damagedStream = "damaged-stream"

        /// Whether `enso bells normalize` mends it (then it is `fixable`); the rest spoil the recording (`reject`).
        public var severity: Severity {
            switch self {
            case .truePeak, .tooLoud, .tooQuiet, .leadingSilence, .dcOffset: return .fixable
            case .clipping, .truncatedTail, .noiseFloor, .channel, .nonFinite, .damagedStream: return .reject
            }
        }
    }

    /// `fixable`: one command mends it; `reject`: the recording itself is spoilt.
    public enum Severity: String, Sendable, Codable, Comparable {
        case fixable, reject
        public static func < (a: Severity, b: Severity) -> Bool { a == .fixable && b == .reject }
    }

    public var kind: Kind
    public var severity: Severity
    /// What was measured, in words ("1.50 s of silence before the strike").
    public var evidence: String
    /// The command that mends a fixable defect (`enso bells normalize IN OUT`); nil for a reject.
    public var fix: String?

    public init(_ kind: Kind, _ evidence: String) {
        self.kind = kind
        self.severity = kind.severity
        self.evidence = evidence
        self.fix = kind.severity == .fixable ? Self.fixCommand(kind) : nil
    }

    /// The command that mends a fixable `kind`.
    static func fixCommand(_ kind: Kind) -> String {
        switch kind {
        case .leadingSilence, .dcOffset: return "enso bells trim IN OUT"
        case .tooQuiet, .tooLoud, .truePeak: return "enso bells normalize IN OUT"
        default: return ""
        }
    }

    /// A cut at or above this level (dB re the envelope peak) is heard: a bell normalised for a quiet room peaks
    /// around 75–80 dB SPL, so a sound stopped at −40 dB stops at 35–40 dB SPL, clearly above a quiet room's
    /// 25–30 dBA. At −50 dB it stops at about the room's level (a note), at −60 dB below it (not heard).
    public static let cutAudible = -40.0
    /// The lowest cut level worth a note (dB re peak).
    public static let cutNoted = -50.0
    /// A steady noise floor at or above this level re the envelope peak is heard as hiss under the ring, in the same
    /// quiet room at the same level (the floor 50 dB down sits at about the room's own noise).
    public static let noiseAudible = -50.0
    /// The padded integrated loudness under which a bell is too quiet (LUFS): 15 LU under the −20 LUFS it is
    /// normalised to, a gain that lifts the file's own noise and quantisation by as much.
    public static let quietLoudness = -35.0
    /// The padded integrated loudness above which a bell is too loud (LUFS): 10 LU over −20 LUFS, where a struck
    /// sound's true peak (its crest is 15–20 dB over its loudness) is at or past full scale.
    public static let loudLoudness = -10.0
    /// Silence before the strike longer than this (s) is noticed: sound lagging its event by more than 185 ms is
    /// beyond ITU-R BT.1359's acceptability threshold.
    public static let leadingSilenceLimit = 0.185
    /// DC offset above this share of full scale (1 %, −40 dBFS): starting or stopping the file steps the output by
    /// as much, a click as loud as an audible cut.
    public static let dcLimit = 0.01
    /// True peak above this (dBTP) may clip in a codec or a converter (EBU R 128).
    public static let truePeakLimit = -1.0

    /// Every defect the metrics show, in the order of ``Kind``, and notes on what is worth a listen but is no
    /// defect (a cut between −40 and −50 dB).
    public static func detect(_ m: BellAuditionMetrics) -> (defects: [BellDefect], notes: [String]) {
        var out: [BellDefect] = []
        var notes: [String] = []
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
        if m.clipRuns > 0 {
            out.append(
                BellDefect(
                    .clipping,
                    "\(m.clippedSamples) samples at full scale in \(m.clipRuns) runs (longest \(m.longestClipRun))"))
        }
        if let tp = m.loudness.truePeak, tp > truePeakLimit {
            out.append(BellDefect(.truePeak, "true peak \(f(tp)) dBTP (limit −1 dBTP)"))
        }
        if m.leadingSilence > leadingSilenceLimit {
            out.append(BellDefect(.leadingSilence, "\(f(m.leadingSilence, 2)) s of silence before the strike"))
        }
        if m.dcOffset > dcLimit {
            out.append(BellDefect(.dcOffset, "DC offset of \(f(m.dcOffset * 100)) % of full scale"))
        }
        if m.ringingAtEnd {
            let level = "\(f(max(0, -m.cutLevel), 0)) dB below its peak"
            let e =
                m.endsWithFade && m.cutLevel > m.endLevel
                ? "faded out while still ringing \(level) (decaying \(f(-m.endSlope, 0)) dB/s)"
                : m.endSlope < -1
                    ? "stops while still sounding \(level) (decaying \(f(-m.endSlope, 0)) dB/s)"
                    : "stops while still sounding \(level), no longer decaying: a sustained sound cut off"
            if m.cutLevel >= cutAudible {
                out.append(BellDefect(.truncatedTail, e))
            } else {
                notes.append(
                    "tail: \(e); quiet enough (under −40 dB) not to be heard as a cut in a quiet room, listen at a high level"
                )
            }
        }
        if let nf = m.noiseFloor, nf - m.peakLevel >= noiseAudible {
            out.append(
                BellDefect(
                    .noiseFloor, "steady noise at \(f(nf)) dBFS, \(f(m.peakLevel - nf, 0)) dB under the peak"))
        }
        if let i = m.loudness.integratedPadded {
            if i < quietLoudness { out.append(BellDefect(.tooQuiet, "integrated loudness \(f(i)) LUFS (padded)")) }
            if i > loudLoudness { out.append(BellDefect(.tooLoud, "integrated loudness \(f(i)) LUFS (padded)")) }
        } else {
            out.append(BellDefect(.tooQuiet, "no integrated loudness: every 400 ms block is below −70 LUFS"))
        }
        if let c = m.channelCorrelation, c < -0.5 {
            let loss = monoMixLoss(correlation: c, balance: m.channelBalance)
            let lost = loss > -60 ? "is \(f(-loss)) dB quieter than the channels" : "cancels out"
            let what = c < -0.95 ? "channels are inverted copies" : "channels are largely out of phase"
            out.append(
                BellDefect(
                    .channel, "\(what) (correlation \(f(c, 2))): the mono mix \(lost), as on a phone speaker"))
        } else if m.channels >= 2 && m.channelBalance < -20 {
            out.append(BellDefect(.channel, "one channel is \(f(-m.channelBalance, 0)) dB quieter than the other"))
        }
        if m.truncatedStream {
            out.append(
                BellDefect(
                    .damagedStream,
                    "the stream ends early (damaged or cut file): \(f(m.duration, 2)) s decoded and measured"))
        }
        return (out, notes)
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
