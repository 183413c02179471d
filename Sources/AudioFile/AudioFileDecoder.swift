import AudioCore

/// Whole-file decoding: the usual way to load an asset.
public enum AudioFileDecoder {
    /// Decodes the whole file at `path` into memory.
    ///
    /// The corresponding C functions are `sf_open` and `sf_readf_float`.
    ///
    /// - Throws: `AudioFileError` of kind `.notFound`, `.permissionDenied`, `.isDirectory`, `.empty`,
    ///   `.notAudio`, `.malformed` (also for a truncated file), `.unsupported`, `.invalidHeader` or
    ///   `.ioFailure`; the message names the file.
    public static func decode(path: String) throws(AudioFileError) -> DecodedAudio {
        let reader = try SoundFileReader(path: path)
        let buffer = try reader.readAll()
        var info = reader.info
        info.frames = FrameCount(buffer.frameCount)
        return DecodedAudio(buffer: buffer, info: info)
    }

    /// Reads only the header of the file at `path`.
    ///
    /// - Throws: `AudioFileError`, as ``decode(path:)`` does for the header.
    public static func info(path: String) throws(AudioFileError) -> AudioFileInfo {
        try SoundFileReader(path: path).info
    }
}
