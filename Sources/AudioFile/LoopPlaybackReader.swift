import AudioCore

/// Reads a looping file in the order a player plays it, at a target rate, a chunk at a time: the frames before
/// the loop once, then the loop over and over. Memory stays bounded whatever the file's length.
///
/// The frames are exactly those the ambient player reads from the whole-file conversion,
/// ``Resampler/resample(_:to:quality:keepingSeamless:)`` (so a streamed theme sounds, bit for bit, as the same
/// theme loaded whole):
/// - at the file's own rate, the file's frames `0 ..< loop.end`, then `loop.start ..< loop.end` again and again;
/// - at another rate, the plain conversion's first `round(loop.start × ratio)` frames (fed from the file's start,
///   flushed only if the file ends first), then the loop's periodic conversion, recomputed for each repetition
///   from the same wrapped input the whole-buffer conversion builds (the loop's tail as context before its head,
///   its head after its tail), so each repetition is the same `round(L × ratio)` frames.
///
/// libsamplerate's output does not depend on how its input is cut into calls, which is what makes the chunked
/// conversion equal to the whole one.
///
/// - Thread safety: one thread at a time.
/// - Real-time safe: no (file I/O, allocation).
public final class LoopPlaybackReader {
    /// The file's path.
    public let path: String
    /// The file's header.
    public let info: AudioFileInfo
    /// The rate of the frames read.
    public let rate: SampleRate
    /// The frames of the whole converted file (as the whole-file conversion has them).
    public let frameCount: Int
    /// The loop in those frames.
    public let loop: LoopRegion

    private let reader: any PlaybackFrameSource
    private let source: LoopRegion
    private let quality: ResamplerQuality
    /// The channels read: the file's, folded to stereo past 2 (``ChannelMapper/foldToStereo(_:channels:frames:into:)``).
    private let channels: Int
    private let outChannels: ChannelCount
    /// The file's channel count.
    private let fileChannels: Int
    /// Output frames before the loop, and those of them still to come.
    private let introFrames: Int
    private var introLeft: Int
    /// The plain converter of the intro (`nil` at the file's rate, or once the intro is done).
    private var plain: StreamingResampler?
    /// The periodic conversion's layout (unused at the file's rate).
    private let periodic: (m: Int64, before: Int64, total: Int64, first: Int64)?
    private var repetition: StreamingResampler?
    /// Input frames of the current repetition's wrapped input fed so far; output frames it has produced.
    private var fed: Int64 = 0
    private var produced: Int64 = 0
    /// Where the next file frame comes from (at the file's rate: the play position in file frames).
    private var filePosition: Int64 = 0
    /// Converted frames waiting to be read (planar, one array per channel) and how many of them were read.
    private var pending: [[Float]]
    private var pendingRead = 0
    private var scratch: [Float]
    private static let chunkFrames = 4096

    /// Opens `path` to play `loop` (in the file's frames) at `rate`.
    ///
    /// - Throws: `EnsoError` from opening the file (as ``SoundFileReader/init(path:toleratingTruncation:)``),
    ///   `.invalidInput` naming the file for a loop outside it, or `.invalidArgument` for a rate the converter
    ///   cannot reach or a loop shorter than one frame at `rate`.
    public convenience init(path: String, loop: LoopRegion, rate: SampleRate, quality: ResamplerQuality)
        throws(EnsoError)
    {
        try self.init(source: try SoundFileReader(path: path), loop: loop, rate: rate, quality: quality)
    }

