import AudioCore
import AudioDSP
import AudioFile
import Foundation

extension AssetCheck {
    /// The default strike spacing of a session (issue: `--spacing`, default 3 s): a bundled bell must still
    /// ring, less than 20 dB down, when the next strike of its group comes.
    public static let strikeSpacing = 3.0

    /// Checks that a bell rings like a bell and is undamaged, from the measurements of ``DecayAnalysis`` and
    /// ``SignalDefectScan`` (the same ones `enso bells audition` reports).
    ///
    /// - `bell-decay`: falls 20 dB no sooner than ``strikeSpacing`` after its peak, so a group of strikes
    ///   overlaps into one ringing sound rather than a series of blips;
    /// - `bell-tail`: the file does not stop the bell while it still rings at an audible level (≥ −40 dB re peak,
    ///   ``BellDefect/cutAudible``: no truncated or faded tail);
    /// - `bell-samples`: no clipping run, no non-finite sample, DC offset below 0.5 % of full scale.
    ///
    /// - Parameter decay: the audition's decay of the bell (``BellAnalysis/decay``), measured here when it has none.
    static func bellChecks(
        _ entry: AssetPack.Entry, _ decoded: DecodedAudio, path: String, decay measured: DecayAnalysis?
    ) -> [Finding] {
        var findings: [Finding] = []
        guard let decay = measured ?? DecayAnalysis(decoded.buffer) else {
            return [Finding(check: "bell-decay", status: .fail, message: "\(entry.file): silent; a bell must ring")]
        }
        if let d20 = decay.d20 {
            findings.append(
                Finding(
                    check: "bell-decay", status: d20 >= strikeSpacing ? .pass : .fail,
                    message: String(
                        format: "%@: falls 20 dB in %.2f s (must ring at least %.0f s, the strike spacing)", entry.file,
                        d20, strikeSpacing),
                    value: d20, threshold: strikeSpacing, unit: "s"))
        } else {
            findings.append(
                Finding(
                    check: "bell-decay", status: .fail,
                    message: "\(entry.file): never falls 20 dB below its peak (not a struck sound, or cut short)"))
        }
        let cut = decay.ringingAtEnd && decay.cutLevel >= BellDefect.cutAudible
        findings.append(
            Finding(
                check: "bell-tail", status: cut ? .fail : .pass,
                message: cut
                    ? String(
                        format: "%@: the file ends while the bell still rings (%.0f dB below its peak%@)", entry.file,
                        -decay.cutLevel, decay.endsWithFade ? ", faded out" : "")
                    : String(
                        format: "%@: rings out to %.0f dB below its peak before the file ends", entry.file,
                        -decay.endLevel),
                value: decay.endLevel, unit: "dB"))
        let scan = SignalDefectScan(decoded.buffer)
        var damage: [String] = []
        if scan.clipRuns > 0 {
            damage.append("\(scan.clipRuns) clipping runs (longest \(scan.longestClipRun) samples)")
        }
        if scan.nonFinite > 0 { damage.append("\(scan.nonFinite) non-finite samples") }
        // 0.5 %: well above the DC a decaying modal sum leaves (< 0.01 %), well below audible thumps.
        if abs(scan.dcOffset) > 0.005 { damage.append(String(format: "DC offset %.2f %%", scan.dcOffset * 100)) }
        findings.append(
            Finding(
                check: "bell-samples", status: damage.isEmpty ? .pass : .fail,
                message: damage.isEmpty
                    ? "\(entry.file): no clipping, no non-finite samples, no DC offset"
                    : "\(entry.file): " + damage.joined(separator: ", ")))
        return findings
    }
}
