/// The leaf loops of the render path: plain pointer arithmetic that the compiler vectorises.
///
/// Marked `@_noLocks` so that an allocation, a lock or ARC traffic creeping in fails compilation.
///
/// - Thread safety: callers own the memory they pass.
/// - Real-time safe: yes.
enum MixKernels {
    @_noLocks
    static func fill(_ p: UnsafeMutablePointer<Float>, _ value: Float, _ n: Int) {
        for i in 0..<n { p[i] = value }
    }

    /// `dst[i] += src[i] * gain[i]`.
    @_noLocks
    static func addScaled(
        _ dst: UnsafeMutablePointer<Float>, _ src: UnsafePointer<Float>, _ gain: UnsafePointer<Float>, _ n: Int
    ) {
        for i in 0..<n { dst[i] += src[i] * gain[i] }
    }

    /// `dst[i] += src[i] * gain`.
    @_noLocks
    static func addScaled(_ dst: UnsafeMutablePointer<Float>, _ src: UnsafePointer<Float>, _ gain: Float, _ n: Int) {
        for i in 0..<n { dst[i] += src[i] * gain }
    }

    /// `dst[i] = a[i] * b[i]`.
    @_noLocks
    static func multiply(
        _ dst: UnsafeMutablePointer<Float>, _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int
    ) {
        for i in 0..<n { dst[i] = a[i] * b[i] }
    }

    /// `dst[i] *= g`.
    @_noLocks
    static func scale(_ dst: UnsafeMutablePointer<Float>, _ g: Float, _ n: Int) {
        for i in 0..<n { dst[i] *= g }
    }

    /// Soft-clips two planar channels into an interleaved stereo buffer.
    @_noLocks
    static func clipInterleave(
        _ out: UnsafeMutablePointer<Float>, _ l: UnsafePointer<Float>, _ r: UnsafePointer<Float>, _ n: Int
    ) {
        for i in 0..<n {
            out[2 * i] = SoftClipper.process(l[i])
            out[2 * i + 1] = SoftClipper.process(r[i])
        }
    }
}
