/// What a session is: how long each sitting lasts, which bell rings how often, what plays underneath.
///
/// Valid by construction: every stored value is always inside its range, because every setter clamps
/// (writing 0 or 47 to ``strikes`` reads back as 1 or 3; a NaN duration reads back as the range's lower
/// bound). Front ends must not rely on clamping to handle user input: they call ``validated(_:)`` with the
/// raw values, which *rejects* anything out of range with a ``PlanValidationError`` naming the field.
///
/// Durations are seconds here because a plan is user-facing; ``SessionTimeline`` rounds each of them to
/// frames exactly once.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: not used on the render thread (the engine works from a ``SessionTimeline``).
public struct SessionPlan: Sendable, Hashable {
    /// How many times the sitting repeats.
    public enum Repeat: Sendable, Hashable, CustomStringConvertible {
        /// One cycle.
        case once
        /// `n` cycles, 1...1000 (clamped).
        case times(Int)
        /// Cycles repeat until the engine is told to stop.
        case untilStopped
        /// Cycles repeat; the cycle in which this clock time falls closes exactly on it.
        case until(ClockTime)

        public var description: String {
            switch self {
            case .once: return "once"
            case .times(let n): return "\(n)"
            case .untilStopped: return "forever"
            case .until(let t): return "until=\(t)"
            }
        }
    }

    /// Each plan field (its names per front end, range and help: ``SessionPlan/fields``).
    public enum Field: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case sitting, bell, strikes, strikeSpacing, breath, ambient, ambientVolume, bellVolume, masterVolume
        case fadeIn, fadeOut, repeatCount = "repeat"
        case interval, intervalAt, intervalBell, intervalStrikes, intervalVolume

        public var description: String { rawValue }
    }

    // MARK: - Ranges

    /// Sitting length per cycle, seconds: 1 s ... 24 h.
    public static let sittingRange: ClosedRange<Double> = 1...86_400
    /// Strikes per group.
    public static let strikesRange: ClosedRange<Int> = 1...3
    /// Seconds between the strikes of a group.
    public static let strikeSpacingRange: ClosedRange<Double> = 0.5...15
    /// Seconds of silence (bells ringing on) between a transition group's last strike and the next cycle.
    public static let breathRange: ClosedRange<Double> = 0...60
    /// Linear gain of each bus and of the master, 0...1.
    public static let volumeRange: ClosedRange<Double> = 0...1
    /// Ambient fade-in and fade-out, seconds.
    public static let fadeRange: ClosedRange<Double> = 0...600
    /// Cycle count for ``Repeat/times(_:)``.
    public static let timesRange: ClosedRange<Int> = 1...1000
    /// Seconds between interval bells (``interval``), and the range of each listed time (``intervalAt``).
    public static let intervalRange: ClosedRange<Double> = 5...86_400
    /// The most times ``intervalAt`` lists.
    public static let maximumIntervalTimes = 100

    // MARK: - Stored values (always in range)

    /// Sitting length of each cycle in seconds, clamped to ``sittingRange``.
    @Clamped(SessionPlan.sittingRange) public var sitting: Double = 20 * 60
    /// Strikes per group, clamped to ``strikesRange``.
    @Clamped(SessionPlan.strikesRange) public var strikes: Int = 3
    /// Seconds between strikes of one group, clamped to ``strikeSpacingRange``.
    @Clamped(SessionPlan.strikeSpacingRange) public var strikeSpacing: Double = 3
    /// Breath pause in seconds, clamped to ``breathRange``.
    @Clamped(SessionPlan.breathRange) public var breath: Double = 2
    /// Ambient bus gain, clamped to ``volumeRange``.
    @Clamped(SessionPlan.volumeRange) public var ambientVolume: Double = 0.6
    /// Bell bus gain, clamped to ``volumeRange``.
    @Clamped(SessionPlan.volumeRange) public var bellVolume: Double = 1
    /// Master gain, clamped to ``volumeRange``.
    @Clamped(SessionPlan.volumeRange) public var masterVolume: Double = 1
    /// Ambient fade-in at the start, seconds, clamped to ``fadeRange``.
    @Clamped(SessionPlan.fadeRange) public var fadeIn: Double = 5
    /// Ambient fade-out after the last strike, seconds, clamped to ``fadeRange``.
    @Clamped(SessionPlan.fadeRange) public var fadeOut: Double = 5

    private var _repeatMode: Repeat = .once

    /// Interval bells every this many seconds of each sitting (`nil`: none), from the sitting's start: every 10 min
    /// of a 40 min sitting rings at 10, 20 and 30 min. Clamped to ``intervalRange``.
    public var interval: Double? {
        get { _interval }
        set { _interval = newValue.map { Self.clamp($0, Self.intervalRange) } }
    }
    /// Interval bells at these seconds of each sitting (sorted, duplicates dropped, each clamped to
    /// ``intervalRange``, at most ``maximumIntervalTimes``), in addition to ``interval``'s.
    public var intervalAt: [Double] {
        get { _intervalAt }
        set {
            _intervalAt = Array(Set(newValue.map { Self.clamp($0, Self.intervalRange) })).sorted()
                .prefix(Self.maximumIntervalTimes).map { $0 }
        }
    }
    /// The interval bell's asset id, or `nil` for the session's ``bell``.
    public var intervalBell: String? = nil
    /// Strikes of each interval bell (spaced like the plan's groups), clamped to ``strikesRange``; default 1.
    @Clamped(SessionPlan.strikesRange) public var intervalStrikes: Int = 1
    /// The interval bell's gain (on top of the bell bus), clamped to ``volumeRange``; default 1.
    @Clamped(SessionPlan.volumeRange) public var intervalVolume: Double = 1
    /// Whether the plan has interval bells.
    public var hasIntervals: Bool { interval != nil || !intervalAt.isEmpty }

    private var _interval: Double? = nil
    private var _intervalAt: [Double] = []

    /// The bell's asset id (resolved by the front end; the engine receives decoded audio).
    public var bell: String = SessionPlan.defaultBell
    /// The ambient theme's asset id, or `nil` for silence under the bells.
    public var ambient: String? = nil

    /// The bell a plan uses when none is given.
    public static let defaultBell = "singing-bowl"

    /// A plan with the defaults: 20 min, 3 strikes 3 s apart, 2 s breath, 5 s fades, once, no ambient.
    public init() {}

    /// How the cycles repeat; a ``Repeat/times(_:)`` count is clamped to ``timesRange``.
    public var repeatMode: Repeat {
        get { _repeatMode }
        set {
            if case .times(let n) = newValue {
                _repeatMode = .times(Self.clamp(n, Self.timesRange))
            } else {
                _repeatMode = newValue
            }
        }
    }

    /// `value` moved into `range`; a NaN (the one value not equal to itself) becomes the lower bound.
    static func clamp<Value: Comparable>(_ value: Value, _ range: ClosedRange<Value>) -> Value {
        guard value == value else { return range.lowerBound }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// A stored plan value that is always inside `range`: the initial value and every write are clamped
    /// (``clamp(_:_:)``), so a plan is valid by construction.
    @propertyWrapper
    public struct Clamped<Value: Comparable & Hashable & Sendable>: Hashable, Sendable {
        private var value: Value
        private let range: ClosedRange<Value>

        public init(wrappedValue: Value, _ range: ClosedRange<Value>) {
            self.range = range
            value = SessionPlan.clamp(wrappedValue, range)
        }

        public var wrappedValue: Value {
            get { value }
            set { value = SessionPlan.clamp(newValue, range) }
        }
    }
}
