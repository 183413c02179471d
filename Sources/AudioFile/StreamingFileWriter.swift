import AudioCore
import CSndFile
import Glibc
import SystemIO

/// Writes an audio file block by block, for output too long to hold in memory (an offline session render).
///
/// The file is written under a temporary name in the destination folder and renamed into place by
/// ``finish()``; ``cancel()``, a thrown write error or dropping the writer unfinished removes the
/// temporary file, so the destination never holds a half-written file.
///
/// Integer formats are quantised here exactly as ``AudioFileEncoder`` does (round `x × 2^(bits-1)`,
/// clip to the format's range, write through `sf_writef_int`). The 16-bit path converts with integer
/// arithmetic only (the float-to-int rounding is done by adding 1.5 × 2^23 and reading the bits), so
/// the compiler vectorises it; it is the step that decides how fast a long render reaches the disk.
/// With `dither: true` 16-bit output gets ``TPDFDither`` before the rounding (`enso render` does this).
///
/// - Thread safety: one thread at a time.
/// - Real-time safe: no (file I/O).
public final class StreamingFileWriter {
    /// The destination path.
    public let path: String
    /// The format being written.
    public let format: EncodeFormat
    /// The interleaved channel count of every block.
    public let channels: Int
    /// Frames written so far.
    public private(set) var framesWritten: Int64 = 0

    private let temp: String
    private var handle: SndfileHandle?
    private let durability: AtomicFile.Durability
    private var ints: UnsafeMutablePointer<Int32>
    private var shorts: UnsafeMutablePointer<Int16>
    private var intCapacity = 0
    private let bits: Int?
    /// TPDF dither for 16-bit output (`nil`: plain rounding).
    private var dither: TPDFDither?

    /// Creates the temporary file and writes the header.
    ///
    /// The corresponding C functions are `sf_format_check`, `sf_open` (`SFM_WRITE`) and `sf_command`
    /// (`SFC_SET_VBR_ENCODING_QUALITY`, `SFC_SET_COMPRESSION_LEVEL`).
    ///
    /// - Parameters:
    ///   - path: the destination.
    ///   - format: the encoding.
    ///   - sampleRate: frames per second.
    ///   - channels: interleaved channels per frame.
    ///   - quality: 0...1 for lossy formats.
    ///   - durability: what the finished file survives (``AtomicFile/Durability``: `.powerLoss` fsyncs it and its
    ///     folder in ``finish()``, which costs time on a slow disk).
    ///   - dither: add TPDF dither before rounding to 16 bits (``TPDFDither``; ignored for other formats).
    /// - Throws: `EnsoError` `.invalidArgument` (quality, an Opus rate), `.unsupported` (libsndfile
    ///   refuses the combination), `.permissionDenied`, `.notFound` (no such folder) or `.ioFailure`.
    public init(
        path: String, format: EncodeFormat, sampleRate: SampleRate, channels: ChannelCount, quality: Double = 0.6,
        durability: AtomicFile.Durability = .powerLoss, dither: Bool = false
    ) throws(EnsoError) {
        try SndfileWriteOpen.validate(path: path, format: format, sampleRate: sampleRate, quality: quality)
        self.path = path
        self.format = format
        self.channels = channels.count
        self.durability = durability
        bits = format == .wav16 || format == .flac ? 16 : format == .wav24 || format == .flac24 ? 24 : nil
        self.dither = dither && bits == 16 ? TPDFDither() : nil
        ints = .allocate(capacity: 1)
        shorts = .allocate(capacity: 1)
        temp = AtomicFile.temporaryPath(for: path)
        handle = try SndfileWriteOpen.open(
            temp: temp, path: path, format: format, sampleRate: sampleRate, channels: channels.count, quality: quality)
    }

    deinit {
        cancel()
        ints.deallocate()
        shorts.deallocate()
    }

