import AudioCore

/// One ambient player: plays its asset from frame 0 and wraps from the loop end to the loop start at
/// exact integer frames, inside the block, with an equal-power fade level for theme crossfades.
///
/// - Real-time safe: yes (the render thread owns the voice table).
struct AmbientVoice {
    var asset: LoadedAsset?
    var left: UnsafePointer<Float>?
    var right: UnsafePointer<Float>?
    var loopStart = 0
    var loopEnd = 0
    var position = 0
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
    mutating func start(_ asset: LoadedAsset, fadeFrames: Int) {
        self.asset = asset
        left = asset.channel(0)
        right = asset.channel(1)
        loopStart = Int(asset.loop.start)
        loopEnd = Int(asset.loop.end)
        position = 0
        fadeFrom = fadeFrames > 0 ? 0 : 1
        fadeTo = 1
        fadeLength = fadeFrames
        fadePosition = 0
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
        let p = position + n
        position = p < loopEnd ? p : loopStart + (p - loopEnd) % (loopEnd - loopStart)
        if fadePosition < fadeLength { fadePosition = min(fadeLength, fadePosition + n) }
        return !(fadeTo == 0 && fadePosition >= fadeLength)
    }

    /// Adds the next `n` frames times the constant `gain` into the bus (per-frame gains while fading).
    mutating func render(
        left busL: UnsafeMutablePointer<Float>, right busR: UnsafeMutablePointer<Float>,
        gain: Float, scratch: UnsafeMutablePointer<Float>, count n: Int
    ) -> Bool {
        if fadePosition < fadeLength || fadeTo != 1 {
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
        return true
    }

    /// Adds the next `n` frames times `gain` into the bus, using `scratch` for per-frame fade gains.
    /// Returns `false` when the voice has faded out completely.
    mutating func render(
        left busL: UnsafeMutablePointer<Float>, right busR: UnsafeMutablePointer<Float>,
        gain: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>, count n: Int
    ) -> Bool {
        guard let l = left, let r = right else { return false }
        var g = gain
        if fadePosition < fadeLength || fadeTo != 1 {
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
            g = UnsafePointer(scratch)
        }
        var i = 0
        while i < n {
            let count = min(n - i, loopEnd - position)
            MixKernels.addScaled(busL + i, l + position, g + i, count)
            MixKernels.addScaled(busR + i, r + position, g + i, count)
            position += count
            i += count
            if position >= loopEnd { position = loopStart }
        }
        return !(fadeTo == 0 && fadePosition >= fadeLength)
    }
}
