import JSONText

/// Options declared once, in the manner of swift-argument-parser: a declaration carries the option's name, value
/// name, type, range, default and help; the parser validates its values, help, the man page and completions show
/// its range and default (generated, never written in the help string), and a command reads it back through the
/// declaration (`try args.value(of: Self.top)`), never by a string.
///
///     static let top = Option<Int>("top", valueName: "N", range: 1...10_000, help: "Print only the N best.")
///     // help: "Print only the N best (1...10000)."; `--top 0` exits 64: "--top 0 is outside 1...10000".
public struct Option<Value: Sendable>: Sendable {
    /// The option as the parser, help, man page and completions see it.
    public var spec: OptionSpec
    /// The value when the option is absent, if it has one.
    public var defaultValue: Value?
    /// The value of one given string, checked.
    let convert: @Sendable (String) throws -> Value

    init(
        spec: OptionSpec, defaultValue: Value?, defaultText: String?,
        convert: @escaping @Sendable (String) throws -> Value
    ) {
        var spec = spec
        spec.defaultText = defaultText
        spec.validate = { _ = try convert($0) }
        self.spec = spec
        self.defaultValue = defaultValue
        self.convert = convert
    }

    /// The same option with other help (a command that words it for itself), and a default worded for it; the
    /// name, type and range stay.
    public func help(_ text: String, defaultDescription: String? = nil) -> Option {
        var copy = self
        copy.spec.help = text
        if let defaultDescription { copy.spec.defaultText = "default: \(defaultDescription)" }
        return copy
    }
}

extension Option {
    /// A value of the command's own type (a format, a plan field's value): `convert` reads one given string and
    /// throws a `UsageError` naming the option when it cannot; the parser calls it while it parses. `spec` holds
    /// the name, placeholder, help and any choices; `defaultText` the default as help shows it.
    public init(
        _ spec: OptionSpec, default value: Value? = nil, defaultText: String? = nil,
        convert: @escaping @Sendable (String) throws -> Value
    ) {
        self.init(spec: spec, defaultValue: value, defaultText: defaultText, convert: convert)
    }
}

extension Option where Value == Int {
    /// A whole number within `range`; `defaultDescription` words a default that is not a number
    /// (`every core`).
    public init(
        _ name: String, short: Character? = nil, valueName: String = "N", range: ClosedRange<Int>,
        default value: Int? = nil, defaultDescription: String? = nil, help: String
    ) {
        self.init(
            spec: OptionSpec(
                name: name, short: short, valueName: valueName, help: help, repeatable: false, bounds: .int(range)),
            defaultValue: value,
            defaultText: value.map { "default \($0)" } ?? defaultDescription.map { "default: \($0)" },
            convert: { try OptionValue.int($0, option: name, in: range) })
    }
}

extension Option where Value == Double {
    /// A number within `range`; `defaultDescription` words a default that is not a number.
    public init(
        _ name: String, short: Character? = nil, valueName: String, range: ClosedRange<Double>,
        default value: Double? = nil, defaultDescription: String? = nil, help: String
    ) {
        self.init(
            spec: OptionSpec(
                name: name, short: short, valueName: valueName, help: help, repeatable: false,
                bounds: .double(range)),
            defaultValue: value,
            defaultText: value.map { "default \(NumberText.plain($0))" } ?? defaultDescription.map { "default: \($0)" },
            convert: { try OptionValue.double($0, option: name, in: range) })
    }
}

extension Option where Value == Double {
    /// A duration as people type it (`1.5`, `250ms`, `2s`, ``DurationParser``), in seconds, not negative.
    public static func duration(_ name: String, valueName: String = "DURATION", help: String) -> Option {
        Option(
            spec: .value(name, valueName: valueName, help: help), defaultValue: nil, defaultText: nil,
            convert: { raw in
                guard let s = DurationParser.seconds(raw), s >= 0 else {
                    throw UsageError("--\(name): '\(raw)' is not a duration (e.g. 1.5, 250ms, 2s)")
                }
                return s
            })
    }
}

