import AudioCore
import AudioFile
import Foundation
import Synchronization

/// The part of a loop its seam is judged and baked from, read from the file without decoding the rest: the loop's
/// first and last ``sideSeconds``, with up to ``marginSeconds`` of the file before its start and after its end.
///
/// A loop of up to twice ``sideSeconds`` (20 s) is read whole, with its margins: judged or baked from the window
/// it gives the same figures, verdict and baked frames as the whole decoded file, bit for bit (the seam metrics
/// read only the loop, the bake only the loop and what its crossfade reaches). A longer loop is read as its head
/// and its tail joined into one shorter loop whose wrap is the real seam (the tail starting where it continues the
/// head best, so that their junction is an ordinary one, ``joinShift(_:channels:headCount:match:search:)``): the seam is
/// then judged against the 20 s around it rather than the whole loop. Memory is that of the window, whatever the
/// file's length: 7.7 MB of samples for a stereo 48 kHz file.
///
/// `enso loops verify` judges a file longer than ``LoopVerifier/windowAboveSeconds`` from its window, and a
/// streamed theme's seam is judged and baked from its window at load (AssetLoading).
///
/// - Thread safety: a value type; ``read(path:loop:sideSeconds:foldingToStereo:)`` is a pure function (it reads on
///   two threads at once, `DispatchQueue.concurrentPerform`, and returns when both are done).
/// - Real-time safe: no (file I/O).
public struct SeamWindow: Sendable {
    /// How much of the loop is read on each side of the seam: 10 s. The ear judges a seam against what it has just
    /// heard (its echoic memory holds a few seconds), not against a stretch of the recording half an hour away;
    /// 10 s on each side holds thousands of ordinary junctions to compare the seam with and five cycles of a pulse
    /// 2 s long (the rhythm metric looks for periods up to half the window). A window of a minute cost 0.25 s and
    /// took a session with two such themes to 135 MB at load.
    public static let sideSeconds = 10.0
    /// How much of the file is read before the loop's start and after its end: 1 s, the longest crossfade
    /// ``LoopBaker`` makes (it crossfades with the material past the loop's end, or before its start, and compares
    /// levels over 400 ms of it).
    public static let marginSeconds = 1.0

    /// How much of the waveform is compared where a long loop's head meets its tail: 20 ms (a cycle of 50 Hz).
    static let joinMatchSeconds = 0.02
    /// How far the tail's start may move so that it continues the head as the recording continues itself: up to
    /// 50 ms earlier (a whole cycle of anything above 20 Hz).
    static let joinSearchSeconds = 0.05

    /// Where a long loop's tail should start so that the junction of head and tail is an ordinary one: `planar`'s
    /// `channels` hold the head (`headCount` frames), then the tail from `match + search` frames before its nominal
    /// start.
    /// For each shift `d` in `0 ..< search`, the `match` tail frames from `d` on are correlated with the head's
    /// last `match` frames (mono mix, normalised), and the tail starts right after the best ones: a tone cut at two
    /// arbitrary places would meet in a phase jump, one more seam among the junctions the metrics compare the real
    /// seam with; joined where the waveforms agree, the junction is ordinary.
    static func joinShift(_ planar: Planar, channels: Int, headCount: Int, match: Int, search: Int) -> Int {
        guard match > 0, search > 0 else { return 0 }
        func mono(_ i: Int) -> Double {
            var v = 0.0
            for c in 0..<channels { v += Double(planar.channel(c)[i]) }
            return v
        }
        let head = (0..<match).map { mono(headCount - match + $0) }
        let tail = (0..<(match + search)).map { mono(headCount + $0) }
        let headEnergy = head.reduce(0) { $0 + $1 * $1 }
        var best = (shift: 0, score: -Double.infinity)
        // Through pointers: the same sums in the same order (so the same shift, bit for bit), without a bounds
        // check per product; the search is 2.3 million products at 48 kHz, read before a streamed theme is heard.
        head.withUnsafeBufferPointer { h in
            tail.withUnsafeBufferPointer { t in
                for d in 0..<search {
                    var dot = 0.0
                    var energy = 0.0
                    let u = t.baseAddress! + d
                    for j in 0..<match {
                        dot += h[j] * u[j]
                        energy += u[j] * u[j]
                    }
                    let score = headEnergy > 0 && energy > 0 ? dot / (headEnergy * energy).squareRoot() : 0
                    if score > best.score { best = (d, score) }
                }
            }
        }
        return best.shift
    }

