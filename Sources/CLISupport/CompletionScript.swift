/// Shell completion scripts derived from a tool's command specs: every command path, option, value set and
/// argument the parser knows, so a completion never drifts from what the tool accepts.
///
///     enso --generate-completion-script bash > /usr/share/bash-completion/completions/enso
///
/// What each word completes to: after a group, its subcommands; after `-`, the options of the command so far;
/// after an option that takes a value, its choices, a folder (`DIR`), a file (`FILE`, `OUTPUT`, ...), or nothing
/// (a number or duration); otherwise files when the command takes arguments. `tool help <TAB>` offers commands.
public enum CompletionScript {
    /// The shells a script can be generated for.
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The completion script of `root` for `shell`.
    public static func script(for root: Command, shell: Shell) -> String {
        switch shell {
        case .bash: bash(root)
        case .zsh: zsh(root)
        case .fish: fish(root)
        }
    }

    /// Every command path under `root`, the root first, each before its subcommands.
    static func paths(_ root: Command) -> [[Command]] {
        var out: [[Command]] = []
        func visit(_ path: [Command]) {
            out.append(path)
            for sub in path.last!.subcommands { visit(path + [sub]) }
        }
        visit([root])
        return out
    }

    /// The options a command path accepts besides its own: `-h/--help` everywhere, the tool's own at the root.
    static func builtInOptions(isRoot: Bool) -> [OptionSpec] {
        var options: [OptionSpec] = []
        if isRoot {
            options.append(.flag("version", help: "Show the version."))
            options.append(
                .value(
                    "generate-completion-script", valueName: "SHELL", help: "Print a completion script.",
                    choices: Shell.allCases.map(\.rawValue)))
            options.append(.flag("generate-manual", help: "Print the manual page."))
        }
        options.append(.flag("help", short: "h", help: "Show help information."))
        return options
    }

    /// A command's options, the built-in ones included.
    static func options(of path: [Command]) -> [OptionSpec] {
        path.last!.options + builtInOptions(isRoot: path.count == 1)
    }

    /// The subcommands a group offers (`help` too at the root), or none for a command that runs.
    static func subcommands(of path: [Command]) -> [(name: String, abstract: String)] {
        let command = path.last!
        guard command.run == nil else { return [] }
        var subs = command.subcommands.map { ($0.name, $0.abstract) }
        if path.count == 1 { subs.append(("help", "Show help for a command.")) }
        return subs
    }

    static func name(_ path: [Command]) -> String { path.map(\.name).joined(separator: " ") }

    /// The first sentence of `help` on one line, for shells that show a description beside each candidate.
    /// (A period ends the sentence only outside parentheses and not in an ellipsis or "e.g.".)
    static func summary(_ help: String) -> String {
        let line = help.split(separator: "\n").joined(separator: " ")
        var depth = 0
        var previous: Character = " "
        for (offset, c) in line.enumerated() {
            if c == "(" { depth += 1 }
            if c == ")" { depth -= 1 }
            let index = line.index(line.startIndex, offsetBy: offset)
            let next = line.index(after: index)
            if c == ".", depth == 0, previous != ".", next < line.endIndex, line[next] == " ",
                !line[..<index].hasSuffix("e.g"), !line[..<index].hasSuffix("i.e")
            {
                return String(line[...index])
            }
            previous = c
        }
        return line
    }
}
