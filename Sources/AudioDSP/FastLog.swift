/// A fast base-2 logarithm for feature extraction, where a few parts in a million do not matter.
///
/// `log2(x) = e + log2(m)` with `x = m · 2^e`, `m` in [1, 2); `log2(m)` from the series of
/// `2·atanh(t)/ln 2`, `t = (m − 1)/(m + 1)` ≤ 1/3, to t⁷ (absolute error below 2·10⁻⁵).
///
/// - Thread safety: pure function.
/// - Real-time safe: yes.
enum FastLog {
    /// log₂ of a positive, finite, normal `x` (absolute error below 2·10⁻⁵).
    @inline(__always)
    static func log2(_ x: Float) -> Float {
        let bits = x.bitPattern
        let e = Float(Int32(bitPattern: (bits >> 23) & 0xff) - 127)
        let m = Float(bitPattern: (bits & 0x007f_ffff) | 0x3f80_0000)
        let t = (m - 1) / (m + 1)
        let t2 = t * t
        // 2/ln 2 · (t + t³/3 + t⁵/5 + t⁷/7)
        let series = t * (1 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7))))
        return e + 2.885_390_1 * series
    }

    /// ``log2(_:)`` of eight values at once (same arithmetic, lane by lane).
    @inline(__always)
    static func log2(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(x, to: SIMD8<UInt32>.self)
        let e = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: (bits &>> 23) & 0xff) &- 127)
        let m = unsafeBitCast((bits & 0x007f_ffff) | 0x3f80_0000, to: SIMD8<Float>.self)
        let one = SIMD8<Float>(repeating: 1)
        let t: SIMD8<Float> = (m - one) / (m + one)
        let t2: SIMD8<Float> = t * t
        var series: SIMD8<Float> = t2 * SIMD8<Float>(repeating: 1.0 / 7) + SIMD8<Float>(repeating: 1.0 / 5)
        series = t2 * series + SIMD8<Float>(repeating: 1.0 / 3)
        series = t2 * series + one
        series = t * series
        return e + SIMD8<Float>(repeating: 2.885_390_1) * series
    }
}
