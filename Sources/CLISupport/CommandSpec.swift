import JSONText

/// A named option: a flag (`--json`) or an option with a value (`--rate 48000`, `--rate=48000`).
public struct OptionSpec: Sendable {
    /// The long name without dashes (`rate`); the key in ``ParsedArguments``.
    public var name: String
    /// A one-letter short name (`o` for `-o`), if any.
    public var short: Character?
    /// The value's placeholder in help (`HZ`); `nil` for a flag.
    public var valueName: String?
    /// One line of help.
    public var help: String
    /// Whether the option may be given more than once (values accumulate).
    public var repeatable: Bool
    /// The values the option accepts, when it is one of a set (`--format wav|flac`); shell completions offer
    /// them. Empty: any value.
    public var choices: [String] = []
    /// The tool's own arguments that print the option's values, one a line (`assets list --ids --kind bell`), for a
    /// value that is one of a set only the running tool knows (the ids of the pack it would find); shells run
    /// them at completion time and offer their lines and the files there. Empty: not such a value.
    public var valuesFrom: [String] = []
    /// The range a number must be in (declared with ``Option``); help shows it.
    public var bounds: Bounds? = nil
    /// The default as help shows it (`default 3`, `default: every core`), declared with ``Option``.
    public var defaultText: String? = nil
    /// Checks one given value (declared with ``Option``): the parser calls it, so a value out of range exits 64
    /// before the command runs.
    public var validate: (@Sendable (String) throws -> Void)? = nil

    /// A number's declared range.
    public enum Bounds: Sendable, Equatable {
        case int(ClosedRange<Int>)
        case double(ClosedRange<Double>)

        /// As help and errors write it: `1...10000`, `0.5...60`.
        public var text: String {
            switch self {
            case .int(let r): "\(r.lowerBound)...\(r.upperBound)"
            case .double(let r): "\(NumberText.plain(r.lowerBound))...\(NumberText.plain(r.upperBound))"
            }
        }
    }

    /// The help as shown: ``help`` with the declared range and default in parentheses before its last full stop
    /// (`Seconds between strikes (0.5...60, default 3).`).
    public var helpText: String {
        let notes = [bounds?.text, defaultText].compactMap { $0 }
        guard !notes.isEmpty else { return help }
        let note = " (" + notes.joined(separator: ", ") + ")"
        return help.hasSuffix(".") ? String(help.dropLast()) + note + "." : help + note
    }

    /// A flag: present or absent.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, repeatable: false)
    }

    /// An option that takes a value.
    public static func value(
        _ name: String, short: Character? = nil, valueName: String, help: String, repeatable: Bool = false,
        choices: [String] = [], valuesFrom: [String] = []
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, valueName: valueName, help: help, repeatable: repeatable, choices: choices,
            valuesFrom: valuesFrom)
    }

    var isFlag: Bool { valueName == nil }

    /// What a shell offers for the option's value.
    enum ValueKind: Equatable {
        case none, choices([String]), file, directory
        /// The lines `tool ARGUMENTS` prints (nothing when it fails), and files; with `afterEquals`, after the
        /// first `=` of a `NAME=VALUE` value (`--theme-at TIME=ID`), and nothing before it.
        case toolValuesOrFile([String], afterEquals: Bool)
    }

    /// The value's completion: its choices, else the values the tool prints and files (``valuesFrom``), else a folder for `DIR`, a file for a placeholder that names one
    /// (`FILE`, `OUTPUT`, `REPORT`, `JSON`, `ID|FILE`), else nothing (a number, a duration, a name,
    /// `TIME=ID`).
    var valueKind: ValueKind {
        guard let valueName else { return .none }
        if !choices.isEmpty { return .choices(choices) }
        if !valuesFrom.isEmpty { return .toolValuesOrFile(valuesFrom, afterEquals: valueName.contains("=")) }
        if valueName == "DIR" { return .directory }
        if valueName.contains("=") { return .none }
        let words = valueName.split(separator: "|")
        return words.contains { ["FILE", "OUTPUT", "REPORT", "JSON", "PATH"].contains($0) } ? .file : .none
    }

    var synopsis: String {
        let long = "--\(name)"
        return valueName.map { "\(long) <\($0.lowercased())>" } ?? long
    }

    var helpLabel: String {
        var label = short.map { "-\($0), " } ?? ""
        label += "--\(name)"
        if let v = valueName { label += " <\(v.lowercased())>" }
        return label
    }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    /// Whether it may be left out.
    public var isOptional: Bool
    /// Whether it takes all remaining positionals (`<file> ...`).
    public var isVariadic: Bool

    public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isVariadic = variadic
    }

    var synopsis: String {
        var s = "<\(name)>"
        if isVariadic { s += " ..." }
        return isOptional ? "[\(s)]" : s
    }
}

/// What a command's `run` gets besides its arguments.
public struct CommandContext: Sendable {
    /// The full command path (`enso loops verify`), for messages.
    public var commandPath: String
}

/// A command: help text, arguments, options, subcommands, and what it does.
public struct Command: Sendable {
    public var name: String
    /// One line: what it does.
    public var abstract: String
    /// Paragraphs shown after the overview (exit codes, examples).
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    public var subcommands: [Command]
    /// The exit codes the command uses and what each means, shown in its help and in the man page.
    public var exitCodes: [ExitCodeMeaning]
    /// What the command does; `nil` for a group that only holds subcommands.
    public var run: (@Sendable (ParsedArguments, CommandContext) throws -> ExitCode)?

    public init(
        name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], subcommands: [Command] = [], exitCodes: [ExitCodeMeaning] = [],
        run: (@Sendable (ParsedArguments, CommandContext) throws -> ExitCode)? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.exitCodes = exitCodes
        self.run = run
    }
}

/// One exit code of a command and what it means (`2`: some file could not be decoded).
public struct ExitCodeMeaning: Sendable, Equatable {
    public var code: Int32
    public var meaning: String

    public init(_ code: ExitCode, _ meaning: String) {
        self.code = code.rawValue
        self.meaning = meaning
    }

    /// Exit 64 as every command means it.
    public static let usage = ExitCodeMeaning(
        .usage, "Bad usage (an unknown option, a missing argument, a value out of range).")
}
