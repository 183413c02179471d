import Foundation

/// A fault found in a bell candidate, how bad it is, and the evidence, in words.
///
/// Kinds and thresholds (docs/bells.md lists them with the measurements they use):
///
/// | kind | minor | major |
/// |---|---|---|
/// | `clipping` | 1–2 runs of ≥ 3 full-scale samples | ≥ 3 runs or ≥ 10 samples |
/// | `true-peak` | −1 … 0 dBTP | above 0 dBTP |
/// | `leading-silence` | 50–200 ms before the strike | more than 200 ms |
/// | `dc-offset` | 0.5–1 % of full scale | more than 1 % |
/// | `truncated-tail` | – | ends (or fades out) while still ringing above −50 dB, or sustained and cut off |
/// | `noise-floor` | steady noise −60 … −50 dBFS | above −50 dBFS |
/// | `too-quiet` | integrated −36 … −30 LUFS | below −36 LUFS (or no integrated loudness) |
/// | `too-loud` | integrated −12 … −9 LUFS | above −9 LUFS |
/// | `channel` | – | channels out of phase (correlation < −0.5; the evidence gives what the mono mix loses) or one 20 dB quieter |
/// | `non-finite` | – | any NaN or infinite sample (the file gets an error row) |
public struct BellDefect: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case clipping, truePeak = "true-peak", leadingSilence = "leading-silence", dcOffset = "dc-offset"
        case truncatedTail = "truncated-tail", noiseFloor = "noise-floor", tooQuiet = "too-quiet"
        case tooLoud = "too-loud", channel, nonFinite = "non-finite"
    }

    /// Minor defects lower the score; a major one makes the candidate defective.
    public enum Severity: String, Sendable, Codable, Comparable {
        case minor, major
        public static func < (a: Severity, b: Severity) -> Bool { a == .minor && b == .major }
    }

    public var kind: Kind
    public var severity: Severity
    /// What was measured, in words ("1.50 s of silence before the strike").
    public var evidence: String

    public init(_ kind: Kind, _ severity: Severity, _ evidence: String) {
        self.kind = kind
        self.severity = severity
        self.evidence = evidence
    }

    /// Every defect the metrics show, in the order of ``Kind``.
    public static func detect(_ m: BellAuditionMetrics) -> [BellDefect] {
        var out: [BellDefect] = []
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
        if m.clipRuns > 0 {
            let major = m.clipRuns >= 3 || m.clippedSamples >= 10
            out.append(
                BellDefect(
                    .clipping, major ? .major : .minor,
                    "\(m.clippedSamples) samples at full scale in \(m.clipRuns) runs (longest \(m.longestClipRun))"))
        }
        if let tp = m.loudness.truePeak, tp > -1 {
            out.append(BellDefect(.truePeak, tp > 0 ? .major : .minor, "true peak \(f(tp)) dBTP (limit −1 dBTP)"))
        }
        if m.leadingSilence > 0.05 {
            out.append(
                BellDefect(
                    .leadingSilence, m.leadingSilence > 0.2 ? .major : .minor,
                    "\(f(m.leadingSilence, 2)) s of silence before the strike"))
        }
        if m.dcOffset > 0.005 {
            out.append(
                BellDefect(
                    .dcOffset, m.dcOffset > 0.01 ? .major : .minor,
                    "DC offset of \(f(m.dcOffset * 100)) % of full scale"))
        }
        if m.ringingAtEnd {
            let below = "ends \(f(max(0, -m.endLevel), 0)) dB below its peak"
            var e =
                m.endSlope < -1 ? "\(below) while still decaying (\(f(-m.endSlope, 0)) dB/s)"
                : m.endLevel > -10 ? "\(below) without having decayed: a sustained sound cut off"
                : "\(below) while still ringing (its level no longer falling, not settled to a floor)"
            if m.endsWithFade { e += ", faded out over the last 0.1 s" }
            out.append(BellDefect(.truncatedTail, .major, e))
        }
        if let nf = m.noiseFloor, nf > -60 {
            out.append(
                BellDefect(.noiseFloor, nf > -50 ? .major : .minor, "steady noise at \(f(nf)) dBFS under the tail"))
        }
        if let i = m.loudness.integrated {
            if i < -30 {
                out.append(BellDefect(.tooQuiet, i < -36 ? .major : .minor, "integrated loudness \(f(i)) LUFS"))
            }
            if i > -12 { out.append(BellDefect(.tooLoud, i > -9 ? .major : .minor, "integrated loudness \(f(i)) LUFS")) }
        } else {
            out.append(BellDefect(.tooQuiet, .major, "no integrated loudness: every 400 ms block is below −70 LUFS"))
        }
        if let c = m.channelCorrelation, c < -0.5 {
            let loss = monoMixLoss(correlation: c, balance: m.channelBalance)
            let lost = loss > -60 ? "is \(f(-loss)) dB quieter than the channels" : "cancels out"
            let what = c < -0.95 ? "channels are inverted copies" : "channels are largely out of phase"
            out.append(BellDefect(
                .channel, .major,
                "\(what) (correlation \(f(c, 2))): the mono mix \(lost), as on a phone speaker"))
        } else if m.channels >= 2 && m.channelBalance < -20 {
            out.append(BellDefect(.channel, .major, "one channel is \(f(-m.channelBalance, 0)) dB quieter than the other"))
        }
        return out
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
