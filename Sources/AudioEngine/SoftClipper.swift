/// The engine's output stage: a stateless soft clipper with no look-ahead.
///
/// Below ``threshold`` (0.9, about -0.9 dBFS) samples pass unchanged, bit for bit. Above it the
/// magnitude is bent smoothly towards 1 and never reaches it:
///
///     y = t + (1 - t) * u / (1 + u),   u = (|x| - t) / (1 - t),   t = 0.9
///
/// The curve and its slope are continuous at the knee, and any input (three overlapping full-scale
/// strikes reach about 3) comes out below full scale, so nothing clips on conversion to integer PCM.
/// A clipper, not a limiter: it adds no latency (no look-ahead) and has no gain-reduction state, so a
/// strike's first sample is still on its planned frame and the output does not depend on block size.
///
/// - Thread safety: pure functions, any thread.
/// - Real-time safe: yes.
public enum SoftClipper {
    /// The knee: samples with a smaller magnitude pass unchanged.
    public static let threshold: Float = 0.9

    /// The clipped value of one sample.
    @_noLocks @inline(__always)
    public static func process(_ x: Float) -> Float {
        let t: Float = 0.9
        let bits = x.bitPattern
        let a = Float(bitPattern: bits & 0x7FFF_FFFF)
        let u = (a - t) * (1 / (1 - t))
        let bent = t + (1 - t) * u / (1 + u)
        let m = a > t ? bent : a
        return Float(bitPattern: m.bitPattern | (bits & 0x8000_0000))
    }
}
