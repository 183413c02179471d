/// The parsed command line of one command: flags, option values and positionals.
public struct ParsedArguments: Sendable {
    /// Flags that were given, by long name.
    public var flags: Set<String> = []
    /// Option values by long name, in the order given.
    public var values: [String: [String]] = [:]
    /// Positional arguments in order.
    public var positionals: [String] = []

    public init(flags: Set<String> = [], values: [String: [String]] = [:], positionals: [String] = []) {
        self.flags = flags
        self.values = values
        self.positionals = positionals
    }

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `--name`, if any.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for `--name`.
    public func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether `--name` was given (flag or value).
    public func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

    /// `--name` as an integer within `range`, or `nil` when absent.
    ///
    /// - Throws: `UsageError` naming the option and its range.
    public func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let raw = value(name) else { return nil }
        guard let v = Int(raw) else { throw UsageError("--\(name): '\(raw)' is not a whole number") }
        guard range.contains(v) else {
            // The plan's wording (`--volume 1.5 is outside 0...1`, PlanValidationError): one for every range.
            throw UsageError("--\(name) \(v) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }

    /// `--name` as a number within `range`, or `nil` when absent.
    ///
    /// - Throws: `UsageError` naming the option and its range.
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let raw = value(name) else { return nil }
        guard let v = Double(raw), v.isFinite else { throw UsageError("--\(name): '\(raw)' is not a number") }
        guard range.contains(v) else {
            throw UsageError(
                "--\(name) \(formatNumber(v)) is outside \(formatNumber(range.lowerBound))...\(formatNumber(range.upperBound))"
            )
        }
        return v
    }

    /// `--name` as one of `choices`, or `nil` when absent.
    public func choice(_ name: String, from choices: [String]) throws -> String? {
        guard let raw = value(name) else { return nil }
        guard choices.contains(raw) else {
            throw UsageError("--\(name): '\(raw)' is not one of \(choices.joined(separator: ", "))")
        }
        return raw
    }
}

/// A number without a trailing ".0".
public func formatNumber(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
    return String(v)
}
