/// One benchmark scenario: a title, the comparison group it belongs to, and a setup closure that
/// returns the closure to time.
///
/// Titles follow `"<Type> <operation> (<variant>)"`, for example `"AudioFile decode (FLAC 60 s)"`.
/// Scenarios in the same `group` are printed in one table; the one marked `isBaseline` is the peer
/// the others are divided by (the "ratio" column), measured in the same run.
struct Benchmark: Sendable {
    /// A scenario's own measurement: `setup` returns the closure that does one run and returns the seconds it
    /// measured. (A struct: an optional `@Sendable` closure property does not take a `@Sendable` parameter in
    /// Swift 6.3.)
    struct Measuring: Sendable {
        var setup: @Sendable () throws -> () throws -> Double
    }

    /// Whether the timed closure runs inside the harness process or times a whole external process.
    enum Kind: Sendable { case inProcess, wholeProcess }

    var title: String
    var group: String
    var isBaseline: Bool
    var kind: Kind
    /// The largest acceptable ratio to the baseline, printed beside the measured one (not a gate).
    var target: Double?
    /// The largest acceptable ratio of peak RSS to the baseline's, printed beside the measured one (not a gate).
    var rssTarget: Double?
    /// How many items (files, loops) one run processes, and what they are called: the table prints items per second.
    var items: (count: Int, unit: String)?
    /// Runs once in the parent before any measurement (create fixture files, compile C peers). Idempotent.
    var prepare: @Sendable () throws -> Void
    /// Runs in the measuring process; returns the closure that is timed (untimed setup stays out of it).
    var setup: @Sendable () throws -> () throws -> Void
    /// For an interval the scenario measures itself (a reply's latency, the longest of many waits): returns the
    /// closure that does one run and returns the seconds it measured. Used instead of timing ``setup``'s closure.
    var measuring: Measuring?

    init(
        _ title: String, group: String, baseline: Bool = false, kind: Kind = .inProcess, target: Double? = nil,
        rssTarget: Double? = nil, items: (count: Int, unit: String)? = nil,
        prepare: @escaping @Sendable () throws -> Void = {}, setup: @escaping @Sendable () throws -> () throws -> Void
    ) {
        self.title = title
        self.group = group
        self.isBaseline = baseline
        self.kind = kind
        self.target = target
        self.rssTarget = rssTarget
        self.items = items
        self.prepare = prepare
        self.setup = setup
    }

    /// A scenario that measures its own interval (``measuring``): `body` returns a closure that does one run and
    /// returns the seconds it measured.
    static func measured(
        _ title: String, group: String, baseline: Bool = false, target: Double? = nil,
        prepare: @escaping @Sendable () throws -> Void = {},
        measuring body: @escaping @Sendable () throws -> () throws -> Double
    ) -> Benchmark {
        var b = Benchmark(title, group: group, baseline: baseline, target: target, prepare: prepare) { {} }
        b.measuring = Measuring(setup: body)
        return b
    }
}

/// Keeps a result alive so the optimiser cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A failure inside a scenario (missing tool, a peer that did not produce the expected output).
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
