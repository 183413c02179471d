import AudioCore
import CSndFile
import Glibc
import SystemIO

/// Options for writing a file.
public struct EncodeOptions: Sendable, Equatable {
    /// The format to write.
    public var format: EncodeFormat
    /// Quality for lossy formats, 0 (smallest) ... 1 (best). Ignored for lossless formats.
    public var quality: Double
    /// Loop regions to store (WAV `smpl` chunk). Other containers have no place for them and write none.
    public var loops: [LoopRegion]
    /// Add TPDF dither before rounding to 16 bits (``TPDFDither``; other formats ignore it). Off by default, so
    /// pipelines that must reproduce their files byte for byte (`make assets`) keep plain rounding.
    public var dither: Bool
    /// Write a WAV format (``EncodeFormat/carriesLoops``) as WAVE_FORMAT_EXTENSIBLE, the `fmt ` chunk sox writes
    /// for 24-bit and multichannel files, so a file rewritten with its loop keeps its header kind; loops go into
    /// its `smpl` chunk as in any WAV. Other formats ignore it.
    public var extensible: Bool
    /// Cue points to store (WAV `cue ` chunk, at most 100); other containers have no place for them and write none
    /// (``EncodeFormat/carriesCues``: the commands say so).
    public var cues: [CuePoint]

    public init(
        format: EncodeFormat, quality: Double = 0.6, loops: [LoopRegion] = [], dither: Bool = false,
        extensible: Bool = false, cues: [CuePoint] = []
    ) {
        self.format = format
        self.quality = quality
        self.loops = loops
        self.dither = dither
        self.extensible = extensible
        self.cues = cues
    }
}

/// Writes audio files atomically: a temporary file in the destination folder, then `rename`.
///
/// A failed write leaves no partial output and never touches an existing file at the destination.
public enum AudioFileEncoder {
    /// Writes `buffer` to `path` in `options.format`.
    ///
    /// The corresponding C functions are `sf_open` (`SFM_WRITE`), `sf_command` (`SFC_SET_INSTRUMENT`, `SFC_SET_CUE`,
    /// `SFC_SET_VBR_ENCODING_QUALITY`, `SFC_SET_COMPRESSION_LEVEL`) and `sf_writef_float`.
    ///
    /// - Throws: `EnsoError` of kind `.invalidArgument` (quality outside 0...1, a rate the format
    ///   cannot hold), `.unsupported` (libsndfile refuses the combination), `.permissionDenied`,
    ///   `.notFound` (the folder does not exist) or `.ioFailure` (disk full); the message names the file.
    public static func write(_ buffer: AudioBuffer, to path: String, options: EncodeOptions) throws(EnsoError) {
        try SndfileWriteOpen.validate(
            path: path, format: options.format, sampleRate: buffer.sampleRate, quality: options.quality)
        if options.format.carriesLoops && options.loops.count > 16 {
            throw EnsoError(
                .invalidArgument, path: path, "\(path): \(options.loops.count) loops given; a WAV smpl chunk holds 16")
        }
        if options.format.carriesLoops, let far = options.loops.first(where: { $0.end - 1 > FramePosition(UInt32.max) })
        {
            throw EnsoError(
                .invalidArgument, path: path,
                "\(path): loop end \(far.end) is beyond what a WAV smpl chunk can hold (2^32 frames)")
        }
        if options.format.carriesCues && options.cues.count > SndfileCues.capacity {
            throw EnsoError(
                .invalidArgument, path: path,
                "\(path): \(options.cues.count) cue points given; libsndfile writes at most \(SndfileCues.capacity)")
        }
        for cue in options.cues where cue.position < 0 || cue.position > buffer.frameCount {
            throw EnsoError(
                .invalidArgument, path: path,
                "\(path): cue point \(cue.id) at frame \(cue.position) is outside the \(buffer.frameCount) frames")
        }
        for loop in options.loops where loop.start < 0 || loop.end > buffer.frameCount || loop.end <= loop.start {
            throw EnsoError(
                .invalidArgument, path: path,
                "\(path): loop \(loop.start)..<\(loop.end) does not fit in \(buffer.frameCount) frames")
        }
        let temp = AtomicFile.temporaryPath(for: path)
        do {
            try writeUnchecked(buffer, to: temp, finalPath: path, options: options)
        } catch {
            AtomicFile.abandon(temp, fd: nil)
            throw error
        }
        try AtomicFile.commit(temp, to: path)
    }

