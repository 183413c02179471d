import AudioCore
import CSndFile
import Glibc

/// An open audio file, read frame by frame (streaming) or all at once.
///
/// Reads every format libsndfile reads (WAV, RF64, AIFF, FLAC, Ogg Vorbis, Opus, MP3, ...). Samples
/// come out as `Float`, never clipped (Vorbis may decode above 1.0). End of stream is not an error:
/// ``readFrames(into:maxFrames:)`` returns 0. A file that ends before the frame count its header
/// declares is an error (`.malformed`), both when opening (WAV/AIFF data chunk cut off) and when the
/// decoder runs dry early (FLAC, Ogg).
///
/// - Thread safety: one thread at a time.
/// - Real-time safe: no (file I/O).
public final class SoundFileReader {
    /// What the header said.
    public let info: AudioFileInfo
    /// The file's path.
    public let path: String
    /// The next frame ``readFrames(into:maxFrames:)`` returns.
    public private(set) var position: FramePosition = 0
    private var handle: SndfileHandle?
    /// Whether `info.frames` is exact, so a shorter stream means a cut-off file (an MP3's length is an estimate from
    /// its size unless a Xing, Info or VBRI tag states it: ``MP3HeaderProbe``).
    private var lengthIsExact: Bool
    /// Whether libmpg123 decodes it, whose messages go to stderr named by the file (``DecoderMessages``).
    private let decodesMPEG: Bool
    /// Whether a stream that ends early is read as far as it decodes instead of refused.
    private let toleratesTruncation: Bool
    /// The stream ended (or broke) before its declared end and was read as far as it decoded: set only when opened
    /// with `toleratingTruncation`, where such a file is not an error.
    public private(set) var truncated = false

    /// Opens `path` for reading.
    ///
    /// The corresponding C function is `sf_open` with `SFM_READ`.
    ///
    /// - Parameter toleratingTruncation: read a stream that ends early (an Ogg without its last page, a FLAC or
    ///   WAV cut off, a decoder error part-way) as far as it decodes, and set ``truncated``, instead of throwing.
    /// - Throws: `EnsoError` of kind `.notFound`, `.permissionDenied`, `.isDirectory`, `.empty`,
    ///   `.notAudio`, `.malformed` (also for a truncated file, unless tolerated), `.unsupported` or
    ///   `.invalidHeader`; the message names the file.
    public init(path: String, toleratingTruncation: Bool = false) throws(EnsoError) {
        self.path = path
        toleratesTruncation = toleratingTruncation
        try Self.checkPath(path)
        var sfinfo = SF_INFO()
        let opened = DecoderMessages.naming(path, when: DecoderMessages.mayBeMPEG(path)) {
            system_sf_open(path, Int32(SFM_READ), &sfinfo)
        }
        guard let h = opened.handle else {
            throw Self.openFailure(path: path, code: opened.code, text: opened.text)
        }
        var cut = false
        do throws(EnsoError) {
            try Self.validate(sfinfo, path: path)
        } catch {
            if toleratingTruncation, error.detail == .truncated, sfinfo.channels > 0 {
                cut = true
            } else {
                _ = system_sf_close(h)
                throw error
            }
        }
        // Never clip on decode.
        _ = system_sf_command(h, Int32(SFC_SET_CLIPPING), nil, Int32(SF_FALSE))
        let major = sfinfo.format & Int32(SF_FORMAT_TYPEMASK)
        handle = h
        // A stream with no end has no length to trust: it is read until the decoder stops.
        let endless = sfinfo.frames == Int64.max
        lengthIsExact = !endless && (major != Int32(SF_FORMAT_MPEG) || MP3HeaderProbe.statesLength(path: path))
        decodesMPEG = major == Int32(SF_FORMAT_MPEG)
        truncated = cut
        let loops = readLoops(h)
        var info = AudioFileInfo(
            format: formatName(major: major),
            subtype: subtypeName(minor: sfinfo.format & Int32(SF_FORMAT_SUBMASK)),
            sampleRate: SampleRate(checked: Int(sfinfo.samplerate)),
            channels: ChannelCount(checked: Int(sfinfo.channels)),
            frames: endless ? 0 : sfinfo.frames,
            loops: loops.loops,
            cues: Self.labelled(readCues(h), path: path, wav: major == Int32(SF_FORMAT_WAV)))
        info.loopWarnings = loops.warnings
        self.info = info
    }

