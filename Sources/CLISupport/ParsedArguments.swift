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
        try value(name).map { try OptionValue.int($0, option: name, in: range) }
    }

    /// `--name` as a number within `range`, or `nil` when absent.
    ///
    /// - Throws: `UsageError` naming the option and its range.
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        try value(name).map { try OptionValue.double($0, option: name, in: range) }
    }

    /// `--name` as one of `choices`, or `nil` when absent.
    public func choice(_ name: String, from choices: [String]) throws -> String? {
        try value(name).map { try OptionValue.choice($0, option: name, from: choices) }
    }
}
