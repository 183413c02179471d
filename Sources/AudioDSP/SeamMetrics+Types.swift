import AudioCore

/// The result types of ``SeamMetrics``: what each metric measured at the seam, with the facts a sentence about it
/// needs, or why it could not be measured.
///
/// They hold no limit, no status and no words for a user: the judgment side (AssetPipeline's `SeamRules`) reads a
/// ``Measure`` and gives the metric its status, its limits and its sentence.
extension SeamMetrics {
    /// The names of the seven metrics, as they appear in reports and JSON (documented in docs/loops.md).
    public enum Name: String, Sendable, Codable, CaseIterable {
        case continuity
        case spectral
        case level
        case click
        case dcOffset = "dc-offset"
        case rhythm
        case dip
    }

    /// The facts behind one measured value, which a sentence about it needs. Lengths of time are in seconds.
    public enum Evidence: Sendable, Equatable {
        /// Continuity: the signed sample jump at the wrap, on `channel` (nil for a mono loop), and, when a sound starts
        /// at the seam and set the reference, the largest step it takes 1-5 ms after it.
        case step(jump: Double, channel: Int?, sound: Double? = nil)
        /// Spectral: the level-free change across the seam and the 99th percentile of the loop's own changes (dB).
        case spectrum(change: Double, reference: Double)
        /// Level: the signed level step across the seam (dB, positive when it rises), the 99th percentile of the
        /// loop's own steps at the same scale (dB), and the window each side; `period`: the window is the period of the
        /// loop's pattern.
        case level(step: Double, reference: Double, window: Double, period: Bool = false)
        /// Click: the value (dB over the p99.9 window) says it all.
        case click
        /// DC offset: the signed mean of the worst channel (a fraction of full scale), and that channel (nil for a
        /// mono loop).
        case offset(mean: Double, channel: Int?)
        /// Rhythm of a pulse found by self-similarity: its period.
        case pulse(period: Double)
        /// Rhythm of a steady pulse of events: its period, the interval across the seam, the whole number of beats
        /// it is nearest to, how far it lies from them (percent of a beat, negative when short), and the largest
        /// distance of the loop's own intervals from the period (percent of a beat).
        case events(period: Double, across: Double, beats: Double, offBeat: Double, jitter: Double)
        /// Rhythm of pitched material without a pulse: the waveform's period and its frequency (Hz).
        case phase(period: Double, hertz: Double)
        /// Dip: the seam's dip and the 99th percentile of the loop's own dips (dB), and the window it shows in.
        case dip(depth: Double, reference: Double, window: Double)
        /// Dip of a fade at the loop's ends: how far (dB) the `window` centred on the seam sits under the median
        /// such span of the loop, and the deepest of the same for the loop's own spans.
        case fade(depth: Double, reference: Double, window: Double)
        /// Dip of digital silence at the seam: how long, and the longest run of it elsewhere in the loop (0: none).
        case gap(silence: Double, elsewhere: Double)
    }

    /// Why a metric could not be measured. Lengths of time are in seconds.
    public enum Unmeasured: Sendable, Equatable {
        /// The whole loop is silent (peak below ``silencePeak``).
        case silentLoop
        /// The loop (`frames` long) is too short to compare the seam with the rest (continuity, click).
        case tooShort(frames: Int)
        /// The loop (`seconds` long) is too short for spectral statistics, which need `needs` seconds.
        case tooShortForSpectrum(seconds: Double, needs: Double)
        /// The loop (`seconds` long) is shorter than ``shortestLevelLoop`` for a level step.
        case tooShortForLevel(seconds: Double)
        /// The loop (`seconds` long) is shorter than ``shortestLevelLoop`` for dips.
        case tooShortForDips(seconds: Double)
        /// The loop (`seconds` long) cannot hold two pulses of ``shortestPulseSeconds`` or more.
        case tooShortForPulse(seconds: Double)
        /// Every window scale is too quiet near the seam (below −70 dBFS) for a level step.
        case quietAtSeam
        /// The loop is silent around the seam: there is no level to dip from.
        case silentAtSeam
        /// The material has no pulse to judge the seam by, nor (when `pitch` says so) a steady pitch.
        case noPulse(NoPulse, pitch: UnsteadyPitch?)