    /// The window's frames: the loop's head, then (for a long loop) its tail, with their margins; folded to stereo
    /// when asked.
    public var buffer: AudioBuffer
    /// The loop in the window's frames; its wrap is the file loop's seam.
    public var loop: LoopRegion
    /// The file's loop the window was read from.
    public var fileLoop: LoopRegion
    /// Whether the window holds the file's loop whole (then it is the file's frames from `fileLoop.start` minus
    /// the margin on, and everything measured from it is as measured from the whole file).
    public var holdsWholeLoop: Bool

    /// Frames of the loop cut out of the window (a long loop's middle): 0 when it holds the loop whole.
    public var framesLeftOut: FrameCount { fileLoop.length - loop.length }

    /// Reads the window around the seam of `loop` (frames of the file at `path`).
    ///
    /// The window's parts are read at once on two threads, each by its own reader, straight into the window's
    /// channels (``readParts(_:of:reader:channels:into:concurrently:)``): a long loop's head and tail, or the two
    /// halves of a whole loop of a file whose frames decode the same whatever was read before (PCM or FLAC). A
    /// streamed theme's first frame waits for this read, and on two cores the window costs half as long; the
    /// frames are those read one part after the other on one reader, bit for bit (`SeamWindowTests`).
    ///
    /// - Parameters:
    ///   - sideSeconds: how much of the loop to read on each side of the seam (``sideSeconds``; tests lower it).
    ///   - foldingToStereo: fold a file of more than 2 channels to stereo as a played theme is folded
    ///     (``ChannelMapper/foldToStereo(_:channels:frames:into:)``); `false` keeps its channels.
    /// - Throws: `EnsoError` naming the file: from opening or reading it (`truncated` when it ends before the
    ///   loop's end), `invalid-input` for a loop outside it or for a NaN or infinite sample in the window; when
    ///   both parts fail, the first part's error, as a read in order would throw.
    public static func read(
        path: String, loop: LoopRegion, sideSeconds: Double = sideSeconds, foldingToStereo: Bool
    ) throws(EnsoError) -> SeamWindow {
        try read(path: path, loop: loop, sideSeconds: sideSeconds, foldingToStereo: foldingToStereo, concurrently: true)
    }

    /// ``read(path:loop:sideSeconds:foldingToStereo:)``, its parts read on two threads or (`concurrently: false`,
    /// how tests check the two agree) one after the other on one reader, a whole loop as one part.
    static func read(
        path: String, loop: LoopRegion, sideSeconds: Double, foldingToStereo: Bool, concurrently: Bool
    ) throws(EnsoError) -> SeamWindow {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        let info = reader.info
        guard loop.start >= 0, loop.end <= info.frames, loop.length >= 2 else {
            throw EnsoError(
                .invalidInput, "\(path): loop \(loop.start)..<\(loop.end) does not fit in \(info.frames) frames",
                path: path)
        }
        let side = max(1, info.sampleRate.frames(seconds: sideSeconds))
        let margin = info.sampleRate.frames(seconds: marginSeconds)
        let before = min(loop.start, margin)
        let after = min(info.frames - loop.end, margin)
        let channels = foldingToStereo ? min(info.channels.count, 2) : info.channels.count
        let match = info.sampleRate.frames(seconds: joinMatchSeconds)
        let search = info.sampleRate.frames(seconds: joinSearchSeconds)
        let whole = loop.length <= 2 * side + match + search
        let parts: [Range<FramePosition>]
        if whole {
            let all = (loop.start - before)..<(loop.end + after)
            let split = concurrently && decodesAnywhereAlike(info) && all.count >= 2 * minimumPart
            let middle = all.lowerBound + FramePosition(all.count / 2)
            parts = split ? [all.lowerBound..<middle, middle..<all.upperBound] : [all]
        } else {
            // The tail from `match + search` frames earlier: where it starts is chosen to continue the head.
            parts = [
                (loop.start - before)..<(loop.start + side), (loop.end - side - search - match)..<(loop.end + after),
            ]
        }
        let total = parts.reduce(0) { $0 + Int($1.count) }
        var samples = [Float](repeating: 0, count: channels * total)
        try samples.withUnsafeMutableBufferPointer { (p) throws(EnsoError) in
            try readParts(
                parts, of: loop, reader: reader, channels: channels, into: Planar(base: p.baseAddress!, frames: total),
                concurrently: concurrently)
        }
        let region: LoopRegion
        if whole {
            region = LoopRegion(start: before, end: before + loop.length)
        } else {
            let headCount = Int(before + side)
            let shift = samples.withUnsafeBufferPointer {
                joinShift(
                    Planar(base: UnsafeMutablePointer(mutating: $0.baseAddress!), frames: total), channels: channels,
                    headCount: headCount, match: Int(match), search: Int(search))
            }
            let cut = Int(match) + shift
            Self.removeFrames(headCount..<(headCount + cut), from: &samples, channels: channels, frames: total)
            region = LoopRegion(start: before, end: before + 2 * side + search - FramePosition(shift))
        }
        return SeamWindow(
            buffer: AudioBuffer(
                planarSamples: samples, channels: ChannelCount(checked: channels), sampleRate: info.sampleRate),
            loop: region, fileLoop: loop, holdsWholeLoop: whole)
    }

