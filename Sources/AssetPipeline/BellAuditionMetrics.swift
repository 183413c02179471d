import AudioDSP
import Foundation

/// Every measurement `enso bells audition` makes of one candidate (definitions in docs/bells.md): its decay
/// (``DecayAnalysis``) and the rest (``Sound``), read as one (`m.d40`, `m.attack`) and encoded as one flat JSON
/// object.
///
/// Times are seconds, levels dB. Values that do not exist (a decay level never reached, integrated loudness
/// of a too-short file) are `nil` and encode as JSON `null`.
@dynamicMemberLookup
public struct BellAuditionMetrics: Sendable, Equatable {
    /// How the sound dies away: `peakTime`, `peakLevel`, `d20` … `d60`, `d40Extrapolated`, `edt`, `t20`, `t30`,
    /// `noiseFloor`, `humFrequency`, `ringingAtEnd`, `endsWithFade`, `endLevel`, `cutLevel`, `endSlope`.
    public var decay: DecayAnalysis
    /// Every measurement besides the decay's.
    public var sound: Sound

    /// The measurements besides the decay's: the file, its loudness, onset, partials, strikes, beating and samples.
    public struct Sound: Sendable, Codable, Equatable {
        public var duration: Double
        public var sampleRate: Int
        public var channels: Int
        public var loudness: LoudnessReport
        public var leadingSilence: Double
        public var attack: Double
        public var onsets: Int
        public var onsetTimes: [Double]
        /// The share of the ringing's power in partials (``PartialAnalysis/tonality``); nil without power.
        public var tonality: Double?
        /// Strikes within 10 dB of the peak, those of them that bring new pitches, and notes that enter without a
        /// strike (``StrikeFigure``).
        public var strikes: Int
        public var newNotes: Int
        public var enteringNotes: Int
        public var entryTimes: [Double]
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
        /// The quietest channel (0 = left), when there are two: the one `--use-channel` leaves out.
        public var quietestChannel: Int? = nil
        /// The levels (dBFS) of the positive and the negative rail the clipping runs were counted on, when one lies
        /// below full scale (a file clipped and then turned down: ``ClipRails/levels``; 0 for a top at full scale,
        /// nil for a side with no rail); nil when no rail lies below full scale.
        public var clipRails: [Double?]? = nil
        /// In a clipped file, the share of the samples `tonality` is read from that the arcs alone drew under the
        /// clipping (no kept fit of the partials, ``ClippedTops/filledMarkingArcs(_:rails:)``); nil without clipping.
        public var tonalityArcShare: Double? = nil
    }

    /// A decay measurement, as `m.d40`.
    public subscript<T>(dynamicMember key: KeyPath<DecayAnalysis, T>) -> T { decay[keyPath: key] }

    /// Any other measurement, as `m.attack`.
    public subscript<T>(dynamicMember key: KeyPath<Sound, T>) -> T { sound[keyPath: key] }

    /// The time to fall 40 dB that decides the class: `d40` as measured, else `d40Extrapolated` (said so in the
    /// reasons); nil when the file shows less than 10 dB of decay.
    public var decay40: Double? { decay.d40 ?? decay.d40Extrapolated }

    /// How long the sound lasts (s): from its first sample over 60 dB under its peak (`leadingSilence`) to the end of the file.
    /// Silence before a sound is no part of it (the `leading-silence` defect judges it), so the class rules that ask
    /// how long a sound is read this, not the file's `duration`: 100 ms of silence put in front of a 0.31 s sound
    /// does not make it long enough to be judged by its decay.
    public var soundLength: Double { max(0, sound.duration - sound.leadingSilence) }
}

extension BellAuditionMetrics: Codable {
    /// Reads the flat object ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        decay = try DecayAnalysis(from: decoder)
        sound = try Sound(from: decoder)
    }

    /// Writes one flat object: the decay's keys beside the others (docs/bells.md).
    public func encode(to encoder: any Encoder) throws {
        try sound.encode(to: encoder)
        try decay.encode(to: encoder)
    }
}
