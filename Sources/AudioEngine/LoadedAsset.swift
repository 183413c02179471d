import AudioCore

/// A bell or an ambient theme decoded into memory at the engine's rate, ready for the render thread.
///
/// Front ends decode the file (AudioFile), resample it once to the engine rate (in periodic mode for a
/// loop) and pass the buffer here. The samples are copied into storage the engine reads without ARC or
/// bounds checks; an optional seam crossfade is baked into that copy at load, so the render thread only
/// ever wraps at an integer frame.
///
/// The render thread never frees an asset: when it is done with one that the control side handed it, it
/// sends the reference back as ``EngineEvent/retired(_:)``.
///
/// A theme too long to hold in memory is *streamed* instead (``init(id:sampleRate:channels:frameCount:loop:stream:)``):
/// the asset holds no samples, only an ``AmbientStreamSource``. Each time the engine starts it (a session's
/// theme, a `setTheme`, a preview) the control side opens a fresh ``AmbientStream`` (``opened()``), a ring a
/// loader thread keeps filled, and the voice reads the ring instead of the samples (docs/engine.md, "Streamed
/// themes").
///
/// - Thread safety: immutable after `init`; any thread.
/// - Real-time safe: reading is; `init` is not (it allocates).
public final class LoadedAsset: @unchecked Sendable {
    /// The asset id (or file path) it came from, for events and messages.
    public let id: String
    /// The rate of the samples.
    public let sampleRate: SampleRate
    /// 1 (mono, played on both sides) or 2 (stereo).
    public let channels: Int
    /// Frames per channel.
    public let frameCount: Int
    /// The loop the ambient player repeats: the file's loop, or the whole file, moved past a baked seam
    /// crossfade if there is one (see ``init(id:buffer:loop:seamCrossfade:curve:)``).
    public let loop: LoopRegion
    /// The length of the baked seam crossfade, frames (0 = none).
    public let seamCrossfadeFrames: Int
    let storage: UnsafeMutablePointer<Float>
    /// What opens a stream of this theme (`nil`: the samples are in memory).
    let streamSource: (any AmbientStreamSource)?
    /// The stream this one play of a streamed theme reads (``opened()``); `nil` for a loaded asset and for the
    /// streamed asset itself before it is opened.
    public let stream: AmbientStream?

    /// Whether the theme is streamed from disk rather than held in memory.
    public var isStreamed: Bool { streamSource != nil }

    /// The bytes the asset keeps resident: its samples when loaded; for a streamed asset, its opened ring's, or
    /// before it is opened what its source holds (a seam fix's crossfade, at most 1 s; 0 for most: the cached
    /// asset holds no audio, each playing voice holds one ring).
    public var residentBytes: Int {
        if let source = streamSource { return stream?.residentBytes ?? source.residentBytes }
        return frameCount * channels * MemoryLayout<Float>.size
    }

