import AudioCore

/// The limits on what a whole-file decode holds, in one place (docs/playback.md, "Security and limits").
///
/// - ``maxDecodedSamples``: frames × channels. Past it, ``SoundFileReader/readAll()`` (and so
///   ``AudioFileDecoder/decode(path:)``, behind every command that loads a whole file) throws `.tooLarge` before
///   reading a sample, naming the file and its length; batch commands report that file and carry on.
/// - ``maxSampleMagnitude``: a decoded sample beyond ±16 (+24 dBFS) is refused as `.malformed`: no real recording
///   holds one, and such a file (±1e30) measured as silent yet played at full scale. NaN and infinite samples are
///   left to the callers, which report them as defects.
public enum DecodeLimits {
    /// The most samples a whole-file decode holds: 2^27 = 134 217 728 (512 MiB of `Float`: 23 min 18 s of stereo
    /// at 48 kHz, 46 min 36 s of mono).
    public static let maxDecodedSamples = 1 << 27
    /// The largest magnitude of a finite decoded sample: 16.0 (+24 dBFS; lossy decoders overshoot 1.0 a little).
    public static let maxSampleMagnitude: Float = 16

    /// Throws `.tooLarge` when `frames` × `channels` is over ``maxDecodedSamples``.
    static func checkBudget(frames: Int64, channels: Int, rate: SampleRate, path: String) throws(EnsoError) {
        guard frames > Int64(maxDecodedSamples / max(1, channels)) else { return }
        throw EnsoError(
            .tooLarge, path: path,
            "\(path): too long to load whole: \(describe(seconds: Double(frames) / rate.double)) of \(channels) channel(s), "
                + "\(frames) frames; the limit is \(maxDecodedSamples) samples (\(describe(seconds: Double(maxDecodedSamples / max(1, channels)) / rate.double)) at this rate and channel count)"
        )
    }

    /// Throws `.malformed` naming the first finite sample beyond ±``maxSampleMagnitude``, if any.
    ///
    /// The common case, every sample in range, is one eight-lane pass (``PeakScan/absMax(_:)``, which skips NaN and
    /// ±infinity as this check does); only a buffer that fails is walked sample by sample to name the first culprit.
    static func checkRange(_ buffer: AudioBuffer, path: String) throws(EnsoError) {
        guard buffer.samples.withUnsafeBufferPointer({ PeakScan.absMax($0) }) > maxSampleMagnitude else { return }
        let frames = max(1, buffer.frameCount)
        for (k, s) in buffer.samples.enumerated() where s.isFinite && abs(s) > maxSampleMagnitude {
            let at = Double(k % frames) / buffer.sampleRate.double
            throw EnsoError(
                .malformed, path: path,
                "\(path): sample \(s) at \((at * 1000).rounded() / 1000) s (channel \(k / frames + 1)) is beyond ±\(Int(maxSampleMagnitude)) (+24 dBFS): not a usable recording"
            )
        }
    }

    /// `6 h 12 min`, `23 min 18 s`, `4.5 s`.
    static func describe(seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s >= 3600 { return "\(s / 3600) h \(s % 3600 / 60) min" }
        if s >= 60 { return "\(s / 60) min \(s % 60) s" }
        return "\((seconds * 10).rounded() / 10) s"
    }
}
