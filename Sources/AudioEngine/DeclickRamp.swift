import AudioCore

/// The shape of the engine's end ramp: a raised cosine (`sin²(t·π/2)`, i.e. `0.5 - 0.5 cos(π t)`), flat at
/// both ends, so the ramp adds no corner of its own to the material's curvature.
///
/// - Real-time safe: yes (no libm call).
enum DeclickRamp {
    /// The gain at `t` in 0...1: exactly 0 at 0 and 1 at 1.
    @inline(__always)
    static func gain(_ t: Float) -> Float {
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        let s = CrossfadeCurve.quarterSine(t)
        return s * s
    }
}
