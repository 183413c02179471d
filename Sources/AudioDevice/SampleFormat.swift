/// A device sample format: how one sample is stored in the interleaved stream written to a device.
///
/// Enso renders `Float`; the device side converts once, at the edge, with ``convert(_:count:into:)``:
/// samples are clipped to -1...1 and rounded to the nearest integer step, without dither (a meditation
/// bell decays into silence, and dither would turn that silence into hiss). A NaN becomes 0.
public enum SampleFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// 32-bit IEEE float, little-endian. The corresponding ALSA format is `SND_PCM_FORMAT_FLOAT_LE`.
    case float32 = "float"
    /// Signed 32-bit integer, little-endian. The corresponding ALSA format is `SND_PCM_FORMAT_S32_LE`.
    case int32 = "s32"
    /// Signed 24-bit integer in the low three bytes of a 32-bit little-endian word (sign-extended).
    /// The corresponding ALSA format is `SND_PCM_FORMAT_S24_LE`.
    case int24 = "s24"
    /// Signed 24-bit integer packed in three bytes, little-endian. The corresponding ALSA format is
    /// `SND_PCM_FORMAT_S24_3LE`.
    case int24Packed = "s24-3"
    /// Signed 16-bit integer, little-endian. The corresponding ALSA format is `SND_PCM_FORMAT_S16_LE`.
    case int16 = "s16"

    /// The order in which ``ALSAOutput`` tries formats when none is forced: best first.
    public static let preference: [SampleFormat] = [.float32, .int32, .int24, .int24Packed, .int16]

    /// Bytes per sample in the stream.
    public var bytesPerSample: Int {
        switch self {
        case .float32, .int32, .int24: 4
        case .int24Packed: 3
        case .int16: 2
        }
    }

    public var description: String { rawValue }

    /// Converts `count` `Float` samples to this format, clipping to -1...1 without dither.
    ///
    /// Integer formats scale by 2^(bits-1) and round to nearest (ties to even), then clamp to the largest
    /// positive code, so +1.0 maps to the largest code and -1.0 to the smallest.
    ///
    /// - Parameters:
    ///   - source: `count` samples.
    ///   - count: The number of samples (frames × channels).
    ///   - destination: At least `count * bytesPerSample` bytes.
    /// - Thread safety: any thread; reads `source`, writes `destination`.
    /// - Real-time safe: yes.
    public func convert(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutableRawPointer) {
        switch self {
        case .float32:
            let d = destination.assumingMemoryBound(to: Float.self)
            for i in 0..<count { d[i] = Self.clip(source[i]) }
        case .int32:
            let d = destination.assumingMemoryBound(to: Int32.self)
            for i in 0..<count { d[i] = Int32(Self.scaled(source[i], 2_147_483_648.0)).littleEndian }
        case .int24:
            let d = destination.assumingMemoryBound(to: Int32.self)
            for i in 0..<count { d[i] = Int32(Self.scaled24(source[i])).littleEndian }
        case .int24Packed:
            let d = destination.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let v = UInt32(bitPattern: Int32(Self.scaled24(source[i])))
                d[3 * i] = UInt8(truncatingIfNeeded: v)
                d[3 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                d[3 * i + 2] = UInt8(truncatingIfNeeded: v >> 16)
            }
        case .int16:
            let d = destination.assumingMemoryBound(to: Int16.self)
            for i in 0..<count {
                let v = (Self.clip(source[i]) * 32_768).rounded(.toNearestOrEven)
                d[i] = Int16(v >= 32_768 ? 32_767 : v).littleEndian
            }
        }
    }

    /// `x` clipped to -1...1; NaN becomes 0.
    @inline(__always)
    static func clip(_ x: Float) -> Float {
        if x.isNaN { return 0 }
        return x < -1 ? -1 : (x > 1 ? 1 : x)
    }

    /// `x` clipped, scaled by 2^23 and rounded, within -2^23 ... 2^23 - 1. In `Float`: scaling by a power of
    /// two is exact and every integer below 2^24 is a `Float`, so this equals the `Double` computation.
    @inline(__always)
    static func scaled24(_ x: Float) -> Int32 {
        let v = (clip(x) * 8_388_608).rounded(.toNearestOrEven)
        return Int32(v >= 8_388_608 ? 8_388_607 : v)
    }

    /// `x` clipped, scaled by `fullScale` and rounded, within `-fullScale ... fullScale - 1` (32-bit needs
    /// `Double`: a `Float` cannot hold every 32-bit step).
    @inline(__always)
    static func scaled(_ x: Float, _ fullScale: Double) -> Int64 {
        let v = (Double(clip(x)) * fullScale).rounded(.toNearestOrEven)
        return Int64(v >= fullScale ? fullScale - 1 : v)
    }
}
