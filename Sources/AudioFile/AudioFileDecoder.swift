import AudioCore

/// Whole-file decoding: the usual way to load an asset.
public enum AudioFileDecoder {
    /// Decodes the whole file at `path` into memory.
    ///
    /// The corresponding C functions are `sf_open` and `sf_readf_float`.
    ///
    /// - Throws: `EnsoError` of kind `.notFound`, `.permissionDenied`, `.isDirectory`, `.empty`,
    ///   `.notAudio`, `.malformed` (also for a truncated file), `.unsupported`, `.invalidHeader` or
    ///   `.ioFailure`; the message names the file.
    public static func decode(path: String) throws(EnsoError) -> DecodedAudio {
        let reader = try SoundFileReader(path: path)
        let buffer = try reader.readAll()
        var info = reader.info
        info.frames = FrameCount(buffer.frameCount)
        return DecodedAudio(buffer: buffer, info: info)
    }

    /// Decodes as much of the file at `path` as its stream holds: a stream that ends or breaks before its declared
    /// end (an Ogg whose last page is missing, a cut-off FLAC or WAV) is returned with ``DecodedAudio/truncated``
    /// set, where ``decode(path:)`` refuses it. What `enso info` and `enso bells audition` read, so the damage is
    /// reported and the sound still measured.
    ///
    /// - Throws: `EnsoError` as ``decode(path:)``, except for the truncation (also `.malformed` when not a
    ///   single frame decodes).
    public static func decodeTolerant(path: String) throws(EnsoError) -> DecodedAudio {
        let reader = try SoundFileReader(path: path, toleratingTruncation: true)
        let buffer = try reader.readAll()
        var info = reader.info
        info.frames = FrameCount(buffer.frameCount)
        let declared = reader.truncated && reader.info.frames > info.frames ? reader.info.frames : nil
        return DecodedAudio(buffer: buffer, info: info, truncated: reader.truncated, declaredFrames: declared)
    }

    /// Reads only the header of the file at `path`.
    ///
    /// - Throws: `EnsoError`, as ``decode(path:)`` does for the header.
    public static func info(path: String) throws(EnsoError) -> AudioFileInfo {
        try SoundFileReader(path: path).info
    }
}

/// Opens `path`, calls `body` with the reader, and closes the file when `body` returns or throws.
///
///     let peak = try withSoundFile(at: "rain.flac") { reader in try reader.readAll().peak }
///
/// - Throws: `EnsoError` from opening (see ``SoundFileReader/init(path:)``) or from `body`.
public func withSoundFile<R>(
    at path: String, _ body: (SoundFileReader) throws(EnsoError) -> R
) throws(EnsoError) -> R {
    let reader = try SoundFileReader(path: path)
    defer { reader.close() }
    return try body(reader)
}