extension Option where Value == String {
    /// Any string (a path, a name); `valuesFrom` as in ``OptionSpec/valuesFrom``; `completing`: what shells offer,
    /// the openings of a grammar (`alsa:`), not a list the value must be one of.
    public init(
        _ name: String, short: Character? = nil, valueName: String, repeatable: Bool = false,
        valuesFrom: [String] = [], completing: [String] = [], help: String
    ) {
        self.init(
            spec: .value(
                name, short: short, valueName: valueName, help: help, repeatable: repeatable, choices: completing,
                valuesFrom: valuesFrom),
            defaultValue: nil, defaultText: nil, convert: { $0 })
    }

    /// One of `choices` (shells offer them); `help` names the default in its own words.
    public init(_ name: String, valueName: String, choices: [String], help: String) {
        self.init(
            spec: .value(name, valueName: valueName, help: help, choices: choices), defaultValue: nil,
            defaultText: nil, convert: { try OptionValue.choice($0, option: name, from: choices) })
    }
}

/// A flag declared once: `args[Self.json]`.
public struct Flag: Sendable {
    public var spec: OptionSpec

    public init(_ name: String, short: Character? = nil, help: String) {
        spec = .flag(name, short: short, help: help)
    }

    /// The same flag with other help.
    public func help(_ text: String) -> Flag {
        var copy = self
        copy.spec.help = text
        return copy
    }
}

/// The checks of a value as typed: one wording for every option (the plan's: `--volume 1.5 is outside 0...1`).
enum OptionValue {
    static func int(_ raw: String, option name: String, in range: ClosedRange<Int>) throws -> Int {
        guard let v = Int(raw) else { throw UsageError("--\(name): '\(raw)' is not a whole number") }
        guard range.contains(v) else {
            throw UsageError("--\(name) \(v) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }

    static func double(_ raw: String, option name: String, in range: ClosedRange<Double>) throws -> Double {
        guard let v = Double(raw), v.isFinite else { throw UsageError("--\(name): '\(raw)' is not a number") }
        guard range.contains(v) else {
            throw UsageError(
                "--\(name) \(NumberText.plain(v)) is outside \(NumberText.plain(range.lowerBound))...\(NumberText.plain(range.upperBound))"
            )
        }
        return v
    }

    static func choice(_ raw: String, option name: String, from choices: [String]) throws -> String {
        guard choices.contains(raw) else {
            throw UsageError("--\(name): '\(raw)' is not one of \(choices.joined(separator: ", "))")
        }
        return raw
    }
}

extension ParsedArguments {
    /// Whether the declared flag was given.
    public subscript(flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// The declared option's last value, checked, or `nil` when absent.
    ///
    /// - Throws: `UsageError` naming the option (the parser has checked it already when it parsed the line).
    public func value<V>(of option: Option<V>) throws -> V? {
        try value(option.spec.name).map(option.convert)
    }

    /// The declared option's value, or its default when absent (an option declared with one).
    public func valueOrDefault<V>(of option: Option<V>) throws -> V {
        guard let defaultValue = option.defaultValue else {
            preconditionFailure("--\(option.spec.name) is declared without a default")
        }
        return try value(of: option) ?? defaultValue
    }

    /// Every value given for a declared (repeatable) option, in order.
    public func allValues<V>(of option: Option<V>) throws -> [V] {
        try allValues(option.spec.name).map(option.convert)
    }

    /// Whether the declared option was given.
    public func has<V>(_ option: Option<V>) -> Bool { values[option.spec.name] != nil }

    /// Whether the option or flag `spec` was given (one of a list of declarations, `BatchOptions.views`).
    public func has(_ spec: OptionSpec) -> Bool { has(spec.name) }

    /// The declared option's last value as typed (`2s`), for a message that quotes the user; `nil` when absent.
    public func text<V>(of option: Option<V>) -> String? { value(option.spec.name) }
}