    /// The shortest part worth a thread of its own: 1 s of 48 kHz (shorter, opening a second reader costs more
    /// than it saves).
    static let minimumPart = 48_000

    /// Whether every frame of the file decodes to the same samples whether the reader seeked to it or read up to
    /// it: PCM (WAV, AIFF, ...) and FLAC, lossless and framed independently. A lossy decoder (Vorbis, Opus, MP3)
    /// may prime its overlap differently after a seek, so a whole loop of one is read in one pass, as before.
    static func decodesAnywhereAlike(_ info: AudioFileInfo) -> Bool {
        info.subtype.hasPrefix("PCM_") || ["FLOAT", "DOUBLE", "ULAW", "ALAW"].contains(info.subtype)
    }

    /// Planar samples being filled: channel `c`'s frame `f` at `base[c * frames + f]`.
    struct Planar: @unchecked Sendable {
        // Sendable by hand: each thread writes only its own part's frames of each channel.
        let base: UnsafeMutablePointer<Float>
        let frames: Int
        func channel(_ c: Int) -> UnsafeMutablePointer<Float> { base + c * frames }
    }

    /// The file's reader, handed to the thread that reads the first part (one thread at a time uses it).
    private struct Lent: @unchecked Sendable { let reader: SoundFileReader }

    /// Reads `parts` (file frames) one after the other into `out`'s frames: on two threads when `concurrently`,
    /// the first part by `reader`, the others each by a reader of its own; else all by `reader` in order.
    ///
    /// - Throws: the first failing part's error (in the parts' order).
    static func readParts(
        _ parts: [Range<FramePosition>], of loop: LoopRegion, reader: SoundFileReader, channels: Int, into out: Planar,
        concurrently: Bool
    ) throws(EnsoError) {
        let offsets = parts.indices.map { i in parts[..<i].reduce(0) { $0 + Int($1.count) } }
        guard concurrently, parts.count > 1 else {
            for (part, at) in zip(parts, offsets) {
                try readPart(part, of: loop, reader: reader, channels: channels, into: out, at: at)
            }
            return
        }
        let lent = Lent(reader: reader)
        let path = reader.path
        let failures = Mutex([EnsoError?](repeating: nil, count: parts.count))
        DispatchQueue.concurrentPerform(iterations: parts.count) { i in
            do throws(EnsoError) {
                let own = i == 0 ? lent.reader : try SoundFileReader(path: path)
                defer { if i > 0 { own.close() } }
                try readPart(parts[i], of: loop, reader: own, channels: channels, into: out, at: offsets[i])
            } catch {
                failures.withLock { $0[i] = error }
            }
        }
        if let first = failures.withLock({ $0.lazy.compactMap { $0 }.first }) { throw first }
    }

