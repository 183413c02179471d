import AudioCore
import AudioDSP
import AudioFile
import Foundation

/// The likeness signature of a file on disk, for `enso bells similar` and `enso loops similar`.
///
/// A bell is read as ``BellAudition`` reads it (the same silence check, then the same ``StruckMeasures``: DC
/// blocker, analysis signal, spectra, decay, onsets and partials), so its signature is the one the audition's own
/// analysis gives. A texture is read from its first ``LikenessSignature/textureSeconds`` with the frames of its seam's
/// spectral metric (``LikenessSignature/texture(_:)``): the signature `loops verify` writes in the file's row.
///
/// - Thread safety: pure functions; any thread.
/// - Real-time safe: no.
public enum LikenessFile {
    /// Decodes `path` and measures its signature as `kind`.
    ///
    /// - Throws: `EnsoError` from decoding (the message names the file), `.tooLarge` for a bell longer than
    ///   ``BellAudition/maximumDuration``, `.invalidInput` for a silent file or one with no samples.
    public static func signature(path: String, kind: LikenessSignature.Kind) throws(EnsoError) -> LikenessSignature {
        if kind == .struck { try BellAudition.checkLength(path) }
        let decoded = try AudioFileDecoder.decodeTolerant(path: path)
        return try signature(decoded.buffer, kind: kind, file: path)
    }

    /// The signature of a buffer in memory; `file` names it in errors.
    public static func signature(
        _ buffer: AudioBuffer, kind: LikenessSignature.Kind, file: String
    ) throws(EnsoError) -> LikenessSignature {
        guard buffer.frameCount > 0 else { throw EnsoError(.invalidInput, "\(file): no audio", path: file) }
        var input = buffer
        for i in input.samples.indices where !input.samples[i].isFinite { input.samples[i] = 0 }
        switch kind {
        case .struck:
            let scan = SignalDefectScan(input)
            guard scan.peak > OnsetAnalysis.silenceThreshold else {
                throw EnsoError(.invalidInput, "\(file): silent: no sample above −60 dBFS", path: file)
            }
            guard let m = StruckMeasures(input, scan: scan) else {
                throw EnsoError(.invalidInput, "\(file): silent: no energy", path: file)
            }
            // Rounded as the audition's row carries it: `similar` and a batch's groups read the same figures.
            return LikenessSignature.struck(
                spectrogram: m.spectrogram, peakTime: m.decay.peakTime, partials: m.partials, attack: m.onset.attack,
                duration: m.duration
            ).rounded()
        case .texture:
            guard let s = LikenessSignature.texture(input) else {
                throw EnsoError(
                    .invalidInput, "\(file): silent (no sample above −60 dBFS) or shorter than one 21 ms frame",
                    path: file)
            }
            return s.rounded()
        }
    }
}
