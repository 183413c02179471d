import AudioDSP
import Foundation

/// Every measurement `enso bells audition` makes of one candidate (definitions in docs/bells.md).
///
/// Times are seconds, levels dB. Values that do not exist (a decay level never reached, integrated loudness
/// of a too-short file) are `nil` and encode as JSON `null`.
public struct BellAuditionMetrics: Sendable, Codable, Equatable {
    public var duration: Double
    public var sampleRate: Int
    public var channels: Int
    public var loudness: LoudnessReport
    public var leadingSilence: Double
    public var attack: Double
    public var onsets: Int
    public var onsetTimes: [Double]
    public var peakTime: Double
    public var d20: Double?
    public var d40: Double?
    public var d60: Double?
    public var edt: Double?
    public var t20: Double?
    public var t30: Double?
    public var noiseFloor: Double?
    public var ringingAtEnd: Bool
    public var endsWithFade: Bool
    /// dB below the peak at the end of the file.
    public var endLevel: Double
    /// Decay rate just before the end (dB/s, negative = decaying).
    public var endSlope: Double
    public var partials: [PartialAnalysis.Partial]
    public var strongPartials: Int
    public var partialRatios: [Double]
    public var inharmonicity: Double
    public var strikePitch: Double?
    public var centroid: Double
    public var earlyCentroid: Double
    public var beatRate: Double
    public var beatDepth: Double
    public var clippedSamples: Int
    public var clipRuns: Int
    public var longestClipRun: Int
    public var dcOffset: Double
    public var channelCorrelation: Double?
    public var channelBalance: Double

    /// The effective time to fall 40 dB: `d40`, else T20 scaled to 40 dB (decay under a noise floor), else
    /// `d20` doubled; nil when none is known.
    public var decay40: Double? { d40 ?? t20.map { $0 * 40 / 60 } ?? d20.map { $0 * 2 } }
}
