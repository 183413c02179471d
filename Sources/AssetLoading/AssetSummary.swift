import AssetPipeline
import AudioCore
import AudioFile

/// What a picker shows of a bell or theme file: how long it is, how long its loop is and how loud it plays.
///
/// Measured from the file as stored (not resampled): one decode and one BS.1770 loudness pass.
///
/// - Thread safety: a value type; ``measure(path:kind:loop:gainDB:)`` is a pure function.
/// - Real-time safe: no (decodes).
public struct AssetSummary: Sendable, Equatable {
    /// The file's length, in seconds.
    public var durationSeconds: Double
    /// A theme's loop length, in seconds (the loop as ``EngineAssetLoader`` plays it; `nil` for a bell).
    public var loopSeconds: Double?
    /// Integrated loudness as played (BS.1770-4 of the file, ``AssetPack/measureLoudness(_:)``, plus the pack's
    /// `gainDB`), in LUFS; `nil` when the sound is too short or silent to have one.
    public var loudnessLUFS: Double?

    /// Decodes `path` and measures it; a theme's loop is found as ``EngineAssetLoader`` finds it (`loop`).
    ///
    /// - Throws: `EnsoError` naming the file: `unavailable` or `permission` when it cannot be read, `invalid-input`
    ///   when it is malformed, has a NaN or infinite sample, or its loop does not fit.
    public static func measure(
        path: String, kind: AssetPack.Kind, loop: EngineAssetLoader.ThemeLoop, gainDB: Double
    ) throws(EnsoError) -> AssetSummary {
        let decoded = try AudioFileDecoder.decode(path: path)
        let buffer = decoded.buffer
        let rate = buffer.sampleRate
        var loopSeconds: Double?
        if kind == .soundscape {
            let region = try EngineAssetLoader.loopRegion(loop, of: decoded, path: path)
            loopSeconds = rate.seconds(frames: region.length)
        }
        let loudness = try AssetPack.measureLoudness(buffer).map { $0 + gainDB }
        return AssetSummary(
            durationSeconds: rate.seconds(frames: FrameCount(buffer.frameCount)), loopSeconds: loopSeconds,
            loudnessLUFS: loudness)
    }
}
