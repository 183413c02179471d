/// Help text in the house style: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS, aligned in a column.
public enum HelpFormatter {
    static let column = 26

    /// The usage synopsis of the last command in `path`.
    public static func usage(for path: [Command]) -> String {
        let command = path.last!
        var parts = [path.map(\.name).joined(separator: " ")]
        if !command.subcommands.isEmpty && command.run == nil {
            parts.append("<subcommand>")
            return parts.joined(separator: " ")
        }
        for option in command.options {
            parts.append("[\(option.synopsis)]")
        }
        for argument in command.arguments {
            parts.append(argument.synopsis)
        }
        return parts.joined(separator: " ")
    }

    /// The full help of the last command in `path`.
    public static func help(for path: [Command]) -> String {
        let command = path.last!
        var out = "OVERVIEW: \(command.abstract)\n"
        if !command.discussion.isEmpty { out += "\n\(command.discussion)\n" }
        out += "\nUSAGE: \(usage(for: path))\n"
        if !command.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for a in command.arguments { out += row("<\(a.name)>", a.help) }
        }
        out += "\nOPTIONS:\n"
        for o in command.options { out += row(o.helpLabel, o.help) }
        if path.count == 1 { out += row("--version", "Show the version.") }
        out += row("-h, --help", "Show help information.")
        if !command.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for s in command.subcommands { out += row(s.name, s.abstract) }
            out += "\n  See '\(path.first!.name) help \(path.dropFirst().map { $0.name + " " }.joined())<subcommand>' for detailed help.\n"
        }
        return out.hasSuffix("\n") ? String(out.dropLast()) : out
    }

    private static func row(_ label: String, _ text: String) -> String {
        let indent = String(repeating: " ", count: column)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var out = "  " + label
        if out.count >= column {
            out += "\n" + indent
        } else {
            out += String(repeating: " ", count: column - out.count)
        }
        out += lines.first.map(String.init) ?? ""
        for line in lines.dropFirst() { out += "\n" + indent + line }
        return out + "\n"
    }
}
