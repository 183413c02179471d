import AssetPipeline
import AudioCore
import AudioDSP
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
    /// A theme longer than `streamAbove` seconds (the length past which it is streamed) is read once in chunks
    /// instead (``measureStreaming(path:loop:gainDB:)``), so memory stays bounded whatever its length.
    ///
    /// - Throws: `EnsoError` naming the file: `unavailable` or `permission` when it cannot be read, `invalid-input`
    ///   when it is malformed, has a NaN or infinite sample, or its loop does not fit.
    public static func measure(
        path: String, kind: AssetPack.Kind, loop: EngineAssetLoader.ThemeLoop, gainDB: Double,
        streamAbove: Double = AmbientStreaming.loadLimitSeconds
    ) throws(EnsoError) -> AssetSummary {
        if kind == .soundscape {
            let info = try AudioFileDecoder.info(path: path)
            if Double(info.frames) > streamAbove * info.sampleRate.double {
                return try measureStreaming(path: path, loop: loop, gainDB: gainDB)
            }
        }
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

    /// A long theme's summary from one pass over the file in 64 Ki-frame chunks: the header's length, the loop from
    /// the header (or sidecar, or manifest), and the integrated loudness of a meter fed chunk by chunk
    /// (``AssetPack/loudnessStream(channels:sampleRate:)``: the figure the whole file gives, to the last bit).
    ///
    /// - Throws: as ``measure(path:kind:loop:gainDB:streamAbove:)``; a sample that is not finite or past ±16 is
    ///   refused naming its time, as a whole decode refuses it.
    public static func measureStreaming(
        path: String, loop: EngineAssetLoader.ThemeLoop, gainDB: Double
    ) throws(EnsoError) -> AssetSummary {
        let info = try AudioFileDecoder.info(path: path)
        let region = try EngineAssetLoader.loopRegion(loop, info: info, frames: info.frames, path: path) {
            () throws(EnsoError) in
            try LoopVerifier.loopRegion(info: info, frames: info.frames, path: path).region
        }
        // One pass in chunks (``AssetCheck/pass(path:gain:each:)``, as `assets check` reads a long soundscape).
        let pass = try AssetCheck.pass(path: path)
        let frames = pass.frames
        return AssetSummary(
            durationSeconds: info.sampleRate.seconds(frames: frames),
            loopSeconds: info.sampleRate.seconds(frames: region.length),
            loudnessLUFS: pass.loudness.map { $0 + gainDB })
    }
}
