/// A manual page in man(7) roff for a tool and every command under it, derived from the command specs (the
/// same text as `--help`, so the page never drifts from what the tool accepts).
///
///     enso --generate-manual > enso.1 && man -l enso.1
///
/// One page: NAME, SYNOPSIS, DESCRIPTION (the root's discussion), OPTIONS, then COMMANDS with a subsection per
/// command path (its abstract, discussion, usage, arguments and options), and SEE ALSO. The page carries no
/// date, so it is reproducible from the binary.
public enum ManualPage {
    /// A section the tool adds after COMMANDS (`ENVIRONMENT`, `FILES`): a title and paragraphs as in a discussion.
    public struct Section: Sendable {
        public var title: String
        public var body: String

        public init(_ title: String, _ body: String) {
            self.title = title
            self.body = body
        }
    }

    /// The page of `root` (section 1), headed with `version`, with `sections` before SEE ALSO.
    public static func page(for root: Command, version: String, sections: [Section] = []) -> String {
        var out: [String] = []
        out.append(".TH \(root.name.uppercased()) 1 \"\" \(quoted(version)) \"User Commands\"")
        out.append(".SH NAME")
        out.append("\(escape(root.name)) \\- \(escape(root.abstract))")
        out.append(".SH SYNOPSIS")
        out.append(".B \(escape(root.name))")
        out.append(".I subcommand")
        out.append(".RI [ options ]")
        out.append(".RI [ arguments ]")
        if !root.discussion.isEmpty {
            out.append(".SH DESCRIPTION")
            out += paragraphs(root.discussion)
        }
        out.append(".SH OPTIONS")
        for o in CompletionScript.builtInOptions(isRoot: true) { out += option(o) }
        out.append(".SH COMMANDS")
        for path in CompletionScript.paths(root).dropFirst() {
            let command = path.last!
            out.append(".SS \(quoted(path.map(\.name).joined(separator: " ")))")
            out += paragraphs(command.abstract)
            if !command.discussion.isEmpty { out += paragraphs(command.discussion) }
            out.append(".PP")
            out.append(".B Usage:")
            out.append(escape(HelpFormatter.usage(for: path)))
            for a in command.arguments {
                out.append(".TP")
                out.append(".I \(escape("<\(a.name)>"))")
                out += text(a.help)
            }
            for o in command.options + (command.run == nil ? [] : CompletionScript.builtInOptions(isRoot: false)) {
                out += option(o)
            }
            if !command.exitCodes.isEmpty {
                out.append(".PP")
                out.append(".B Exit codes:")
                for e in command.exitCodes {
                    out.append(".TP")
                    out.append(".B \(e.code)")
                    out += text(e.meaning)
                }
            }
            if command.run == nil {
                out.append(".PP")
                out.append("Subcommands: \(escape(command.subcommands.map(\.name).joined(separator: ", "))).")
            }
        }
        for section in sections {
            out.append(".SH \(quoted(section.title.uppercased()))")
            out += paragraphs(section.body)
        }
        out.append(".SH SEE ALSO")
        out.append("\(escape("\(root.name) help <command>")), \(escape("\(root.name) <command> --help")).")
        return out.joined(separator: "\n")
    }

    /// A `.TP` entry: the option's label in bold (its value in italics), then its help.
    private static func option(_ o: OptionSpec) -> [String] {
        var label = o.short.map { "\\fB\\-\(escape(String($0)))\\fR, " } ?? ""
        label += "\\fB\\-\\-\(escape(o.name))\\fR"
        if let v = o.valueName { label += " \\fI\(escape(v.lowercased()))\\fR" }
        var help = o.helpText
        if !o.choices.isEmpty && !help.contains(o.choices[0]) {
            help += " One of: \(o.choices.joined(separator: ", "))."
        }
        return [".TP", label] + text(help)
    }

    /// Paragraphs separated by blank lines become `.PP` blocks; an indented line stays on a line of its own.
    private static func paragraphs(_ body: String) -> [String] {
        var out = [".PP"]
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " }) {
                if out.last != ".PP" { out.append(".PP") }
            } else {
                if line.first == " " { out.append(".br") }
                out.append(escape(line.drop { $0 == " " }.description))
            }
        }
        return out
    }

    /// Help text as roff lines (filled by the formatter).
    private static func text(_ body: String) -> [String] {
        body.split(separator: "\n").map { escape($0.drop { $0 == " " }.description) }
    }

    /// `text` safe as a roff text line: backslashes and hyphens escaped, a leading `.` or `'` guarded.
    static func escape(_ text: String) -> String {
        var out = text.replacingAll(["\\": "\\e", "-": "\\-"])
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    private static func quoted(_ text: String) -> String {
        "\"" + escape(text).replacingAll(["\"": "\\(dq"]) + "\""
    }
}
