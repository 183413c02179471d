import AudioCore
import AudioDSP

/// The judged seam: each metric's value against its limits, its status and its sentence, and the verdict over all
/// seven (the JSON of `loops verify`, `loops find` and `assets check`, documented in docs/loops.md).
///
/// ``SeamRules`` makes them from ``SeamMetrics/Measures``, one ``SeamRule`` per metric.
extension SeamRules {
    /// How one metric, or the whole seam, stands against its thresholds. Ordered from best to worst.
    public enum Status: String, Sendable, Codable, DeclarationOrdered {
        /// Not measured: the loop is too short or too quiet for this metric, or the material has no pulse.
        case notApplicable = "n/a"
        /// Measured and within its threshold.
        case pass
        /// Measured, past the threshold but not past the failure limit: audible to a careful listener.
        case warn
        /// Measured and past the failure limit: an audible seam.
        case fail
    }

    /// Which way a metric's value gets worse.
    public enum Direction: String, Sendable, Codable {
        /// Larger values are worse (a jump, a step, a click); the thresholds are upper limits.
        case higherIsWorse = "higher-is-worse"
        /// Smaller values are worse (how much of the pulse survives the seam); the thresholds are lower limits.
        case lowerIsWorse = "lower-is-worse"
    }

    /// Why a metric was not measured: the loop (too short, silent, too quiet near the seam: the verdict's reasons
    /// say so, a loop too short to judge is worth knowing) or the material (no pulse, a seam already known not to
    /// pass: nothing to say).
    public enum Unmeasured: String, Sendable, Codable {
        case loop
        case material
    }

    /// One seam metric: the measured value against its threshold, and what it means in words.
    public struct Metric: Sendable, Codable, Equatable {
        /// Which metric.
        public var name: SeamMetrics.Name
        /// The measured value, in ``unit``; `nil` when the metric could not be measured (see ``note``).
        public var value: Double?
        /// The pass limit: a value on the good side of it passes.
        public var threshold: Double
        /// The failure limit: a value past it fails; between the two the metric warns.
        public var failThreshold: Double
        /// Which way the value gets worse.
        public var direction: Direction
        /// The unit of ``value`` and the thresholds ("ratio", "dB", "z", "%", "fraction").
        public var unit: String
        /// The outcome.
        public var status: Status
        /// What was measured, in words ("level drops 2.1 dB across the seam"), or why nothing was measured.
        public var note: String
        /// Why nothing was measured (nil when the metric was). Not encoded.
        public var unmeasured: Unmeasured?

        private enum CodingKeys: String, CodingKey {
            case name, value, threshold, failThreshold, direction, unit, status, note
        }

        public init(
            name: SeamMetrics.Name, value: Double?, threshold: Double, failThreshold: Double, direction: Direction,
            unit: String,
            note: String
        ) {
            self.name = name
            self.value = value
            self.threshold = threshold
            self.failThreshold = failThreshold
            self.direction = direction
            self.unit = unit
            self.note = note
            status =
                value.map { SeamRule.status(of: $0, pass: threshold, fail: failThreshold, direction: direction) }
                ?? .notApplicable
        }

        /// A metric that could not be measured, and why: in words, and whether for the loop or the material.
        public static func notMeasured(
            _ name: SeamMetrics.Name, threshold: Double, failThreshold: Double, direction: Direction, unit: String,
            because: String,
            by cause: Unmeasured
        ) -> Metric {
            var m = Metric(
                name: name, value: nil, threshold: threshold, failThreshold: failThreshold, direction: direction,
                unit: unit, note: because)
            m.unmeasured = cause
            return m
        }

        /// Whether the metric passed (`nil` when it was not measured).
        public var ok: Bool? { status == .notApplicable ? nil : status == .pass }

        /// How far past its pass limit the value is: 0 at the threshold, 1 at the failure limit, negative when it
        /// passes, `-infinity` when not measured. Orders metrics worst first.
        public var severity: Double {
            guard let value else { return -.infinity }
            let span = failThreshold - threshold
            guard span != 0 else { return value == threshold ? 0 : (value - threshold) }
            return (value - threshold) / span
        }
    }

    /// All seven metrics of one seam and the verdict they add up to.
    public struct Report: Sendable, Codable, Equatable {
        /// The worst status among the measured metrics (`.pass` when none could be measured: a silent loop), and at
        /// least `.warn` when the loop holds sound but no seam metric could read it (too short for every one).
        public var verdict: Status
        /// The metrics, worst first.
        public var metrics: [Metric]
        /// The reasons for the verdict in words, worst first: every failing or warning metric, then every metric
        /// that could not be measured because the loop is too short or too quiet.
        public var reasons: [String]
        /// The material's pulse period in frames, when the rhythm metric found one (whether or not it could judge
        /// the seam by it): `loops find` tries loop lengths that are multiples of it. Not encoded.
        public var pulsePeriod: Int?
        /// Whether the material repeats itself at ``pulsePeriod`` (the median self-similarity one period apart is
        /// 0.5 or more: a drone, a hum, a drip pattern), whether or not it has events the rhythm metric could judge.
        /// `loops find` never takes such material's correlation peaks for chance. Not encoded.
        public var repeatsAtPeriod: Bool = false
        /// Whether events keep ``pulsePeriod``: a steady pulse of events whose waveform does not repeat (a recorded
        /// timer's ticks), or events that recur at a period the waveform repeats at (a beat loop's kick and snare). A
        /// loop that is not a whole number of its periods skips at every wrap. Not encoded.
        public var pulseOfEvents: Bool = false

        private enum CodingKeys: String, CodingKey { case verdict, metrics, reasons }

        /// Builds the verdict from `metrics`.
        public init(
            metrics: [Metric], pulsePeriod: Int? = nil, repeatsAtPeriod: Bool = false, pulseOfEvents: Bool = false
        ) {
            self.pulsePeriod = pulsePeriod
            self.repeatsAtPeriod = repeatsAtPeriod
            self.pulseOfEvents = pulseOfEvents
            let ordered = metrics.sorted { a, b in
                if a.status != b.status { return a.status > b.status }
                return a.severity > b.severity
            }
            self.metrics = ordered
            let worst = ordered.map(\.status).filter { $0 != .notApplicable }.max() ?? .pass
            // A loop that holds sound (its DC offset was measured: a silent loop has none) but whose seam no metric
            // could read (too short for every one: under 16 frames) has not shown that it passes: a broken export
            // of a few samples would otherwise pass a CI gate.
            let seamUnjudged =
                ordered.contains { $0.name == .dcOffset && $0.value != nil }
                && !ordered.contains { $0.name != .dcOffset && $0.value != nil }
            verdict = seamUnjudged ? max(worst, .warn) : worst
            reasons =
                ordered.filter { $0.status == .fail || $0.status == .warn }.map(\.note)
                + ordered.filter { $0.status == .notApplicable && $0.unmeasured == .loop }.map {
                    "\($0.name.rawValue): \($0.note)"
                }
        }

        /// Whether the seam itself passes: every metric but the DC offset (a flag, not a seam fault) passes or
        /// could not be measured.
        public var seamPasses: Bool {
            metrics.allSatisfy { $0.name == .dcOffset || $0.status == .pass || $0.status == .notApplicable }
        }

        /// The metric called `name`.
        public func metric(_ name: SeamMetrics.Name) -> Metric? { metrics.first { $0.name == name } }
    }
}