    deinit {
        if let h = handle { _ = system_sf_close(h) }
    }

    /// `cues` with their labels from the WAV's `adtl` list, which libsndfile does not read (``WAVCueLabels``).
    private static func labelled(_ cues: [CuePoint], path: String, wav: Bool) -> [CuePoint] {
        guard wav, !cues.isEmpty, cues.allSatisfy({ $0.name.isEmpty }) else { return cues }
        let labels = WAVCueLabels.read(path: path)
        return cues.map { CuePoint(id: $0.id, position: $0.position, name: labels[$0.id] ?? $0.name) }
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
    /// - Returns: the number of frames read; 0 at the end of the stream (and after ``close()``).
    /// - Throws: `EnsoError` of kind `.malformed` (the file breaks or ends before its declared
    ///   length) or `.ioFailure` (the system failed to read).
    public func readFrames(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(EnsoError) -> Int {
        guard let h = handle, maxFrames > 0 else { return 0 }
        let n = DecoderMessages.naming(path, when: decodesMPEG) { system_sf_readf_float(h, buffer, Int64(maxFrames)) }
        // Every frame the header declares has decoded: an error past them is bytes after the stream (a FLAC with
        // zeros or a tag appended), no damage to the sound.
        let wholeStream = lengthIsExact && position + Int64(max(n, 0)) >= info.frames
        if n < maxFrames && !wholeStream {
            let code = system_sf_error(h)
            if code != 0 && toleratesTruncation {
                // Keep what decoded; the stream breaks here.
                truncated = true
                position += max(n, 0)
                close()
                return Int(max(n, 0))
            }
            if code != 0 {
                throw EnsoError(
                    errorKind(forSndfileCode: code), path: path,
                    "\(path): read failed at frame \(position + max(n, 0)): \(system_sf_strerror(h))", code: code)
            }
        }
        position += max(n, 0)
        if n == 0 && lengthIsExact && position < info.frames {
            if toleratesTruncation {
                truncated = true
                return 0
            }
            throw EnsoError(
                .truncated, path: path,
                "\(path): truncated: the header declares \(info.frames) frames but the stream ends at frame \(position)"
            )
        }
        return Int(n)
    }

    /// Moves the read position to `frame`.
    ///
    /// The corresponding C function is `sf_seek` with `SEEK_SET`.
    ///
    /// - Throws: `EnsoError` of kind `.invalidArgument` when `frame` is outside the file or the
    ///   format cannot seek.
    public func seek(toFrame frame: FramePosition) throws(EnsoError) {
        guard let h = handle else { return }
        let got = DecoderMessages.naming(path, when: decodesMPEG) { system_sf_seek(h, frame, SEEK_SET) }
        if got < 0 {
            throw EnsoError(.invalidArgument, path: path, "\(path): cannot seek to frame \(frame)")
        }
        position = got
    }

    /// Reads every remaining frame into a planar buffer.
    ///
    /// When the header's frame count can be trusted, the result is allocated once at its final size
    /// and each chunk is deinterleaved straight into it from one small scratch block: one full-size
    /// allocation per file, as a plain C loop into a malloc'd buffer has. Otherwise (MP3) the buffer grows.
    ///
    /// - Throws: `EnsoError` of kind `.malformed` when the file is cut short or no frame decodes,
    ///   or `.ioFailure`.
    public func readAll() throws(EnsoError) -> AudioBuffer {
        let c = info.channels.count
        try DecodeLimits.checkBudget(frames: info.frames - position, channels: c, rate: info.sampleRate, path: path)
        let chunk = max(1, 16_384 / c)
        var scratch = [Float](repeating: 0, count: chunk * c)
        let remaining = info.frames - position
        guard lengthIsExact && remaining > 0 && remaining <= Int64(Int32.max) else {
            return try readAllGrowing(scratch: &scratch, chunk: chunk)
        }
        let total = Int(remaining)
        var failure: EnsoError?
        var got = 0
        let samples = [Float](unsafeUninitializedCapacity: c * total) { out, initialized in
            let dst = out.baseAddress!
            scratch.withUnsafeMutableBufferPointer { s in
                while got < total {
                    let n: Int
                    do throws(EnsoError) {
                        n = try readFrames(into: s.baseAddress!, maxFrames: min(chunk, total - got))
                    } catch {
                        failure = error
                        return
                    }
                    if n == 0 { return }
                    deinterleave(
                        UnsafePointer(s.baseAddress!), frames: n, channels: c, into: dst, stride: total, at: got)
                    got += n
                }
            }
            // Only reached short of `total` on failure, which throws below; keep the memory defined anyway.
            for ch in 0..<c { (dst + ch * total + got).initialize(repeating: 0, count: total - got) }
            initialized = c * total
        }
        if let failure { throw failure }
        if got < total && truncated && got > 0 {
            // Tolerated: the frames that decoded, no padding.
            let buffer = AudioBuffer(planarSamples: samples, channels: info.channels, sampleRate: info.sampleRate)
                .slice(frames: 0..<got)
            try DecodeLimits.checkRange(buffer, path: path)
            return buffer
        }
        if got < total {
            throw EnsoError(
                .truncated, path: path, "\(path): truncated: the header declares \(info.frames) frames, \(got) decoded")
        }
        let buffer = AudioBuffer(planarSamples: samples, channels: info.channels, sampleRate: info.sampleRate)
        try DecodeLimits.checkRange(buffer, path: path)
        return buffer
    }

    /// ``readAll()`` for streams whose length is an estimate: collect in a growing planar store.
    private func readAllGrowing(scratch: inout [Float], chunk: Int) throws(EnsoError) -> AudioBuffer {
        let c = info.channels.count
        var planar = PlanarAccumulator(channels: c, capacity: 1 << 16)
        while true {
            let n = try scratch.withUnsafeMutableBufferPointer { (p) throws(EnsoError) -> Int in
                try readFrames(into: p.baseAddress!, maxFrames: chunk)
            }
            if n == 0 { break }
            scratch.withUnsafeBufferPointer { planar.append(interleaved: $0.baseAddress!, frames: n) }
            try DecodeLimits.checkBudget(frames: Int64(planar.count), channels: c, rate: info.sampleRate, path: path)
        }
        if planar.count == 0 {
            throw EnsoError(.malformed, path: path, "\(path): no frames could be decoded (truncated or corrupt)")
        }
        let buffer = AudioBuffer(planarSamples: planar.finish(), channels: info.channels, sampleRate: info.sampleRate)
        try DecodeLimits.checkRange(buffer, path: path)
        return buffer
    }
}

/// Planar storage filled chunk by chunk from interleaved frames, growing by doubling when needed.
private struct PlanarAccumulator {
    let channels: Int
    private(set) var capacity: Int
    private(set) var count = 0
    private var storage: UnsafeMutablePointer<Float>

    init(channels: Int, capacity: Int) {
        self.channels = channels
        self.capacity = max(capacity, 1)
        storage = .allocate(capacity: channels * self.capacity)
    }

    mutating func append(interleaved src: UnsafePointer<Float>, frames n: Int) {
        if count + n > capacity { grow(to: max(capacity * 2, count + n)) }
        deinterleave(src, frames: n, channels: channels, into: storage, stride: capacity, at: count)
        count += n
    }

    private mutating func grow(to newCapacity: Int) {
        let bigger = UnsafeMutablePointer<Float>.allocate(capacity: channels * newCapacity)
        for ch in 0..<channels {
            (bigger + ch * newCapacity).update(from: storage + ch * capacity, count: count)
        }
        storage.deallocate()
        storage = bigger
        capacity = newCapacity
    }

    /// The samples as one array, channel after channel; frees the storage.
    consuming func finish() -> [Float] {
        let n = count
        let cap = capacity
        let c = channels
        let src = storage
        let result = [Float](unsafeUninitializedCapacity: c * n) { out, initialized in
            for ch in 0..<c { (out.baseAddress! + ch * n).initialize(from: src + ch * cap, count: n) }
            initialized = c * n
        }
        src.deallocate()
        return result
    }
}
