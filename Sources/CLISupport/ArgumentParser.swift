/// Splits a command's arguments into flags, option values and positionals, checking them against its spec.
enum ArgumentParser {
    static func parse(_ args: [String], for command: Command) throws -> ParsedArguments {
        var result = ParsedArguments()
        var i = 0
        var onlyPositionals = false
        func spec(long: String) -> OptionSpec? { command.options.first { $0.name == long } }
        func spec(short: Character) -> OptionSpec? { command.options.first { $0.short == short } }

        func store(_ option: OptionSpec, value: String?, as given: String) throws {
            if option.isFlag {
                if value != nil { throw UsageError("\(given) does not take a value") }
                result.flags.insert(option.name)
                return
            }
            guard let value else {
                throw UsageError("missing value for '\(given) <\(option.valueName!.lowercased())>'")
            }
            if !option.repeatable, result.values[option.name] != nil {
                throw UsageError("\(given) was given more than once")
            }
            try option.validate?(value)
            result.values[option.name, default: []].append(value)
        }

        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") || isNegativeNumber(arg) {
                result.positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                let name: String
                var inline: String?
                if let eq = body.firstIndex(of: "=") {
                    name = String(body[..<eq])
                    inline = String(body[body.index(after: eq)...])
                } else {
                    name = String(body)
                }
                guard let option = spec(long: name) else { throw unknownOption(name, of: command) }
                if !option.isFlag && inline == nil {
                    guard i < args.count else {
                        throw UsageError("missing value for '--\(name) <\(option.valueName!.lowercased())>'")
                    }
                    inline = args[i]
                    i += 1
                }
                try store(option, value: inline, as: "--\(name)")
            } else {
                let letters = Array(arg.dropFirst())
                for (k, letter) in letters.enumerated() {
                    guard let option = spec(short: letter) else { throw UsageError("unknown option '-\(letter)'") }
                    if option.isFlag {
                        try store(option, value: nil, as: "-\(letter)")
                    } else {
                        var value = String(letters[(k + 1)...])
                        if value.isEmpty {
                            guard i < args.count else { throw UsageError("missing value for '-\(letter)'") }
                            value = args[i]
                            i += 1
                        }
                        try store(option, value: value, as: "-\(letter)")
                        break
                    }
                }
            }
        }
        try checkPositionals(result.positionals, for: command)
        return result
    }

    /// The error for `--name` that `command` does not have, with the nearest option it does have.
    static func unknownOption(_ name: String, of command: Command, also extra: [String] = []) -> UsageError {
        let known = command.options.map(\.name) + ["help"] + extra
        let hint = Suggestion.closest(to: name, among: known).map { "; did you mean '--\($0)'?" } ?? ""
        return UsageError("unknown option '--\(name)'\(hint)")
    }

    private static func isNegativeNumber(_ s: String) -> Bool {
        s.count > 1 && s.hasPrefix("-") && Double(s) != nil
    }

    private static func checkPositionals(_ given: [String], for command: Command) throws {
        let required = command.arguments.filter { !$0.isOptional }
        if given.count < required.count {
            let missing = required[given.count]
            throw UsageError("missing expected argument '<\(missing.name)>'", help: missing.help)
        }
        let variadic = command.arguments.contains { $0.isVariadic }
        if !variadic && given.count > command.arguments.count {
            throw UsageError("unexpected argument '\(given[command.arguments.count])'")
        }
    }
}