        /// Whether the loop (its length or its level) kept the metric from being measured, rather than the material.
        public var byLoop: Bool {
            if case .noPulse = self { return false }
            return true
        }
    }

    /// Why the rhythm metric found no pulse.
    public enum NoPulse: Sendable, Equatable {
        /// No lag correlates well enough: the best self-similarity found at a peak (0 when it peaks nowhere).
        case noPeriod(best: Double)
        /// The best period's self-similarity is under 0.5 inside the loop: that similarity and the period.
        case weakPeriod(similarity: Double, period: Double)
        /// Fewer events than a pulse needs, in pitched material: their count.
        case tooFewEvents(Int)
        /// The events do not recur at the period: their count, the period, and the share that does recur.
        case unrelatedEvents(count: Int, period: Double, share: Double)
        /// A texture without events or pitch whose self-similarity at the best period is no more than chance gives
        /// in it (``SeamMetrics/chanceSimilarity(spread:)``): that similarity, the period and the chance level.
        case chancePeriod(similarity: Double, period: Double, chance: Double)
    }

    /// Pitched material whose pitch is not steady enough to judge its phase: the self-similarity at a quarter of
    /// the loop's points and the pitch period it was measured at (seconds).
    public struct UnsteadyPitch: Sendable, Equatable {
        public var similarity: Double
        public var period: Double

        public init(similarity: Double, period: Double) {
            self.similarity = similarity
            self.period = period
        }
    }

    /// One metric at the seam: its value with the facts behind it, or why it could not be measured.
    public struct Measure: Sendable, Equatable {
        /// What was found.
        public enum Reading: Sendable, Equatable {
            /// The value (in the unit its rule names) and its evidence.
            case value(Double, Evidence)
            /// Why nothing was measured.
            case unmeasured(Unmeasured)
        }

        public var name: Name
        public var reading: Reading
        /// The period (seconds) of the loop's own pattern when the seam was judged against the places where that
        /// pattern repeats (``SeamMetrics/Pattern``) because they read more than the 99th percentile of its ordinary
        /// junctions: the reference of ``reading`` is then theirs. `nil`: the 99th percentile's.
        public var pattern: Double?

        public init(_ name: Name, _ reading: Reading, pattern: Double? = nil) {
            self.name = name
            self.reading = reading
            self.pattern = pattern
        }

        /// The measured value (nil when not measured).
        public var value: Double? {
            if case .value(let v, _) = reading { return v }
            return nil
        }
    }

    /// Everything measured at one seam, in the order it was taken, and what the rhythm search found.
    public struct Measures: Sendable, Equatable {
        /// The measures: continuity, spectral, level, click, DC offset, rhythm, dip (the spectral and level ones
        /// last, or missing, when the caller stopped after the cheap ones). The level appears once per window scale
        /// it was measured at (``levelWindows(_:)``); the judgment keeps the scale where the step stands out most.
        public var taken: [Measure]
        /// The material's pulse period in frames, when the rhythm metric found one (whether or not it could judge
        /// the seam by it): `loops find` tries loop lengths that are multiples of it.
        public var pulsePeriod: Int?
        /// Whether the material repeats itself at ``pulsePeriod`` (the median self-similarity one period apart is
        /// 0.5 or more: a drone, a hum, a drip pattern), whether or not it has events the rhythm metric could judge.
        public var repeatsAtPeriod: Bool
        /// Whether events keep ``pulsePeriod``: a steady pulse of events whose waveform does not repeat (a recorded
        /// timer's ticks), or events that recur at a period the waveform repeats at (a beat loop's kick and snare). A
        /// loop that is not a whole number of its periods skips at every wrap.
        public var pulseOfEvents: Bool

        public init(
            _ taken: [Measure], pulsePeriod: Int? = nil, repeatsAtPeriod: Bool = false, pulseOfEvents: Bool = false
        ) {
            self.taken = taken
            self.pulsePeriod = pulsePeriod
            self.repeatsAtPeriod = repeatsAtPeriod
            self.pulseOfEvents = pulseOfEvents
        }
    }
}
