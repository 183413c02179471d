import AudioCore
import CSndFile
import Glibc

/// An open audio file, read frame by frame (streaming) or all at once.
///
/// Reads every format libsndfile reads (WAV, RF64, AIFF, FLAC, Ogg Vorbis, Opus, MP3, ...). Samples
/// come out as `Float`, never clipped (Vorbis may decode above 1.0). End of stream is not an error:
/// ``readFrames(into:maxFrames:)`` returns 0.
///
/// - Thread safety: one thread at a time.
/// - Real-time safe: no (file I/O).
public final class SoundFileReader {
    /// What the header said.
    public let info: AudioFileInfo
    /// The file's path.
    public let path: String
    private var handle: SndfileHandle?

    /// Opens `path` for reading.
    ///
    /// The corresponding C function is `sf_open` with `SFM_READ`.
    ///
    /// - Throws: `AudioFileError` of kind `.notFound`, `.permissionDenied`, `.isDirectory`, `.empty`,
    ///   `.notAudio`, `.malformed`, `.unsupported` or `.invalidHeader`; the message names the file.
    public init(path: String) throws(AudioFileError) {
        self.path = path
        try Self.checkPath(path)
        var sfinfo = SF_INFO()
        guard let h = system_sf_open(path, Int32(SFM_READ), &sfinfo) else {
            let code = system_sf_error(nil)
            let text = system_sf_strerror(nil)
            throw AudioFileError(errorKind(forSndfileCode: code), path: path, "\(path): cannot read audio: \(text)", code: code)
        }
        guard sfinfo.channels >= 1 && sfinfo.channels <= 64 else {
            _ = system_sf_close(h)
            throw AudioFileError(
                .invalidHeader, path: path, "\(path): header declares \(sfinfo.channels) channels (1...64 supported)")
        }
        guard sfinfo.samplerate >= 1000 && sfinfo.samplerate <= 768_000 else {
            _ = system_sf_close(h)
            throw AudioFileError(
                .invalidHeader, path: path,
                "\(path): header declares a sample rate of \(sfinfo.samplerate) Hz (1 kHz ... 768 kHz supported)")
        }
        guard sfinfo.frames > 0 else {
            _ = system_sf_close(h)
            throw AudioFileError(.empty, path: path, "\(path): the file holds no audio frames")
        }
        // Never clip on decode; Float read of float files is not normalised differently.
        _ = system_sf_command(h, Int32(SFC_SET_CLIPPING), nil, Int32(SF_FALSE))
        handle = h
        info = AudioFileInfo(
            format: formatName(major: sfinfo.format & Int32(SF_FORMAT_TYPEMASK)),
            subtype: subtypeName(minor: sfinfo.format & Int32(SF_FORMAT_SUBMASK)),
            sampleRate: SampleRate(checked: Int(sfinfo.samplerate)),
            channels: ChannelCount(checked: Int(sfinfo.channels)),
            frames: sfinfo.frames,
            loops: readLoops(h),
            cues: readCues(h))
    }

    deinit {
        if let h = handle { _ = system_sf_close(h) }
    }

    /// Closes the file; further reads return 0 frames.
    public func close() {
        if let h = handle { _ = system_sf_close(h) }
        handle = nil
    }

    /// Reads up to `maxFrames` interleaved frames into `buffer` (which holds `maxFrames * channels` floats).
    ///
    /// The corresponding C function is `sf_readf_float`.
    ///
    /// - Returns: the number of frames read; 0 at the end of the stream.
    /// - Throws: `AudioFileError` of kind `.malformed` or `.ioFailure` when the file breaks mid-stream.
    public func readFrames(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(AudioFileError) -> Int {
        guard let h = handle, maxFrames > 0 else { return 0 }
        let n = system_sf_readf_float(h, buffer, Int64(maxFrames))
        if n < maxFrames {
            let code = system_sf_error(h)
            if code != 0 {
                throw AudioFileError(
                    errorKind(forSndfileCode: code), path: path,
                    "\(path): read failed: \(system_sf_strerror(h))", code: code)
            }
        }
        return Int(n)
    }

    /// Moves the read position to `frame`.
    ///
    /// The corresponding C function is `sf_seek` with `SEEK_SET`.
    public func seek(toFrame frame: FramePosition) throws(AudioFileError) {
        guard let h = handle else { return }
        if system_sf_seek(h, frame, SEEK_SET) < 0 {
            throw AudioFileError(.invalidArgument, path: path, "\(path): cannot seek to frame \(frame)")
        }
    }

    /// Reads every remaining frame into a planar buffer.
    ///
    /// A file whose header promises more frames than it holds (a truncated file) yields the frames
    /// that are there; a file that yields none throws `.malformed`.
    public func readAll() throws(AudioFileError) -> AudioBuffer {
        let c = info.channels.count
        let chunk = 65_536
        var interleaved: [Float] = []
        interleaved.reserveCapacity(Int(min(info.frames, 1 << 28)) * c)
        var scratch = [Float](repeating: 0, count: chunk * c)
        while true {
            let n = try scratch.withUnsafeMutableBufferPointer { (p) throws(AudioFileError) -> Int in
                try readFrames(into: p.baseAddress!, maxFrames: chunk)
            }
            if n == 0 { break }
            interleaved.append(contentsOf: scratch[0..<(n * c)])
        }
        if interleaved.isEmpty {
            throw AudioFileError(.malformed, path: path, "\(path): no frames could be decoded (truncated or corrupt)")
        }
        return interleaved.withUnsafeBufferPointer {
            AudioBuffer(interleaved: $0, channels: info.channels, sampleRate: info.sampleRate)
        }
    }

    /// Refuses paths that are missing, unreadable or directories, with the precise reason.
    static func checkPath(_ path: String) throws(AudioFileError) {
        var st = stat()
        if stat(path, &st) != 0 {
            let e = errno
            let kind: AudioFileError.Kind = e == ENOENT || e == ENOTDIR ? .notFound : e == EACCES ? .permissionDenied : .ioFailure
            throw AudioFileError(kind, path: path, "\(path): \(String(cString: strerror(e)))", code: e)
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw AudioFileError(.isDirectory, path: path, "\(path): is a directory, not an audio file", code: EISDIR)
        }
        if access(path, R_OK) != 0 {
            let e = errno
            throw AudioFileError(.permissionDenied, path: path, "\(path): \(String(cString: strerror(e)))", code: e)
        }
        if st.st_size == 0 {
            throw AudioFileError(.empty, path: path, "\(path): the file is empty (0 bytes)")
        }
    }
}

// MARK: - Decoding whole files

/// Whole-file decoding: the usual way to load an asset.
public enum AudioFileDecoder {
    /// Decodes the whole file at `path` into memory.
    ///
    /// - Throws: `AudioFileError` (see ``SoundFileReader/init(path:)``).
    public static func decode(path: String) throws(AudioFileError) -> DecodedAudio {
        let reader = try SoundFileReader(path: path)
        let buffer = try reader.readAll()
        var info = reader.info
        info.frames = FrameCount(buffer.frameCount)
        return DecodedAudio(buffer: buffer, info: info)
    }

