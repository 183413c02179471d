/// Loudness sampled at a regular hop: value `k` is the loudness of the window that ends
/// `startSeconds + (k + 1) · hopSeconds` into the buffer.
///
/// Silent windows hold `-infinity` (LUFS of zero energy). Windows that would start before the buffer
/// count the missing part as silence, as a meter that starts at the first frame does.
public struct LoudnessSeries: Sendable, Equatable {
    /// The hop between values, in seconds (rounded to whole frames).
    public var hopSeconds: Double
    /// The window length, in seconds (0.4 momentary, 3 short-term).
    public var windowSeconds: Double
    /// Where the series starts relative to the buffer's first frame (negative when padding was added).
    public var startSeconds: Double
    /// One LUFS value per hop.
    public var values: [Double]

    /// The time (seconds from the buffer's first frame) at which window `k` ends.
    public func endTime(ofWindow k: Int) -> Double { startSeconds + Double(k + 1) * hopSeconds }

    /// The largest finite value, or nil when every window is silent.
    public var maximum: Double? { values.filter(\.isFinite).max() }
}