    private static func writeUnchecked(
        _ buffer: AudioBuffer, to temp: String, finalPath path: String, options: EncodeOptions
    ) throws(EnsoError) {
        let h = try SndfileWriteOpen.open(
            temp: temp, path: path, format: options.format, sampleRate: buffer.sampleRate, channels: buffer.channels,
            quality: options.quality, extensible: options.extensible)
        var closed = false
        defer { if !closed { _ = system_sf_close(h) } }

        if !options.loops.isEmpty && options.format.carriesLoops {
            var inst = SF_INSTRUMENT()
            inst.gain = 1
            inst.basenote = 60
            inst.velocity_hi = 127
            inst.key_hi = 127
            SndfileInstrument.setLoops(
                options.loops.map { (Int32(SF_LOOP_FORWARD), UInt32($0.start), UInt32($0.end), 0) }, in: &inst)
            guard
                system_sf_command(h, Int32(SFC_SET_INSTRUMENT), &inst, Int32(MemoryLayout<SF_INSTRUMENT>.size))
                    == Int32(SF_TRUE)
            else {
                throw EnsoError(.unsupported, path: path, "\(path): cannot store loop points in this file")
            }
        }
        if !options.cues.isEmpty && options.format.carriesCues {
            var cues = SndfileCues.make(options.cues)
            guard system_sf_command(h, Int32(SFC_SET_CUE), &cues, Int32(MemoryLayout<SF_CUES>.size)) == Int32(SF_TRUE)
            else {
                throw EnsoError(.unsupported, path: path, "\(path): cannot store cue points in this file")
            }
        }
        try writeFrames(buffer, to: h, format: options.format, dither: options.dither, path: path)
        closed = true
        errno = 0
        let rc = system_sf_close(h)
        if rc != 0 {
            let e = errno
            let why = [ENOSPC, EDQUOT, EFBIG, EIO].contains(e) ? ": " + writeFailure(nil, errno: e).reason : ""
            throw EnsoError(.ioFailure, path: path, "\(path): closing the file failed (code \(rc))\(why)", code: rc)
        }
        // libsndfile writes the cue positions but not their labels.
        if options.format.carriesCues { try WAVCueLabels.append(options.cues, to: temp, name: path) }
    }

    /// Writes every frame in chunks, interleaving from the planar buffer as it goes.
    ///
    /// Integer formats are quantised here, not by libsndfile: libsndfile scales float by 32767 when
    /// writing 16-bit but by 1/32768 when reading, so a float round trip would not be bit-exact. Rounding
    /// `x × 2^(bits-1)` to the nearest integer (clipped to the format's range) and writing it through
    /// `sf_writef_int` makes PCM/FLAC 16/24 round trips exact for samples on the format's grid (without dither;
    /// with it, 16-bit samples get ``TPDFDither`` before the rounding, frame by frame, those on the grid left alone).
    private static func writeFrames(
        _ buffer: AudioBuffer, to h: SndfileHandle, format: EncodeFormat, dither: Bool, path: String
    ) throws(EnsoError) {
        let c = buffer.channels
        let n = buffer.frameCount
        let chunk = 16_384
        let bits: Int? = format == .wav16 || format == .flac ? 16 : format == .wav24 || format == .flac24 ? 24 : nil
        var floats = [Float](repeating: 0, count: bits == nil ? chunk * c : 0)
        var ints = [Int32](repeating: 0, count: bits == nil ? 0 : chunk * c)
        var tpdf: TPDFDither? = dither && bits == 16 ? TPDFDither() : nil
        var written = 0
        while written < n {
            let m = min(chunk, n - written)
            // A stale errno must not pass for this write's reason (``writeFailure(_:errno:)``).
            errno = 0
            let got: Int64 = buffer.samples.withUnsafeBufferPointer { src in
                if let bits {
                    let scale = Float(1 << (bits - 1))
                    let lo = -scale
                    let hi = scale - 1
                    let shift = Int32(32 - bits)
                    return ints.withUnsafeMutableBufferPointer { dst in
                        if tpdf != nil {
                            // Frame by frame, so the dither sequence runs in output order.
                            for i in 0..<m {
                                // One value per frame for every channel: identical channels stay identical.
                                let d = tpdf!.next()
                                for ch in 0..<c {
                                    let x = src[ch * n + written + i]
                                    let y = x * scale
                                    let q = min(max((y == y.rounded() ? y : y + d).rounded(), lo), hi)
                                    dst[i * c + ch] = q.isNaN ? 0 : Int32(q) << shift
                                }
                            }
                            return system_sf_writef_int(h, dst.baseAddress!, Int64(m))
                        }
                        for ch in 0..<c {
                            let s = src.baseAddress! + ch * n + written
                            for i in 0..<m {
                                let q = min(max((s[i] * scale).rounded(), lo), hi)
                                dst[i * c + ch] = q.isNaN ? 0 : Int32(q) << shift
                            }
                        }
                        return system_sf_writef_int(h, dst.baseAddress!, Int64(m))
                    }
                }
                return floats.withUnsafeMutableBufferPointer { dst in
                    for ch in 0..<c {
                        let s = src.baseAddress! + ch * n + written
                        for i in 0..<m { dst[i * c + ch] = s[i] }
                    }
                    return system_sf_writef_float(h, dst.baseAddress!, Int64(m))
                }
            }
            if got != m {
                let failure = writeFailure(h, errno: errno)
                throw EnsoError(
                    .ioFailure, path: path, "\(path): write failed after \(written) frames: \(failure.reason)",
                    code: failure.code)
            }
            written += m
        }
    }
}