    /// Reads `source` to play `loop` (in its frames) at `rate`: as ``init(path:loop:rate:quality:)``, from frames
    /// that need not be a file's own (a streamed theme's seam-fixed loop).
    ///
    /// - Throws: as ``init(path:loop:rate:quality:)``, naming `source.path`.
    public init(source reader: any PlaybackFrameSource, loop: LoopRegion, rate: SampleRate, quality: ResamplerQuality)
        throws(EnsoError)
    {
        let path = reader.path
        let info = reader.info
        guard loop.start >= 0, loop.end <= info.frames, loop.length >= 1 else {
            throw EnsoError(
                .invalidInput, "\(path): loop \(loop.start)..<\(loop.end) does not fit in \(info.frames) frames",
                path: path)
        }
        self.path = path
        self.info = info
        self.rate = rate
        self.reader = reader
        self.quality = quality
        source = loop
        fileChannels = info.channels.count
        channels = min(fileChannels, 2)
        outChannels = ChannelCount(checked: channels)
        pending = Array(repeating: [], count: channels)
        scratch = [Float](repeating: 0, count: Self.chunkFrames * fileChannels)
        let n = Int64(info.frames)
        let from = info.sampleRate
        if rate == from {
            frameCount = Int(n)
            self.loop = loop
            introFrames = Int(loop.start)
            periodic = nil
        } else {
            // The layout of ``Resampler/resample(_:to:quality:keepingSeamless:)``.
            let l = loop.length
            let m = (l * Int64(rate.hertz) * 2 + Int64(from.hertz)) / (2 * Int64(from.hertz))
            guard m > 0 else {
                throw EnsoError(
                    .invalidArgument, path: path,
                    "\(path): a \(l)-frame loop is shorter than one frame at \(rate.hertz) Hz")
            }
            let probe = try StreamingResampler(
                channels: ChannelCount(checked: min(info.channels.count, 2)), from: from, to: rate, quality: quality)
            let plainCount = Int(probe.expectedOutputFrames(forInputFrames: n))
            let whole = loop.start == 0 && loop.end == n
            let start = whole ? 0 : min(Int((Double(loop.start) * rate.double / from.double).rounded()), plainCount)
            let tail = whole ? 0 : max(0, plainCount - (start + Int(m)))
            frameCount = start + Int(m) + tail
            self.loop = LoopRegion(start: FramePosition(start), end: FramePosition(start + Int(m)))
            introFrames = start
            let ratio = Double(m) / Double(l)
            let context = Int64((Double(quality.halfFilterFrames) / min(ratio, 1)).rounded(.up))
            let step = l / Self.gcd(l, m)
            let before = (context + step - 1) / step * step
            periodic = (m, before, before + l + context, before * m / l)
            if start > 0 { plain = probe }
        }
        introLeft = introFrames
    }

    /// Reads the next up to `maxFrames` frames of the play sequence into `left` and `right` (`nil` for a mono
    /// file; a stereo file's channels go to both, a mono file's one channel to `left`).
    ///
    /// - Returns: the frames read; never 0 for `maxFrames > 0` (the sequence has no end).
    /// - Throws: `EnsoError` from reading or converting, naming the file.
    public func read(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>?, maxFrames: Int)
        throws(EnsoError) -> Int
    {
        var done = 0
        while done < maxFrames {
            if pendingRead >= (pending.first?.count ?? 0) { try refill() }
            let have = pending[0].count - pendingRead
            let n = min(have, maxFrames - done)
            if n == 0 { continue }
            pending[0].withUnsafeBufferPointer { (left + done).update(from: $0.baseAddress! + pendingRead, count: n) }
            if let right {
                let ch = channels > 1 ? 1 : 0
                pending[ch].withUnsafeBufferPointer {
                    (right + done).update(from: $0.baseAddress! + pendingRead, count: n)
                }
            }
            pendingRead += n
            done += n
        }
        return done
    }

    /// Converts the next chunk into ``pending``.
    private func refill() throws(EnsoError) {
        for c in 0..<channels { pending[c].removeAll(keepingCapacity: true) }
        pendingRead = 0
        if periodic == nil {
            try refillAtFileRate()
        } else if introLeft > 0, let plain {
            try refillIntro(plain)
        } else {
            plain = nil
            try refillRepetition()
        }
    }

    /// At the file's rate: the next file frames of the play sequence.
    private func refillAtFileRate() throws(EnsoError) {
        if filePosition >= source.end {
            filePosition = source.start
            try reader.seek(toFrame: filePosition)
        }
        let n = Int(min(Int64(Self.chunkFrames), source.end - filePosition))
        let got = try readFile(n)
        guard got > 0 else {
            throw EnsoError(
                .truncated, path: path, "\(path): the stream ends at frame \(filePosition) before the loop's end")
        }
        filePosition += Int64(got)
        appendInterleaved(frames: got)
    }

