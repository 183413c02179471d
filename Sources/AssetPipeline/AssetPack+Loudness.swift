import AudioCore
import AudioDSP
import Foundation

extension AssetPack.Kind {
    /// The loudness every asset of this kind is normalised to, in LUFS (integrated, BS.1770-4 / EBU R 128, of the
    /// file as it is, as ``AssetPack/measureLoudness(_:)`` reads it).
    ///
    /// All soundscapes share one target so a theme switch never jumps in level; bells sit a fixed
    /// distance above the bed so a strike is clearly heard over any theme without startling.
    public var loudnessTarget: Double {
        switch self {
        case .bell: return -22
        case .soundscape: return -30
        }
    }
}

extension AssetPack {
    /// How far a measured loudness may be from its target and still pass `enso assets check`, in LU.
    public static let loudnessTolerance = 1.0

    /// The integrated loudness of an asset as the manifest records it, in LUFS.
    ///
    /// BS.1770-4 of the file as it is (`LoudnessReport.integrated`: libebur128 on the unpadded samples), so the
    /// manifest agrees with ffmpeg `ebur128`, loudgain and bs1770gain (see docs/bells.md). Both `make-assets` and
    /// `enso assets check` use this one definition.
    ///
    /// - Returns: the loudness, or `nil` when the sound is too short or silent to have one.
    /// - Throws: `EnsoError` `.invalidInput` for non-finite samples or a format libebur128 refuses.
    public static func measureLoudness(_ buffer: AudioBuffer) throws(EnsoError) -> Double? {
        do {
            return try LoudnessAnalysis.measure(
                buffer, momentaryHopSeconds: loudnessHopSeconds, shortTermHopSeconds: 1
            ).integrated
        } catch {
            throw EnsoError(.invalidInput, error.message)
        }
    }

    /// The hop of ``measureLoudness(_:)``: 100 ms. Only the integrated value is used, and it does not depend on
    /// the hop: a coarse hop is faster.
    static let loudnessHopSeconds = 0.1

    /// A meter that gives ``measureLoudness(_:)``'s figure for a sound fed to it in chunks (a long theme read
    /// once, in blocks, at load): its `integrated` equals the whole measure's.
    ///
    /// - Throws: `EnsoError` `.invalidInput` for a format libebur128 refuses.
    public static func loudnessStream(
        channels: ChannelCount, sampleRate: SampleRate
    ) throws(EnsoError) -> IntegratedLoudnessStream {
        do {
            return try IntegratedLoudnessStream(
                channels: channels, sampleRate: sampleRate, hopSeconds: loudnessHopSeconds)
        } catch {
            throw EnsoError(.invalidInput, error.message)
        }
    }

    /// The linear gain that brings a stationary sound (a soundscape loop) to `target` LUFS as
    /// ``measureLoudness(_:)`` reads it; iterated up to 4 times, since the relative gate moves with the level.
    ///
    /// - Throws: `EnsoError` `.invalidInput` naming `name` when the sound has no integrated loudness.
    public static func normalizationGain(_ buffer: AudioBuffer, target: Double, name: String) throws(EnsoError) -> Float
    {
        try normalizationGain(target: target, name: name) { (gain) throws(EnsoError) in
            var scaled = buffer
            scaled.scale(by: gain)
            return try measureLoudness(scaled)
        }
    }

    /// The linear gain that brings a sound to `target` LUFS, given `loudness`, its integrated loudness (`nil`: none)
    /// with a gain applied: the one rule for a sound held whole and one read in passes over its file
    /// (``stageStreaming(_:info:in:strict:)``). The gate moves with the level, so the gain is corrected until the
    /// reading is within 0.02 LU of the target, at most 4 times.
    ///
    /// - Throws: `EnsoError` `.invalidInput` naming `name` when the sound has no integrated loudness, or what
    ///   `loudness` throws.
    static func normalizationGain(
        target: Double, name: String, loudness: (Float) throws(EnsoError) -> Double?
    ) throws(EnsoError) -> Float {
        var gain = 1.0
        for _ in 0..<4 {
            guard let reading = try loudness(Float(gain)) else {
                throw EnsoError(.invalidInput, "\(name): silent or shorter than 0.4 s: cannot normalise")
            }
            if abs(reading - target) < 0.02 { break }
            gain *= pow(10, (target - reading) / 20)
        }
        return Float(gain)
    }
}
