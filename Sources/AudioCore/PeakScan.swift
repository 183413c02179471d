/// The largest finite |sample| of a run of samples, eight lanes at a time.
///
/// NaN and ±infinity are skipped (`a < .infinity` is false for both), so a damaged file's peak is that of its
/// finite samples.
///
/// - Thread safety: pure function.
/// - Real-time safe: yes.
public enum PeakScan {
    /// The largest finite |x| of `samples` (0 when empty or when none is finite).
    public static func absMax(_ samples: UnsafeBufferPointer<Float>) -> Float {
        guard let base = samples.baseAddress else { return 0 }
        let n = samples.count
        let infinity = SIMD8<Float>(repeating: .infinity)
        var lanes = SIMD8<Float>(repeating: 0)
        var i = 0
        let raw = UnsafeRawPointer(base)
        while i + 8 <= n {
            let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            let a = SIMDLanes.abs(v)
            lanes = SIMDLanes.max(lanes, a.replacing(with: 0, where: .!(a .< infinity)))
            i += 8
        }
        var m = lanes.max()
        while i < n {
            let a = abs(base[i])
            if a > m && a < .infinity { m = a }
            i += 1
        }
        return m
    }

    /// How many samples of `samples` lie beyond ±`limit` (|x| > limit; NaN is not counted, ±infinity is).
    ///
    /// What an integer format clips: `convert` counts the samples beyond full scale (`limit` 1) before it
    /// writes 16 or 24 bits, and says how many were clipped.
    public static func countBeyond(_ samples: UnsafeBufferPointer<Float>, limit: Float) -> Int {
        guard let base = samples.baseAddress else { return 0 }
        let n = samples.count
        let raw = UnsafeRawPointer(base)
        let line = SIMD8<Float>(repeating: limit)
        var lanes = SIMD8<Int32>(repeating: 0)
        var i = 0
        while i + 8 <= n {
            let a = SIMDLanes.abs(raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self))
            lanes.replace(with: lanes &+ 1, where: a .> line)
            i += 8
        }
        var count = Int(lanes.wrappedSum())
        while i < n {
            if abs(base[i]) > limit { count += 1 }
            i += 1
        }
        return count
    }

    /// The index of the first NaN or infinite sample of `samples`, or nil when all are finite.
    public static func firstNonFinite(_ samples: UnsafeBufferPointer<Float>) -> Int? {
        guard let base = samples.baseAddress else { return nil }
        let n = samples.count
        let raw = UnsafeRawPointer(base)
        var i = 0
        // x − x is 0 for every finite x and NaN for NaN and ±∞: eight samples at a time, then the one that failed.
        while i + 8 <= n {
            let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            if any(.!((v - v) .== 0)) { break }
            i += 8
        }
        while i < n {
            if !base[i].isFinite { return i }
            i += 1
        }
        return nil
    }

    /// Whether every sample of `samples` is zero (±0), eight at a time, stopping at the first that is not.
    ///
    /// A frame of digital silence needs no transform: its spectrum is exactly zero (``AudioDSP``'s FFT paths
    /// skip such frames with this check, which costs one comparison for a frame that starts with sound).
    public static func allZero(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        guard let base = samples.baseAddress else { return true }
        let n = samples.count
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= n {
            if any(raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) .!= 0) { return false }
            i += 8
        }
        while i < n {
            if base[i] != 0 { return false }
            i += 1
        }
        return true
    }
}
