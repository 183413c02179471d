/// Lane-wise helpers for `SIMD8<Float>` that compile to single vector instructions (the standard library's
/// generic `pointwiseMax` is not specialised across modules and runs as a slow generic call).
public enum SIMDLanes {
    /// The lane-wise maximum (`b` where `b > a`, so a NaN in `b` never wins).
    @inlinable @inline(__always)
    public static func max(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: b .> a)
    }

    /// The lane-wise absolute value: the sign bit cleared (one AND; a compare-and-select with a negation compiles
    /// to several instructions per lane). −0 gives +0 and NaN stays NaN, which compare as the select's results did.
    @inlinable @inline(__always)
    public static func abs(_ v: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7fff_ffff, to: SIMD8<Float>.self)
    }
}