    /// Reads the file's frames `range` with `reader` into `out` from frame `at`, folded to `channels`.
    static func readPart(
        _ range: Range<FramePosition>, of loop: LoopRegion, reader: SoundFileReader, channels: Int, into out: Planar,
        at: Int
    ) throws(EnsoError) {
        let path = reader.path
        let fileChannels = reader.info.channels.count
        var scratch = [Float](repeating: 0, count: 4_096 * fileChannels)
        var folded = [Float](repeating: 0, count: 4_096 * 2)
        try reader.seek(toFrame: range.lowerBound)
        var frame = range.lowerBound
        var written = at
        while frame < range.upperBound {
            let want = Int(min(4_096, range.upperBound - frame))
            let n = try scratch.withUnsafeMutableBufferPointer { (p) throws(EnsoError) -> Int in
                try reader.readFrames(into: p.baseAddress!, maxFrames: want)
            }
            guard n > 0 else {
                throw EnsoError(
                    .truncated, path: path,
                    "\(path): the stream ends at frame \(frame), before the loop's end at frame \(loop.end)")
            }
            if let k = Self.firstNonFinite(scratch, count: n * fileChannels) {
                throw EnsoError(
                    .invalidInput,
                    "\(path): \(scratch[k].isNaN ? "a NaN" : "an infinite") sample in channel "
                        + "\(k % fileChannels + 1) at frame \(frame + FramePosition(k / fileChannels)): the file "
                        + "cannot be measured or played", path: path)
            }
            if channels < fileChannels {
                scratch.withUnsafeBufferPointer { s in
                    folded.withUnsafeMutableBufferPointer { d in
                        ChannelMapper.foldToStereo(
                            s.baseAddress!, channels: fileChannels, frames: n, into: d.baseAddress!)
                    }
                }
                Self.deinterleave(folded, stride: 2, frames: n, into: out, at: written, channels: channels)
            } else {
                Self.deinterleave(scratch, stride: fileChannels, frames: n, into: out, at: written, channels: channels)
            }
            frame += FramePosition(n)
            written += n
        }
    }

    /// Removes frames `range` from each channel of the planar `samples` (`frames` frames a channel), in place.
    static func removeFrames(_ range: Range<Int>, from samples: inout [Float], channels: Int, frames: Int) {
        let kept = frames - range.count
        samples.withUnsafeMutableBufferPointer { p in
            let base = p.baseAddress!
            for c in 0..<channels {
                let from = base + c * frames
                let to = base + c * kept
                // Every move goes to a lower address: overlapping, so `memmove`.
                memmove(to, from, range.lowerBound * MemoryLayout<Float>.stride)
                memmove(
                    to + range.lowerBound, from + range.upperBound,
                    (frames - range.upperBound) * MemoryLayout<Float>.stride)
            }
        }
        samples.removeLast(channels * range.count)
    }

    /// The index of the first sample of `samples[0 ..< count]` that is a NaN or an infinity, `nil` when all are
    /// finite: a plain loop over the chunk (a closure per sample made reading the window a third slower).
    static func firstNonFinite(_ samples: [Float], count: Int) -> Int? {
        samples.withUnsafeBufferPointer { p in
            for i in 0..<count where !p[i].isFinite { return i }
            return nil
        }
    }

    /// Copies `frames` interleaved frames of `samples` (`stride` samples a frame) into `out`'s first `channels`
    /// channels from frame `at`, channel `c` from sample `c` of each frame: a plain strided copy per channel, where
    /// appending sample by sample cost more than decoding the window (a uniqueness and a capacity check per sample).
    static func deinterleave(
        _ samples: [Float], stride: Int, frames: Int, into out: Planar, at: Int, channels: Int
    ) {
        samples.withUnsafeBufferPointer { s in
            for c in 0..<channels {
                let to = out.channel(c) + at
                var from = s.baseAddress! + c
                for f in 0..<frames {
                    to[f] = from.pointee
                    from += stride
                }
            }
        }
    }
}