    /// Appends interleaved frames (`samples.count` must be a multiple of ``channels``).
    ///
    /// The corresponding C functions are `sf_writef_int` (integer formats) and `sf_writef_float`.
    ///
    /// - Throws: `EnsoError` `.ioFailure` (disk full, ...); the writer is cancelled (temporary file removed).
    public func write(interleaved samples: UnsafeBufferPointer<Float>) throws(EnsoError) {
        guard let h = handle else {
            preconditionFailure("\(path): write after finish or cancel")
        }
        precondition(samples.count % channels == 0, "sample count is not a multiple of the channel count")
        let frames = samples.count / channels
        if frames == 0 { return }
        let got: Int64
        // A stale errno must not pass for this write's reason (``writeFailure(_:errno:)``).
        errno = 0
        if let bits {
            if intCapacity < samples.count {
                ints.deallocate()
                shorts.deallocate()
                ints = .allocate(capacity: samples.count)
                shorts = .allocate(capacity: samples.count)
                intCapacity = samples.count
            }
            if bits == 16 {
                if dither != nil {
                    Self.quantize16(samples.baseAddress!, shorts, samples.count, channels: channels, dither: &dither!)
                } else {
                    Self.quantize16(samples.baseAddress!, shorts, samples.count)
                }
                got = streaming_sf_writef_short(h, shorts, Int64(frames))
            } else {
                Self.quantize24(samples.baseAddress!, ints, samples.count)
                got = system_sf_writef_int(h, ints, Int64(frames))
            }
        } else {
            got = system_sf_writef_float(h, samples.baseAddress!, Int64(frames))
        }
        guard got == Int64(frames) else {
            let failure = writeFailure(h, errno: errno)
            cancel()
            throw EnsoError(.ioFailure, path: path, "\(path): write failed: \(failure.reason)", code: failure.code)
        }
        framesWritten += Int64(frames)
    }

    /// Closes the file and renames it into place (``AtomicFile/commit(_:fd:to:durability:)``).
    ///
    /// - Throws: `EnsoError` `.ioFailure`; the temporary file is removed.
    public func finish() throws(EnsoError) {
        guard let h = handle else { preconditionFailure("\(path): finish after finish or cancel") }
        handle = nil
        let rc = system_sf_close(h)
        if rc != 0 {
            AtomicFile.abandon(temp, fd: nil)
            throw EnsoError(.ioFailure, path: path, "\(path): closing the file failed (code \(rc))", code: rc)
        }
        try AtomicFile.commit(temp, to: path, durability: durability)
    }

    /// Abandons the file: closes and removes the temporary file. Does nothing after ``finish()``.
    public func cancel() {
        guard let h = handle else { return }
        handle = nil
        _ = system_sf_close(h)
        AtomicFile.abandon(temp, fd: nil)
    }

    /// `round(x × 32768)` clipped to the 16-bit range.
    ///
    /// Adding 1.5 × 2^23 to a float of magnitude below 2^22 leaves the rounded integer in the low mantissa
    /// bits (round to nearest even, as `rounded(.toNearestOrEven)`); reading it back is integer
    /// arithmetic, so the loop vectorises (no per-sample conversion trap checks). NaN becomes -32768.
    static func quantize16(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Int16>, _ n: Int) {
        let magic: Float = 12_582_912  // 1.5 * 2^23, bit pattern 0x4B40_0000
        for i in 0..<n {
            var x = src[i] * 32_768
            x = x > -32_768 ? x : -32_768
            x = x < 32_767 ? x : 32_767
            dst[i] = Int16(truncatingIfNeeded: (x + magic).bitPattern)
        }
    }

    /// `round(x × 32768 + d)` clipped to the 16-bit range, `d` from `dither`, one value per frame shared by its
    /// `channels` samples (identical channels stay identical); a sample already on the grid (`x × 32768` whole:
    /// silence, 16-bit material) gets no dither and passes exactly.
    static func quantize16(
        _ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Int16>, _ n: Int, channels: Int,
        dither: inout TPDFDither
    ) {
        let magic: Float = 12_582_912  // 1.5 * 2^23, bit pattern 0x4B40_0000
        var frame = 0
        while frame < n {
            let d = dither.next()
            for i in frame..<(frame + channels) {
                var x = src[i] * 32_768
                x = (x + magic) - magic == x ? x : x + d
                x = x > -32_768 ? x : -32_768
                x = x < 32_767 ? x : 32_767
                dst[i] = Int16(truncatingIfNeeded: (x + magic).bitPattern)
            }
            frame += channels
        }
    }

    /// `round(x × 2^23)` clipped to the 24-bit range, in the top 24 bits of an `Int32`.
    static func quantize24(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Int32>, _ n: Int) {
        for i in 0..<n {
            var x = (src[i] * 8_388_608).rounded()
            x = x > -8_388_608 ? x : -8_388_608
            x = x < 8_388_607 ? x : 8_388_607
            dst[i] = Int32(x) &<< 8
        }
    }
}

// MARK: - libsndfile

/// The corresponding C function is `sf_writef_short`. A thin wrapper like those in `Sndfile+Syscalls.swift`
/// (kept here, beside its only caller, until that file's owner adopts it).
@inline(__always)
private func streaming_sf_writef_short(_ handle: SndfileHandle, _ ptr: UnsafePointer<Int16>, _ frames: Int64) -> Int64 {
    sf_writef_short(handle, ptr, frames)
}