    /// The intro at another rate: the plain conversion's next frames, up to the loop's start.
    private func refillIntro(_ converter: StreamingResampler) throws(EnsoError) {
        let got = try readFile(Self.chunkFrames)
        let out: AudioBuffer
        if got > 0 {
            out = try converter.process(bufferFromScratch(frames: got))
        } else {
            out = try converter.flush()
            if out.frameCount == 0 && introLeft > 0 {
                throw EnsoError(.truncated, path: path, "\(path): the stream ends before the loop's start")
            }
        }
        let take = min(out.frameCount, introLeft)
        for c in 0..<channels { out.withChannel(c) { pending[c].append(contentsOf: $0[0..<take]) } }
        introLeft -= take
        if introLeft == 0 { plain = nil }
    }

    /// The loop's periodic conversion: the next frames of the current repetition (a new one after the last).
    private func refillRepetition() throws(EnsoError) {
        guard let layout = periodic else { return }
        if repetition == nil || produced >= layout.first + layout.m {
            repetition = try StreamingResampler(
                channels: outChannels, sourceRate: info.sampleRate, targetRate: rate, quality: quality,
                numerator: layout.m, denominator: source.length)
            fed = 0
            produced = 0
            // Wrapped input frame 0 is loop frame (-before) mod L.
            let l = source.length
            filePosition = source.start + (l - layout.before % l) % l
            try reader.seek(toFrame: filePosition)
        }
        guard let converter = repetition else { return }
        let out: AudioBuffer
        if fed < layout.total {
            let n = Int(min(Int64(Self.chunkFrames), layout.total - fed, source.end - filePosition))
            let got = try readFile(n)
            guard got > 0 else {
                throw EnsoError(
                    .truncated, path: path, "\(path): the stream ends at frame \(filePosition) before the loop's end")
            }
            fed += Int64(got)
            filePosition += Int64(got)
            if filePosition >= source.end {
                filePosition = source.start
                try reader.seek(toFrame: filePosition)
            }
            out = try converter.process(bufferFromScratch(frames: got))
        } else {
            out = try converter.flush()
            if out.frameCount == 0 {
                throw EnsoError(.ioFailure, path: path, "\(path): the converter ended a loop short")
            }
        }
        // Keep output frames first ..< first + M of this repetition.
        let lo = Int(max(0, layout.first - produced))
        let hi = Int(min(Int64(out.frameCount), layout.first + layout.m - produced))
        produced += Int64(out.frameCount)
        if produced >= layout.first + layout.m {
            // The repetition is complete; whatever the flush would add lies past it.
            produced = layout.first + layout.m
        }
        guard lo < hi else { return }
        for c in 0..<channels { out.withChannel(c) { pending[c].append(contentsOf: $0[lo..<hi]) } }
    }

    /// Reads up to `frames` file frames into ``scratch`` (interleaved, folded to stereo past 2 channels).
    private func readFile(_ frames: Int) throws(EnsoError) -> Int {
        let n = try scratch.withUnsafeMutableBufferPointer { (p) throws(EnsoError) -> Int in
            try reader.readFrames(into: p.baseAddress!, maxFrames: frames)
        }
        if fileChannels > 2 && n > 0 {
            // In place: frame f's stereo pair lands at 2f, never past frame f's own samples at fileChannels × f.
            scratch.withUnsafeMutableBufferPointer { p in
                for f in 0..<n {
                    ChannelMapper.foldToStereo(
                        p.baseAddress! + f * fileChannels, channels: fileChannels, frames: 1,
                        into: p.baseAddress! + 2 * f)
                }
            }
        }
        return n
    }

    private func bufferFromScratch(frames: Int) -> AudioBuffer {
        scratch.withUnsafeBufferPointer {
            AudioBuffer(
                interleaved: UnsafeBufferPointer(rebasing: $0[0..<(frames * channels)]), channels: outChannels,
                sampleRate: info.sampleRate)
        }
    }

    private func appendInterleaved(frames: Int) {
        for c in 0..<channels {
            for i in 0..<frames { pending[c].append(scratch[i * channels + c]) }
        }
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
