/// A gain that moves linearly to a target over a number of frames, one step per frame.
///
/// Stepping per frame (never per block) makes the output independent of the block size and free of
/// zipper noise.
///
/// - Real-time safe: yes.
struct GainRamp {
    private(set) var value: Float
    private(set) var target: Float
    private var step: Float = 0
    private var remaining = 0

    init(_ value: Float) {
        self.value = value
        self.target = value
    }

    /// Whether the gain is constant.
    var isSteady: Bool { remaining == 0 }

    /// Starts a ramp from the current value to `target` over `frames` frames (0: jump).
    mutating func ramp(to target: Float, frames: Int) {
        self.target = target
        if frames <= 0 || target == value {
            value = target
            remaining = 0
            step = 0
        } else {
            remaining = frames
            step = (target - value) / Float(frames)
        }
    }

    /// Multiplies `gains[0..<n]` by this ramp's per-frame value and advances `n` frames.
    @_noLocks
    mutating func multiply(into gains: UnsafeMutablePointer<Float>, count n: Int) {
        if remaining == 0 {
            let v = value
            for i in 0..<n { gains[i] *= v }
            return
        }
        var i = 0
        while i < n && remaining > 0 {
            value += step
            remaining -= 1
            if remaining == 0 { value = target }
            gains[i] *= value
            i += 1
        }
        let v = value
        while i < n {
            gains[i] *= v
            i += 1
        }
    }

    /// Advances `n` frames without producing values.
    mutating func advance(by n: Int) {
        if remaining == 0 { return }
        if n >= remaining {
            value = target
            remaining = 0
        } else {
            for _ in 0..<n { value += step }
            remaining -= n
        }
    }
}