    /// Reads only the header of the file at `path`.
    public static func info(path: String) throws(AudioFileError) -> AudioFileInfo {
        try SoundFileReader(path: path).info
    }
}

// MARK: - Metadata helpers

private func readLoops(_ h: SndfileHandle) -> [LoopRegion] {
    var inst = SF_INSTRUMENT()
    let ok = system_sf_command(h, Int32(SFC_GET_INSTRUMENT), &inst, Int32(MemoryLayout<SF_INSTRUMENT>.size))
    guard ok == Int32(SF_TRUE) else { return [] }
    return SndfileInstrument.loops(of: &inst).compactMap { loop in
        guard loop.mode != Int32(SF_LOOP_NONE), loop.end > loop.start else { return nil }
        return LoopRegion(start: FramePosition(loop.start), end: FramePosition(loop.end))
    }
}

private func readCues(_ h: SndfileHandle) -> [CuePoint] {
    var count: UInt32 = 0
    guard system_sf_command(h, Int32(SFC_GET_CUE_COUNT), &count, Int32(MemoryLayout<UInt32>.size)) != 0,
        count > 0
    else { return [] }
    var cues = SF_CUES()
    guard system_sf_command(h, Int32(SFC_GET_CUE), &cues, Int32(MemoryLayout<SF_CUES>.size)) == Int32(SF_TRUE) else {
        return []
    }
    let n = Int(min(cues.cue_count, 100))
    return withUnsafeBytes(of: &cues.cue_points) { raw -> [CuePoint] in
        let points = raw.bindMemory(to: SF_CUE_POINT.self)
        return (0..<n).map { i in
            var p = points[i]
            let name = withUnsafeBytes(of: &p.name) { bytes -> String in
                let chars = bytes.prefix { $0 != 0 }
                return String(decoding: chars, as: UTF8.self)
            }
            return CuePoint(id: p.indx, position: FramePosition(p.sample_offset), name: name)
        }
    }
}

func formatName(major: Int32) -> String {
    switch Int(major) {
    case Int(SF_FORMAT_WAV): return "WAV"
    case Int(SF_FORMAT_AIFF): return "AIFF"
    case Int(SF_FORMAT_AU): return "AU"
    case Int(SF_FORMAT_RAW): return "RAW"
    case Int(SF_FORMAT_W64): return "W64"
    case Int(SF_FORMAT_RF64): return "RF64"
    case Int(SF_FORMAT_FLAC): return "FLAC"
    case Int(SF_FORMAT_OGG): return "OGG"
    case Int(SF_FORMAT_CAF): return "CAF"
    case Int(SF_FORMAT_WAVEX): return "WAVEX"
    case Int(SF_FORMAT_MPEG): return "MPEG"
    default: return "0x" + String(major, radix: 16)
    }
}

func subtypeName(minor: Int32) -> String {
    switch Int(minor) {
    case Int(SF_FORMAT_PCM_S8): return "PCM_S8"
    case Int(SF_FORMAT_PCM_U8): return "PCM_U8"
    case Int(SF_FORMAT_PCM_16): return "PCM_16"
    case Int(SF_FORMAT_PCM_24): return "PCM_24"
    case Int(SF_FORMAT_PCM_32): return "PCM_32"
    case Int(SF_FORMAT_FLOAT): return "FLOAT"
    case Int(SF_FORMAT_DOUBLE): return "DOUBLE"
    case Int(SF_FORMAT_ULAW): return "ULAW"
    case Int(SF_FORMAT_ALAW): return "ALAW"
    case Int(SF_FORMAT_VORBIS): return "VORBIS"
    case Int(SF_FORMAT_OPUS): return "OPUS"
    case Int(SF_FORMAT_MPEG_LAYER_I): return "MPEG_LAYER_I"
    case Int(SF_FORMAT_MPEG_LAYER_II): return "MPEG_LAYER_II"
    case Int(SF_FORMAT_MPEG_LAYER_III): return "MPEG_LAYER_III"
    default: return "0x" + String(minor, radix: 16)
    }
}
