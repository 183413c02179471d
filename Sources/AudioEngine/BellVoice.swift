/// One ringing bell: plays its asset once from the first sample, optionally released with a short fade
/// when it is stolen.
///
/// - Real-time safe: yes (the render thread owns the voice table).
struct BellVoice {
    /// The asset being played; `nil` when the slot is free.
    var asset: LoadedAsset?
    var left: UnsafePointer<Float>?
    var right: UnsafePointer<Float>?
    var frames = 0
    var position = 0
    /// Frames of the current block before the first sample (the strike's offset in the block).
    var delay = 0
    /// Start order; the smallest active serial is the oldest voice.
    var serial = 0
    /// Frames of the current block before the release fade starts; `-1` while not released.
    var releaseDelay = -1
    var releaseLeft = 0
    var releaseLength = 1
    /// The voice's own gain on top of the bell bus (an interval bell's volume); 1 for the plan's groups.
    var voiceGain: Float = 1

    var isActive: Bool { asset != nil }
    var isReleasing: Bool { releaseDelay >= 0 }

    /// Starts `asset` `offset` frames into the current block, at `gain` on top of the bus.
    mutating func start(_ asset: LoadedAsset, offset: Int, serial: Int, gain: Float = 1) {
        voiceGain = gain
        self.asset = asset
        left = asset.channel(0)
        right = asset.channel(1)
        frames = asset.frameCount
        position = 0
        delay = offset
        self.serial = serial
        releaseDelay = -1
    }

    /// Fades the voice out over `length` frames, starting `offset` frames into the current block.
    mutating func release(offset: Int, length: Int) {
        releaseDelay = offset
        releaseLength = max(1, length)
        releaseLeft = releaseLength
    }

    /// Advances `n` frames without output (wall time the device lost), through a pending start delay and
    /// release fade. Returns `false` when the voice would have finished within them.
    mutating func skip(_ n: Int) -> Bool {
        guard left != nil else { return false }
        let waited = min(delay, n)
        delay -= waited
        let played = n - waited
        position = min(frames, position + played)
        guard releaseDelay >= 0 else { return position < frames }
        let held = min(releaseDelay, played)
        releaseDelay -= held
        releaseLeft = max(0, releaseLeft - (played - held))
        return position < frames && releaseLeft > 0
    }

    /// Adds the next `n` frames times `gain` into the bus. Returns `false` when the voice has finished.
    mutating func render(
        left busL: UnsafeMutablePointer<Float>, right busR: UnsafeMutablePointer<Float>,
        gain: UnsafePointer<Float>, scalar: Float? = nil, count n: Int
    ) -> Bool {
        guard let l = left, let r = right else { return false }
        var i = min(delay, n)
        delay -= i
        if i == n { return true }
        if releaseDelay < 0 {
            let count = min(n - i, frames - position)
            if voiceGain != 1 {
                let v = voiceGain
                for k in 0..<count {
                    let g = (scalar ?? gain[i + k]) * v
                    busL[i + k] += l[position + k] * g
                    busR[i + k] += r[position + k] * g
                }
            } else if let g = scalar {
                MixKernels.addScaled(busL + i, l + position, g, count)
                MixKernels.addScaled(busR + i, r + position, g, count)
            } else {
                MixKernels.addScaled(busL + i, l + position, gain + i, count)
                MixKernels.addScaled(busR + i, r + position, gain + i, count)
            }
            position += count
            return position < frames
        }
        // Released: unity until the release point, then a linear fade to silence.
        while i < n && position < frames && releaseLeft > 0 {
            var g = gain[i] * voiceGain
            if releaseDelay > 0 {
                releaseDelay -= 1
            } else {
                releaseLeft -= 1
                g *= Float(releaseLeft) / Float(releaseLength)
            }
            busL[i] += l[position] * g
            busR[i] += r[position] * g
            position += 1
            i += 1
        }
        if releaseDelay > 0 { releaseDelay = max(0, releaseDelay - (n - i)) }
        return position < frames && releaseLeft > 0
    }
}
