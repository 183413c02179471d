import AudioCore
import Synchronization

/// An audition without a session: one bell struck once and left to ring out, or one theme looped for a set length
/// with short fades in and out; then silence. `enso serve`'s `preview` plays it on the server's output.
///
/// A bell starts at full level on its first frame (its attack is what is auditioned) and ends when it has decayed
/// below -60 dB (``LoadedAsset/decayFrames(gain:threshold:)``, the tail the session lets ring). A theme fades in
/// and out over ``themeFadeSeconds`` (quarter-sine, as the engine's crossfades) and wraps at its loop points as
/// the ambient player does. ``stop()`` fades either out over the engine's de-click length from the next block.
///
/// - Thread safety: `render` on the output's render thread; ``stop()``, ``endFrame`` and ``renderedFrames`` from
///   any thread.
/// - Real-time safe: `render` is (no allocation, no lock; atomics only).
public final class PreviewSource: RenderSource, @unchecked Sendable {
    public let channelCount = 2
    /// The asset played.
    public let asset: LoadedAsset
    /// Frames it sounds when played through (the bell's decay, the theme's length).
    public let frameCount: FrameCount
    /// The fade of a theme's start and end (shortened to half a theme shorter than twice it).
    public static let themeFadeSeconds = 0.5

    private let gain: Float
    private let looping: Bool
    private let fadeInFrames: Int
    private let fadeOutFrames: Int
    private let declickFrames: Int
    private var position = 0
    /// The frame the sound fades out from and the length of that fade (render thread).
    private var releaseStart: Int
    private var releaseLength: Int
    private let stopRequested = Atomic<Bool>(false)
    private let end: Atomic<Int64>
    private let rendered = Atomic<Int64>(0)

    /// A bell struck on the first frame at `gain`, until it has decayed below -60 dB.
    public convenience init(bell: LoadedAsset, gain: Double) {
        let frames = max(1, bell.decayFrames(gain: gain))
        self.init(asset: bell, gain: gain, frames: frames, looping: false, fadeFrames: 0)
    }

    /// A theme looped for `frames` at `gain`, fading in and out over ``themeFadeSeconds``.
    ///
    /// A streamed theme is opened here (``LoadedAsset/opened()``: its ring starts filling on the calling thread and
    /// a loader thread keeps it full); ``asset`` is then that play of it, and the render reads its ring in order.
    /// Frames the ring does not hold when they are due are silence (a preview has no underrun fades).
    public convenience init(theme: LoadedAsset, gain: Double, frames: FrameCount) {
        let fade = min(Int(theme.sampleRate.frames(seconds: Self.themeFadeSeconds)), Int(frames) / 2)
        self.init(asset: theme.opened(), gain: gain, frames: max(1, frames), looping: true, fadeFrames: fade)
    }

    private init(asset: LoadedAsset, gain: Double, frames: FrameCount, looping: Bool, fadeFrames: Int) {
        self.asset = asset
        self.gain = Float(SessionPlan.clamp(gain, SessionPlan.volumeRange))
        self.looping = looping
        frameCount = frames
        fadeInFrames = fadeFrames
        fadeOutFrames = fadeFrames
        declickFrames = max(1, Int(asset.sampleRate.frames(seconds: SessionTimeline.declickSeconds)))
        releaseStart = Int(frames) - fadeFrames
        releaseLength = fadeFrames
        end = Atomic(Int64(frames))
    }

    /// Fades the sound out over the de-click length from the next block (nothing when it has ended).
    public func stop() { stopRequested.store(true, ordering: .releasing) }

    /// The frame from which the source is silent: ``frameCount``, or earlier after ``stop()`` (once rendered).
    public var endFrame: FramePosition { end.load(ordering: .acquiring) }

    /// Frames rendered so far.
    public var renderedFrames: FramePosition { rendered.load(ordering: .acquiring) }

    public func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        if stopRequested.exchange(false, ordering: .acquiring), position < releaseStart + releaseLength {
            // From the current level, as the ambient player fades: a voice at full level takes the de-click length.
            let level = envelope(position)
            releaseStart = position
            releaseLength = max(1, Int((Float(declickFrames) * level).rounded()))
            end.store(Int64(position + releaseLength), ordering: .releasing)
        }
        if let stream = asset.stream {
            renderStream(stream, into: buffer, frames: frames)
            return
        }
        let left = asset.channel(0)
        let right = asset.channel(1)
        let loopStart = Int(asset.loop.start)
        let loopEnd = Int(asset.loop.end)
        let stopAt = releaseStart + releaseLength
        for i in 0..<frames {
            let f = position + i
            var l: Float = 0
            var r: Float = 0
            if f < stopAt {
                var p = f
                if looping && p >= loopEnd { p = loopStart + (p - loopEnd) % (loopEnd - loopStart) }
                if p < asset.frameCount {
                    let g = gain * envelope(f)
                    l = left[p] * g
                    r = right[p] * g
                }
            }
            buffer[2 * i] = l
            buffer[2 * i + 1] = r
        }
        position += frames
        rendered.store(Int64(position), ordering: .releasing)
    }

    /// ``render(into:frames:)`` for a streamed theme: the ring holds the loop already unrolled, so frame `f` of
    /// the preview is the next frame of the ring (read only while `f` sounds).
    private func renderStream(_ stream: AmbientStream, into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let stopAt = releaseStart + releaseLength
        let wanted = max(0, min(frames, stopAt - position))
        let k = min(wanted, stream.readable)
        let left = stream.channel(0)
        let right = stream.channel(1)
        var at = stream.readOffset
        for i in 0..<frames {
            var l: Float = 0
            var r: Float = 0
            if i < k {
                let g = gain * envelope(position + i)
                l = left[at] * g
                r = right[at] * g
                at += 1
                if at == stream.capacity { at = 0 }
            }
            buffer[2 * i] = l
            buffer[2 * i + 1] = r
        }
        stream.advance(k)
        position += frames
        rendered.store(Int64(position), ordering: .releasing)
    }

    /// The fade level at frame `f` (quarter-sine in and out).
    private func envelope(_ f: Int) -> Float {
        var x: Float = 1
        if f < fadeInFrames { x = Float(f) / Float(fadeInFrames) }
        if f >= releaseStart {
            x = min(x, 1 - Float(f - releaseStart) / Float(max(1, releaseLength)))
        }
        return x >= 1 ? 1 : CrossfadeCurve.quarterSine(max(0, x))
    }
}
