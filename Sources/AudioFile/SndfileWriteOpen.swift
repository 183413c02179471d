import AudioCore
import CSndFile
import Glibc
import SystemIO

/// Opening a libsndfile handle for writing, shared by ``AudioFileEncoder`` and ``StreamingFileWriter``.
enum SndfileWriteOpen {
    /// Checks the argument ranges both writers promise (quality 0...1, Opus rates); the message names `path`.
    /// (The other limits, ``EncodeFormat/limit(sampleRate:channels:)``, are checked at open.)
    static func validate(path: String, format: EncodeFormat, sampleRate: SampleRate, quality: Double) throws(EnsoError)
    {
        guard (0...1).contains(quality) else {
            throw EnsoError(.invalidArgument, path: path, "\(path): quality \(quality) is outside 0...1")
        }
        if format == .opus, let limit = format.limit(sampleRate: sampleRate, channels: 1) {
            throw EnsoError(.invalidArgument, path: path, "\(path): \(limit.reason)")
        }
    }

    /// Opens `temp` for writing `format` (errors name the final `path`) and applies the encoder settings:
    /// VBR quality for lossy formats, compression level 0.5 for FLAC. `extensible` writes a WAV format in
    /// libsndfile's `SF_FORMAT_WAVEX` container (``EncodeOptions/extensible``).
    ///
    /// The corresponding C functions are `sf_format_check`, `sf_open` (`SFM_WRITE`) and `sf_command`.
    static func open(
        temp: String, path: String, format: EncodeFormat, sampleRate: SampleRate, channels: Int, quality: Double,
        extensible: Bool = false
    ) throws(EnsoError) -> SndfileHandle {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate.hertz)
        info.channels = Int32(channels)
        info.format = format.sndfileFormat
        if extensible && format.carriesLoops {
            info.format = (info.format & ~Int32(SF_FORMAT_TYPEMASK)) | Int32(SF_FORMAT_WAVEX)
        }
        guard system_sf_format_check(&info) == Int32(SF_TRUE) else {
            throw EnsoError(
                .unsupported, path: path,
                "\(path): libsndfile cannot write \(format.rawValue) at \(sampleRate.hertz) Hz with \(channels) channels"
            )
        }
        let opened = system_sf_open(temp, Int32(SFM_WRITE), &info)
        guard let h = opened.handle else {
            throw AtomicFile.cannotCreate(path, errno: opened.errno, code: opened.code, otherwise: opened.text)
        }
        if format.isLossy {
            var q = quality
            _ = system_sf_command(h, Int32(SFC_SET_VBR_ENCODING_QUALITY), &q, Int32(MemoryLayout<Double>.size))
        } else if format == .flac || format == .flac24 {
            var level = 0.5
            _ = system_sf_command(h, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
        }
        return h
    }
}
