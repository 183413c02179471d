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
    /// The envelope peak (10 ms RMS), dBFS.
    public var peakLevel: Double
    public var d20: Double?
    public var d40: Double?
    public var d60: Double?
    /// The time to fall 40 dB extrapolated from a clean decay, when the file ends (or meets its floor) first.
    public var d40Extrapolated: Double?
    public var edt: Double?
    public var t20: Double?
    public var t30: Double?
    public var noiseFloor: Double?
    public var ringingAtEnd: Bool
    public var endsWithFade: Bool
    /// dB below the peak at the end of the file.
    public var endLevel: Double
    /// The level the sound had where the file stops it (dB re peak): at the end, or at the start of a final fade.
    public var cutLevel: Double
    /// Decay rate just before the end (dB/s, negative = decaying).
    public var endSlope: Double
    /// The share of the ringing's power in partials (``PartialAnalysis/tonality``); nil without power.
    public var tonality: Double?
    /// Strikes within 10 dB of the peak, and those of them that bring new pitches (``StrikeFigure``).
    public var strikes: Int
    public var newNotes: Int
    /// The decoder stopped before the stream's end (what was decoded is measured).
    public var truncatedStream: Bool
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

    /// The time to fall 40 dB that decides the class: `d40` as measured, else `d40Extrapolated` (said so in the
    /// reasons); nil when the file shows less than 10 dB of decay.
    public var decay40: Double? { d40 ?? d40Extrapolated }
}