    /// Copies `buffer` into engine storage.
    ///
    /// With `seamCrossfade` X > 0 the last X frames before the loop end are blended (with `curve`) with
    /// the X frames from the loop start, and the loop start moves to `start + X`: playing `... end-1`
    /// then wrapping to `start + X` is continuous even when the material is not seamless.
    ///
    /// - Parameters:
    ///   - id: the asset id or path.
    ///   - buffer: 1 or 2 channels at the engine rate.
    ///   - loop: the loop region (`nil`: the whole file).
    ///   - seamCrossfade: frames of seam crossfade to bake; 0 for seamless material.
    ///   - curve: the crossfade curve (equal-power for uncorrelated seams, equal-gain for material that
    ///     matches itself).
    /// - Throws: ``EnsoError`` `.invalidInput` for an empty buffer, more than 2 channels, a NaN or infinite
    ///   sample, a loop outside the buffer, or a crossfade longer than half the loop; the message names `id`.
    public init(
        id: String, buffer: AudioBuffer, loop: LoopRegion? = nil, seamCrossfade: Int = 0,
        curve: CrossfadeCurve = .equalPower
    ) throws(EnsoError) {
        guard buffer.frameCount > 0 else { throw EnsoError(.invalidInput, "\(id): the audio is empty") }
        guard buffer.channels <= 2 else {
            throw EnsoError(.invalidInput, "\(id): \(buffer.channels) channels; the engine plays mono or stereo")
        }
        if let bad = buffer.firstNonFinite() {
            // A NaN reaching the mixer becomes a full-scale click in a 16-bit render, or silence from then on in a filter.
            throw EnsoError(
                .invalidInput,
                "\(id): \(bad.value.isNaN ? "a NaN" : "an infinite") sample in channel \(bad.channel + 1) at "
                    + "\(bad.frame * 1000 / buffer.sampleRate.hertz) ms; the engine plays finite samples only")
        }
        let region = loop ?? LoopRegion(start: 0, end: FramePosition(buffer.frameCount))
        guard region.start >= 0, region.end <= buffer.frameCount, region.length > 0 else {
            throw EnsoError(
                .invalidInput, "\(id): loop \(region.start)..<\(region.end) does not fit in \(buffer.frameCount) frames"
            )
        }
        guard seamCrossfade >= 0, FrameCount(seamCrossfade) * 2 <= region.length else {
            throw EnsoError(
                .invalidInput,
                "\(id): seam crossfade of \(seamCrossfade) frames is more than half the \(region.length)-frame loop")
        }
        self.id = id
        sampleRate = buffer.sampleRate
        channels = buffer.channels
        frameCount = buffer.frameCount
        seamCrossfadeFrames = seamCrossfade
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: buffer.samples.count)
        buffer.samples.withUnsafeBufferPointer { src in
            storage.initialize(from: src.baseAddress!, count: src.count)
        }
        self.storage = storage
        let x = seamCrossfade
        if x > 0 {
            let start = Int(region.start)
            let end = Int(region.end)
            for ch in 0..<channels {
                let p = storage + ch * frameCount
                for i in 0..<x {
                    let t = Float(i + 1) / Float(x + 1)
                    p[end - x + i] = p[end - x + i] * curve.fadeOut(t) + p[start + i] * curve.fadeIn(t)
                }
            }
        }
        self.loop = LoopRegion(start: region.start + FramePosition(x), end: region.end)
        streamSource = nil
        stream = nil
    }

    /// A theme streamed from disk: `frameCount` and `loop` describe it as if it were loaded (the frames before the
    /// loop play once, then the loop repeats); `source` opens the stream of its play sequence.
    ///
    /// - Parameters:
    ///   - id: the asset id or path.
    ///   - sampleRate: the rate the stream delivers (the engine's).
    ///   - channels: 1 or 2.
    ///   - frameCount: the theme's frames at `sampleRate`.
    ///   - loop: the loop region in those frames.
    ///   - source: opens a fresh stream at frame 0 for each play.
    /// - Throws: ``EnsoError`` `.invalidInput` for a channel count other than 1 or 2 or a loop outside the frames.
    public init(
        id: String, sampleRate: SampleRate, channels: Int, frameCount: Int, loop: LoopRegion,
        stream source: any AmbientStreamSource
    ) throws(EnsoError) {
        guard channels == 1 || channels == 2 else {
            throw EnsoError(.invalidInput, "\(id): \(channels) channels; the engine plays mono or stereo")
        }
        guard loop.start >= 0, loop.end <= frameCount, loop.length > 0 else {
            throw EnsoError(
                .invalidInput, "\(id): loop \(loop.start)..<\(loop.end) does not fit in \(frameCount) frames")
        }
        self.id = id
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameCount = frameCount
        self.loop = loop
        seamCrossfadeFrames = 0
        storage = .allocate(capacity: 1)
        storage.initialize(to: 0)
        streamSource = source
        stream = nil
    }

    /// One play of a streamed asset: the same description, reading `stream`.
    private init(playing asset: LoadedAsset, stream: AmbientStream) {
        id = asset.id
        sampleRate = asset.sampleRate
        channels = asset.channels
        frameCount = asset.frameCount
        loop = asset.loop
        seamCrossfadeFrames = 0
        storage = .allocate(capacity: 1)
        storage.initialize(to: 0)
        streamSource = asset.streamSource
        self.stream = stream
    }

    /// What a voice plays: a loaded asset itself; for a streamed asset not yet opened, a new play of it reading a
    /// fresh ``AmbientStream`` (which starts decoding now, so its first frames are ready for the first block).
    ///
    /// - Thread safety: control side.
    /// - Real-time safe: no (opens a file and allocates the ring).
    public func opened() -> LoadedAsset {
        guard let source = streamSource, stream == nil else { return self }
        return LoadedAsset(playing: self, stream: source.makeStream())
    }

    deinit {
        storage.deallocate()
    }

    /// The samples of channel `ch` (a mono asset returns channel 0 for both).
    ///
    /// - Real-time safe: yes.
    @inline(__always)
    func channel(_ ch: Int) -> UnsafePointer<Float> {
        UnsafePointer(storage + (channels == 1 ? 0 : ch) * frameCount)
    }

    /// The sample at `frame` of channel `ch` (for tests and analysis).
    public func sample(channel ch: Int, frame: Int) -> Float {
        precondition(streamSource == nil, "\(id): a streamed asset holds no samples")
        precondition(ch >= 0 && ch < channels && frame >= 0 && frame < frameCount, "sample index out of range")
        return storage[ch * frameCount + frame]
    }

    /// Frames from the start until the asset, played at `gain`, stays below `threshold` for good (or ends).
    ///
    /// With the default threshold 0.001 this is "decayed below -60 dBFS", the bell tail that
    /// ``SessionTimeline`` lets ring after the last strike.
    ///
    /// - Complexity: O(frames × channels).
    public func decayFrames(gain: Double = 1, threshold: Double = 0.001) -> FrameCount {
        // A streamed theme is long and looped, never a bell: it does not decay.
        if streamSource != nil { return FrameCount(frameCount) }
        var last = -1
        let limit = Float(threshold / max(gain, 1e-12))
        for ch in 0..<channels {
            let p = storage + ch * frameCount
            var i = frameCount - 1
            while i > last {
                if abs(p[i]) >= limit {
                    last = i
                    break
                }
                i -= 1
            }
        }
        return FrameCount(last + 1)
    }
}
