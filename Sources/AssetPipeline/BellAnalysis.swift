import AudioCore
import AudioDSP

/// One bell candidate analysed once (`enso bells audition`): the audition's row and everything it was measured
/// from, so a report, a pack check or a listener reads the same analysis instead of decoding and measuring again.
///
/// In the spirit of essentia's extractors and libebur128's single state: the file is decoded once, mixed once into
/// the analysis signal (``BellAudition``'s DC-blocked mono mix, or its loudest channel), and cut once into the
/// short-time spectra (``spectrogram``) that the decay's noise-floor test, the partials' decay rates, the beating and
/// the strike figure all read, and that a report draws. The onsets read their own finer-timed spectra (21 ms frames:
/// a strike is placed to the half frame) and the partials one long transform of the ringing; nothing else transforms
/// the signal, but for a clipped file: its measures read the sound under the clipping (``ClippedTops``), and its strike
/// figure reads the spectra and decay of the file as it is, made a second time (``StruckMeasures``).
///
/// The value holds the whole decoded file and its spectra: keep it while the file is being reported on, not across a
/// batch (``BellAudition/audition(paths:profile:progress:keeping:)`` hands each file's analysis to the caller as it
/// finishes and keeps only what the caller returns).
public struct BellAnalysis: Sendable {
    /// The audition's row (its class, verdict, defects, score and measurements, or its error).
    public var result: BellAuditionResult
    /// The file's samples as decoded, non-finite samples set to 0; nil for an `error` row.
    public var sound: AudioBuffer?
    /// The short-time power spectra of the analysis signal (``Spectrogram``, 85 ms frames at a half-frame hop); nil
    /// for an `error` row.
    public var spectrogram: Spectrogram?
    /// The decay with its plot curves (the envelope and the Schroeder curve, which the row does not carry), its times
    /// on the file's clock (``DecayAnalysis/curveStart``); nil for an `error` row.
    public var decay: DecayAnalysis?
    /// The frames of digital silence before the sound's first sample, which the analyses start after
    /// (``StruckMeasures``): frame `k` of ``spectrogram`` is centred `soundStart` frames later in ``sound`` than
    /// `k · hop`.
    public var soundStart = 0

    /// The analysis of a file that could not be auditioned: its error row alone.
    init(error result: BellAuditionResult) {
        self.result = result
    }

    init(
        result: BellAuditionResult, sound: AudioBuffer, spectrogram: Spectrogram, decay: DecayAnalysis, soundStart: Int
    ) {
        self.result = result
        self.sound = sound
        self.spectrogram = spectrogram
        self.decay = decay
        self.soundStart = soundStart
    }
}
