import AssetPipeline
import AudioCore
import AudioFile

/// A streamed theme's seam fix: what ``LoopBaker`` changes in the loop, kept small so the loop itself can stay on
/// disk.
///
/// A bake keeps the loop's frames but for its crossfade (at most 1 s, at the loop's head or tail) and removes each
/// channel's mean. So the baked loop is the file's frames `source`, with the crossfade's frames replaced by
/// ``crossfade`` and ``offsets`` subtracted from every other frame: exactly the frames of
/// ``LoopBaker/bake(_:region:crossfade:curve:)``'s buffer, which ``SeamFixedSource`` reads back in play order.
///
/// It is made at load from the bake of the theme's ``SeamWindow``: for a loop of up to 20 s the window holds it
/// whole and the bake, crossfade and means included, is that of the whole file; for a longer one the means are
/// those of the window (an offset is measured as well over 20 s as over two hours).
///
/// - Thread safety: immutable; any thread.
struct SeamFixPatch: Sendable {
    /// The file's frames of the baked loop (the loop's end moved back when the bake had to make room).
    let source: LoopRegion
    /// The loop frame (0-based) where the crossfade starts.
    let at: Int
    /// The crossfade's frames, per channel, the mean already removed.
    let crossfade: [[Float]]
    /// The mean removed from each channel (0: the channel is untouched).
    let offsets: [Float]

    /// The patch of `baked`, a bake of `window`.
    init(_ baked: LoopBaker.Result, of window: SeamWindow) {
        let lengthInWindow = Int(baked.loop.length)
        // Frames the bake cut off the loop's end to make room for its crossfade (0 almost always).
        let cut = window.loop.length - baked.loop.length
        source = LoopRegion(start: window.fileLoop.start, end: window.fileLoop.end - cut)
        let c = baked.crossfade
        let atInWindow = baked.placement == "head" ? 0 : lengthInWindow - c
        at = baked.placement == "head" ? 0 : Int(source.length) - c
        crossfade = (0..<baked.buffer.channels).map { ch in
            baked.buffer.withChannel(ch) { Array($0[atInWindow..<(atInWindow + c)]) }
        }
        offsets = baked.dcRemoved.map { Float($0) }
    }
}

/// The baked loop of a streamed theme, read from its file frame by frame as ``SeamFixPatch`` describes it: what
/// ``LoopPlaybackReader`` converts and unrolls in place of the file (loop `0 ..< info.frames`, no intro: a baked
/// loop has none).
///
/// - Thread safety: one thread at a time (a stream's producer).
/// - Real-time safe: no (file I/O).
final class SeamFixedSource: PlaybackFrameSource {
    let path: String
    let info: AudioFileInfo
    private let file: SoundFileReader
    private let patch: SeamFixPatch
    private let fileChannels: Int
    private let channels: Int
    /// The next loop frame read.
    private var position = 0
    private var scratch: [Float]
    private static let chunkFrames = 4_096

    /// Opens `path` to read the loop `patch` bakes.
    ///
    /// - Throws: `EnsoError` from opening the file, naming it.
    init(path: String, patch: SeamFixPatch) throws(EnsoError) {
        file = try SoundFileReader(path: path)
        self.path = path
        self.patch = patch
        fileChannels = file.info.channels.count
        channels = min(fileChannels, 2)
        var info = file.info
        info.frames = patch.source.length
        info.channels = ChannelCount(checked: channels)
        info.loops = []
        info.cues = []
        self.info = info
        scratch = [Float](repeating: 0, count: Self.chunkFrames * fileChannels)
        try file.seek(toFrame: patch.source.start)
    }

    func seek(toFrame frame: FramePosition) throws(EnsoError) {
        try file.seek(toFrame: patch.source.start + frame)
        position = Int(frame)
    }

    func readFrames(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(EnsoError) -> Int {
        let want = min(maxFrames, Self.chunkFrames, Int(patch.source.length) - position)
        guard want > 0 else { return 0 }
        let n = try scratch.withUnsafeMutableBufferPointer { (p) throws(EnsoError) -> Int in
            try file.readFrames(into: p.baseAddress!, maxFrames: want)
        }
        scratch.withUnsafeBufferPointer { s in
            if fileChannels > 2 {
                // Folded as a loaded theme is folded, before its seam fix.
                ChannelMapper.foldToStereo(s.baseAddress!, channels: fileChannels, frames: n, into: buffer)
            } else {
                buffer.update(from: s.baseAddress!, count: n * channels)
            }
        }
        let fade = patch.at..<(patch.at + (patch.crossfade.first?.count ?? 0))
        for f in 0..<n {
            let k = position + f
            for c in 0..<channels {
                if fade.contains(k) {
                    buffer[f * channels + c] = patch.crossfade[c][k - patch.at]
                } else if patch.offsets[c] != 0 {
                    // As ``LoopBaker/removingDC(_:)`` removes it: one Float subtraction.
                    buffer[f * channels + c] -= patch.offsets[c]
                }
            }
        }
        position += n
        return n
    }
}
