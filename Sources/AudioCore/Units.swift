// MARK: - Glossary
//
// - sample: one value of one channel at one instant (`Float`, nominally -1...1).
// - frame: one sample for every channel at one instant. All positions and lengths in Enso are frames.
// - channel: one of the parallel signals (1 = mono, 2 = stereo).
// - sample rate: frames per second. Seconds are used only at the edges (CLI, protocol); the engine counts frames.

/// A position on an audio timeline, in frames from an origin (a file's first frame, a session's first frame).
///
/// Frames are `Int64`: at 768 kHz that is still 380 000 years, so no session can overflow it.
public typealias FramePosition = Int64

/// A number of frames.
public typealias FrameCount = Int64

/// Frames per second, always within 1 Hz ... 768 kHz.
///
/// Valid by construction: `init?(_:)` rejects values outside ``SampleRate/validRange``.
public struct SampleRate: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The rates Enso accepts: from 1 Hz up to 768 kHz.
    public static let validRange: ClosedRange<Int> = 1...768_000

    /// The rate in frames per second.
    public let hertz: Int

    /// Creates a rate, or returns `nil` when `hertz` is outside ``validRange``.
    public init?(_ hertz: Int) {
        guard Self.validRange.contains(hertz) else { return nil }
        self.hertz = hertz
    }

    /// Creates a rate from a literal known to be valid; traps on an invalid value (a programmer error).
    public init(checked hertz: Int) {
        precondition(Self.validRange.contains(hertz), "sample rate \(hertz) Hz is outside 1...768000")
        self.hertz = hertz
    }

    public static let hz44100 = SampleRate(checked: 44_100)
    public static let hz48000 = SampleRate(checked: 48_000)

    /// The rate as a `Double`, for conversions at the edges.
    public var double: Double { Double(hertz) }

    /// Converts seconds to the nearest whole frame. Round once, then count frames: nothing drifts.
    public func frames(seconds: Double) -> FrameCount {
        FrameCount((seconds * Double(hertz)).rounded())
    }

    /// Converts frames to seconds (for display and protocol edges only).
    public func seconds(frames: FrameCount) -> Double {
        Double(frames) / Double(hertz)
    }

    public static func < (lhs: SampleRate, rhs: SampleRate) -> Bool { lhs.hertz < rhs.hertz }
    public var description: String { "\(hertz) Hz" }
}

/// A number of channels, always within 1 ... 64.
public struct ChannelCount: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The channel counts Enso accepts.
    public static let validRange: ClosedRange<Int> = 1...64

    /// The number of channels.
    public let count: Int

    /// Creates a channel count, or returns `nil` when `count` is outside ``validRange``.
    public init?(_ count: Int) {
        guard Self.validRange.contains(count) else { return nil }
        self.count = count
    }

    /// Creates a channel count known to be valid; traps on an invalid value (a programmer error).
    public init(checked count: Int) {
        precondition(Self.validRange.contains(count), "channel count \(count) is outside 1...64")
        self.count = count
    }

    public static let mono = ChannelCount(checked: 1)
    public static let stereo = ChannelCount(checked: 2)

    public static func < (lhs: ChannelCount, rhs: ChannelCount) -> Bool { lhs.count < rhs.count }
    public var description: String { count == 1 ? "mono" : count == 2 ? "stereo" : "\(count) channels" }
}
