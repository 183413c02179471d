/// Lane-wise helpers for `SIMD8<Float>` that compile to single vector instructions (the standard library's
/// generic `pointwiseMax` is not specialised across modules and runs as a slow generic call).
public enum SIMDLanes {
    /// The lane-wise maximum (`b` where `b > a`, so a NaN in `b` never wins).
    @inlinable @inline(__always)
    public static func max(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: b .> a)
    }

    /// The lane-wise absolute value.
    @inlinable @inline(__always)
    public static func abs(_ v: SIMD8<Float>) -> SIMD8<Float> {
        v.replacing(with: -v, where: v .< 0)
    }
}
