// The two copies between interleaved frames (files, libsamplerate) and planar storage (`AudioBuffer`): channel `ch`
// of the planar side starts at `base + ch * stride`. Stereo and mono get their own loops, the common cases that
// vectorise; other counts go channel by channel.

/// Copies `frames` interleaved frames from `src` into planar storage: channel `ch` at `dst + ch * stride + at`.
@inline(__always)
func deinterleave(
    _ src: UnsafePointer<Float>, frames n: Int, channels c: Int, into dst: UnsafeMutablePointer<Float>, stride: Int,
    at offset: Int
) {
    if c == 1 {
        (dst + offset).update(from: src, count: n)
    } else if c == 2 {
        let l = dst + offset
        let r = dst + stride + offset
        for i in 0..<n {
            l[i] = src[2 * i]
            r[i] = src[2 * i + 1]
        }
    } else {
        for ch in 0..<c {
            let d = dst + ch * stride + offset
            for i in 0..<n { d[i] = src[i * c + ch] }
        }
    }
}

/// Copies `frames` frames of planar storage (channel `ch` at `src + ch * stride + at`) into `dst`, interleaved.
@inline(__always)
func interleave(
    _ src: UnsafePointer<Float>, stride: Int, at offset: Int, frames n: Int, channels c: Int,
    into dst: UnsafeMutablePointer<Float>
) {
    if c == 1 {
        dst.update(from: src + offset, count: n)
    } else if c == 2 {
        let l = src + offset
        let r = src + stride + offset
        for i in 0..<n {
            dst[2 * i] = l[i]
            dst[2 * i + 1] = r[i]
        }
    } else {
        for ch in 0..<c {
            let s = src + ch * stride + offset
            for i in 0..<n { dst[i * c + ch] = s[i] }
        }
    }
}
