/// Help text in the house style: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS, aligned in a column and
/// wrapped to the terminal's width.
public enum HelpFormatter {
    static let column = 26
    /// Past this many options the usage line says `[<options>]` instead of listing each (the OPTIONS section
    /// lists them all).
    static let maxOptionsInUsage = 12

    /// The usage synopsis of the last command in `path`.
    public static func usage(for path: [Command]) -> String {
        let command = path.last!
        var parts = [path.map(\.name).joined(separator: " ")]
        if !command.subcommands.isEmpty && command.run == nil {
            parts.append("<subcommand>")
            return parts.joined(separator: " ")
        }
        if command.options.count > maxOptionsInUsage {
            parts.append("[<options>]")
        } else {
            for option in command.options { parts.append("[\(option.synopsis)]") }
        }
        for argument in command.arguments {
            parts.append(argument.synopsis)
        }
        return parts.joined(separator: " ")
    }

    /// The options the root command has besides its own: the tool's version and generators, and help.
    static func rootRows(isRoot: Bool) -> [(label: String, help: String)] {
        var rows: [(String, String)] = []
        if isRoot {
            rows.append(("--version", "Show the version."))
            rows.append(
                (
                    "--generate-completion-script <shell>",
                    "Print a completion script for \(CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", "))."
                ))
            rows.append(("--generate-manual", "Print the manual page (man(1) format) of every command."))
        }
        rows.append(("-h, --help", "Show help information."))
        return rows
    }

    /// The full help of the last command in `path`, wrapped to `width` columns.
    public static func help(for path: [Command], width: Int = Terminal.outputWidth) -> String {
        let command = path.last!
        var out = wrap("OVERVIEW: \(command.abstract)", width: width, indent: 2) + "\n"
        if !command.discussion.isEmpty {
            out += "\n" + reflow(command.discussion, width: width) + "\n"
        }
        out += "\n" + wrap("USAGE: \(usage(for: path))", width: width, indent: 7) + "\n"
        if !command.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for a in command.arguments { out += row("<\(a.name)>", a.help, width: width) }
        }
        out += "\nOPTIONS:\n"
        for o in command.options { out += row(o.helpLabel, o.helpText, width: width) }
        for r in rootRows(isRoot: path.count == 1) { out += row(r.label, r.help, width: width) }
        if !command.exitCodes.isEmpty {
            out += "\nEXIT CODES:\n"
            for e in command.exitCodes { out += row(String(e.code), e.meaning, width: width) }
        }
        if !command.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for s in command.subcommands { out += row(s.name, s.abstract, width: width) }
            out +=
                "\n  See '\(path.first!.name) help \(path.dropFirst().map { $0.name + " " }.joined())<subcommand>' for detailed help.\n"
        }
        return out.hasSuffix("\n") ? String(out.dropLast()) : out
    }

    private static func row(_ label: String, _ text: String, width: Int) -> String {
        let indent = String(repeating: " ", count: column)
        var out = "  " + label
        if out.count >= column {
            out += "\n" + indent
        } else {
            out += String(repeating: " ", count: column - out.count)
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let wrapped = lines.map { wrap(String($0), width: max(width - column, 20)) }.joined(separator: "\n")
        out += wrapped.replacingNewlines(with: "\n" + indent)
        return out + "\n"
    }

    /// `text` as it is when every line fits in `width`; otherwise each run of lines broken mid-sentence is joined
    /// and wrapped again. A line stays on its own when it is indented or blank, or when it starts with a capital
    /// after a line that ended a sentence (`.` or `:`), as "Exit codes: ..." does.
    static func reflow(_ text: String, width: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.contains(where: { $0.count > width }) else { return text }
        var joined: [String] = []
        for line in lines {
            if let last = joined.last, !last.isEmpty, !last.hasPrefix(" "), let first = line.first, first != " ",
                !((last.hasSuffix(".") || last.hasSuffix(":")) && first.isUppercase)
            {
                joined[joined.count - 1] = last + " " + line
            } else {
                joined.append(line)
            }
        }
        return joined.map { wrap($0, width: width) }.joined(separator: "\n")
    }

    /// `line` broken at spaces into lines of at most `width` characters (a longer word stays whole);
    /// continuation lines keep the line's own indentation plus `indent` spaces.
    static func wrap(_ line: String, width: Int, indent: Int = 0) -> String {
        guard line.count > width else { return line }
        let leading = String(line.prefix { $0 == " " })
        let continuation = leading + String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = leading
        for word in line.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false) {
            let atStart = current == leading || current == continuation
            if !atStart && current.count + 1 + word.count > width {
                lines.append(current)
                current = continuation + word
            } else {
                current += (atStart ? "" : " ") + word
            }
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func replacingNewlines(with separator: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: separator)
    }
}
