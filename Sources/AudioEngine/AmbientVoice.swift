import AudioCore

/// One ambient player: plays its asset from frame 0 and wraps from the loop end to the loop start at
/// exact integer frames, inside the block, with an equal-power fade level for theme crossfades.
///
/// A streamed asset (``LoadedAsset/stream``) is read from its ring instead, whose producer has already
/// unrolled the loop: the voice only reads forward. When the ring runs short the voice fades out over the
/// de-click length on the frames it still has, plays silence while it is starved (counting the frames
/// missed), and fades back in once the ring holds enough again (``AmbientVoice+Stream.swift``).
///
/// - Real-time safe: yes (the render thread owns the voice table).
struct AmbientVoice {
    var asset: LoadedAsset?
    var left: UnsafePointer<Float>?
    var right: UnsafePointer<Float>?
    var loopStart = 0
    var loopEnd = 0
    var position = 0
    /// The ring a streamed asset plays from (`nil`: the asset's samples).
    var stream: AmbientStream?
    /// The underrun fade of a stream (level x, gain = sin(x * pi / 2)), as the theme fade below.
    var streamFadeFrom: Float = 1
    var streamFadeTo: Float = 1
    var streamFadeLength = 0
    var streamFadePosition = 0
    /// The stream ran dry: silence until it holds ``resumeFrames(_:)`` again.
    var starved = false
    /// Frames of silence since the current underrun began.
    var missedFrames: Int64 = 0
    /// An underrun ended (or the voice ended in one) and is yet to be reported: its frames missed.
    var underrunToReport: Int64 = 0
    /// The de-click length, frames (the underrun fades' length).
    var declickFrames = 1
    // Fade level x in 0...1 (gain = sin(x * pi / 2)): from `fadeFrom` to `fadeTo` over `fadeLength` frames.
    var fadeFrom: Float = 1
    var fadeTo: Float = 1
    var fadeLength = 0
    var fadePosition = 0

    var isActive: Bool { asset != nil }
    /// Whether the voice is on its way out (or out).
    var isFadingOut: Bool { fadeTo == 0 }

    /// Whether the voice is fading out and will be silent within `frames` frames.
    func isReleasing(within frames: Int) -> Bool { fadeTo == 0 && fadeLength - fadePosition <= frames }

    /// The current fade level.
    var level: Float {
        fadePosition >= fadeLength
            ? fadeTo : fadeFrom + (fadeTo - fadeFrom) * (Float(fadePosition) / Float(fadeLength))
    }

    /// Starts `asset` from its first frame, fading in over `fadeFrames` (0: at full level at once).
    ///
    /// A streamed asset must have been ``LoadedAsset/opened()``; one whose ring does not yet hold a block and the
    /// de-click length starts starved (silent until it does).
    mutating func start(_ asset: LoadedAsset, fadeFrames: Int, declickFrames: Int) {
        self.asset = asset
        stream = asset.stream
        self.declickFrames = max(1, declickFrames)
        if let s = asset.stream {
            left = s.channel(0)
            right = s.channel(1)
            loopStart = 0
            loopEnd = s.capacity
            position = s.readOffset
        } else {
            left = asset.channel(0)
            right = asset.channel(1)
            loopStart = Int(asset.loop.start)
            loopEnd = Int(asset.loop.end)
            position = 0
        }
        fadeFrom = fadeFrames > 0 ? 0 : 1
        fadeTo = 1
        fadeLength = fadeFrames
        fadePosition = 0
        streamFadeFrom = 1
        streamFadeTo = 1
        streamFadeLength = 0
        streamFadePosition = 0
        starved = false
        missedFrames = 0
        underrunToReport = 0
    }

    /// Fades out from the current level; a full-level voice takes `fadeFrames` (at least 1).
    mutating func fadeOut(fadeFrames: Int) {
        let x = level
        fadeFrom = x
        fadeTo = 0
        fadeLength = max(1, Int((Float(fadeFrames) * x).rounded()))
        fadePosition = 0
    }

    /// Advances `n` frames without output (wall time the device lost): the loop position wraps at the
    /// loop points exactly as rendering would, and a crossfade moves on by `n`. Returns `false` when the
    /// voice would have faded out completely within them.
    mutating func skip(_ n: Int) -> Bool {
        guard left != nil else { return false }
        if stream != nil { skipStream(n) }
        if fadePosition < fadeLength { fadePosition = min(fadeLength, fadePosition + n) }
        if stream != nil { return !(fadeTo == 0 && fadePosition >= fadeLength) }
        let p = position + n
        position = p < loopEnd ? p : loopStart + (p - loopEnd) % (loopEnd - loopStart)
        return !(fadeTo == 0 && fadePosition >= fadeLength)
    }

    /// Adds the next `n` frames times the constant `gain` into the bus (per-frame gains while fading).
    mutating func render(
        left busL: UnsafeMutablePointer<Float>, right busR: UnsafeMutablePointer<Float>,
        gain: Float, scratch: UnsafeMutablePointer<Float>, count n: Int
    ) -> Bool {
        if fadePosition < fadeLength || fadeTo != 1 || streamNeedsGains(n) {
            let gains = scratch + n
            MixKernels.fill(gains, gain, n)
            return render(left: busL, right: busR, gain: gains, scratch: scratch, count: n)
        }
        guard let l = left, let r = right else { return false }
        var i = 0
        while i < n {
            let count = min(n - i, loopEnd - position)
            MixKernels.addScaled(busL + i, l + position, gain, count)
            MixKernels.addScaled(busR + i, r + position, gain, count)
            position += count
            i += count
            if position >= loopEnd { position = loopStart }
        }
        // Only now may the producer write over the frames just read.
        if let s = stream { s.advance(n) }
        return true
    }

    /// Adds the next `n` frames times `gain` into the bus, using `scratch` for per-frame fade gains.
    /// Returns `false` when the voice has faded out completely.
    mutating func render(
        left busL: UnsafeMutablePointer<Float>, right busR: UnsafeMutablePointer<Float>,
        gain: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>, count n: Int
    ) -> Bool {
        guard let l = left, let r = right else { return false }
        // A stream that runs short reads `k` frames (fading out on them); the rest of the block is silence.
        let k = planStream(n)
        var g = gain
        if fadePosition < fadeLength || fadeTo != 1 || streamFadePosition < streamFadeLength || k < n {
            let span = Float(fadeLength)
            for i in 0..<n {
                let x: Float
                if fadePosition < fadeLength {
                    x = fadeFrom + (fadeTo - fadeFrom) * (Float(fadePosition) / span)
                    fadePosition += 1
                } else {
                    x = fadeTo
                }
                scratch[i] = gain[i] * CrossfadeCurve.quarterSine(x)
            }
            if streamFadePosition < streamFadeLength { applyStreamFade(scratch, k) }
            g = UnsafePointer(scratch)
        }
        var i = 0
        while i < k {
            let count = min(k - i, loopEnd - position)
            MixKernels.addScaled(busL + i, l + position, g + i, count)
            MixKernels.addScaled(busR + i, r + position, g + i, count)
            position += count
            i += count
            if position >= loopEnd { position = loopStart }
        }
        if let s = stream { s.advance(k) }
        return !(fadeTo == 0 && fadePosition >= fadeLength)
    }
}
