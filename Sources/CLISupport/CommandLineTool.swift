#if canImport(Glibc)
    import Glibc
#endif

/// A command-line tool: parses `arguments`, prints help and errors in the house style, runs the
/// chosen command and returns its exit code.
///
/// Conventions (swift-argument-parser's): `tool <subcommand> [options] <args>`, `-h/--help`,
/// `tool help <subcommand>`, `--version`, usage errors to stderr with exit 64.
public struct CommandLineTool: Sendable {
    public var root: Command
    public var version: String
    /// Sections `--generate-manual` adds after the commands (environment, files).
    public var manualSections: [ManualPage.Section]

    public init(root: Command, version: String, manualSections: [ManualPage.Section] = []) {
        self.root = root
        self.version = version
        self.manualSections = manualSections
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    public func run(_ arguments: [String]) -> Int32 {
        var path = [root]
        var rest = arguments[...]
        if let first = rest.first, let option = RootOption(argument: first) {
            return runRootOption(option, value: RootOption.value(of: first, after: rest.dropFirst()))
        }
        // `tool help a b` → help for `tool a b`.
        if rest.first == "help" {
            rest = rest.dropFirst()
            var cmd = root
            var p = [root]
            for word in rest {
                guard let sub = cmd.subcommands.first(where: { $0.name == word }) else {
                    return usageFailure(unknownCommand(word, in: cmd), path: p)
                }
                cmd = sub
                p.append(sub)
            }
            Terminal.out(HelpFormatter.help(for: p))
            return 0
        }
        while let word = rest.first, let sub = path.last!.subcommands.first(where: { $0.name == word }) {
            path.append(sub)
            rest = rest.dropFirst()
        }
        let command = path.last!
        if rest.contains("-h") || rest.contains("--help") {
            Terminal.out(HelpFormatter.help(for: path))
            return 0
        }
        guard let run = command.run else {
            if let word = rest.first {
                if word.hasPrefix("--") {
                    let name = String(word.dropFirst(2).prefix { $0 != "=" })
                    let extra = path.count == 1 ? RootOption.allCases.map(\.rawValue) : []
                    return usageFailure(ArgumentParser.unknownOption(name, of: command, also: extra), path: path)
                }
                return usageFailure(unknownCommand(word, in: command), path: path)
            }
            Terminal.err(HelpFormatter.help(for: path))
            return ExitCode.usage.rawValue
        }
        // A command with --json, asked for JSON: its errors are also the error object on stdout (docs/cli.md).
        let json = command.options.contains { $0.name == "json" && $0.isFlag } && rest.contains("--json")
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(Array(rest), for: command)
        } catch let e as UsageError {
            return usageFailure(e, path: path, json: json)
        } catch {
            return usageFailure(UsageError("\(error)"), path: path, json: json)
        }
        let context = CommandContext(commandPath: path.map(\.name).joined(separator: " "))
        let code = runCommand(run, parsed, context, path: path, json: json)
        // A reader that stopped early (`| head -c 10`) is not an error: no message, as sox and cat print none.
        return Terminal.readerStopped ? ExitCode.readerStopped.rawValue : code
    }

    /// Runs `run` and turns what it throws into the house-style message and exit code.
    private func runCommand(
        _ run: @Sendable (ParsedArguments, CommandContext) throws -> ExitCode, _ parsed: ParsedArguments,
        _ context: CommandContext, path: [Command], json: Bool
    ) -> Int32 {
        do {
            return try run(parsed, context).rawValue
        } catch _ where Terminal.readerStopped {
            return ExitCode.readerStopped.rawValue
        } catch let e as UsageError {
            return usageFailure(e, path: path, json: json)
        } catch let e as CommandFailure {
            Terminal.err("Error: \(e.message)")
            if json { JSONOutput.printError(e.errorObject) }
            return e.exitCode.rawValue
        } catch let e as ExitCode {
            return e.rawValue
        } catch {
            Terminal.err("Error: \(error)")
            if json { JSONOutput.printError(ErrorObject(code: ErrorObject.failureCode, message: "\(error)")) }
            return ExitCode.failure.rawValue
        }
    }

    /// The options of the tool itself, given first: `--version`, `--generate-completion-script <shell>`,
    /// `--generate-manual`.
    enum RootOption: String, CaseIterable {
        case version
        case generateCompletionScript = "generate-completion-script"
        case generateManual = "generate-manual"

        init?(argument: String) {
            guard argument.hasPrefix("--") else { return nil }
            self.init(rawValue: String(argument.dropFirst(2).prefix { $0 != "=" }))
        }

        /// The value of `--name=value` or `--name value`.
        static func value(of argument: String, after rest: ArraySlice<String>) -> String? {
            if let eq = argument.firstIndex(of: "=") { return String(argument[argument.index(after: eq)...]) }
            return rest.first
        }
    }

    private func runRootOption(_ option: RootOption, value: String?) -> Int32 {
        switch option {
        case .version:
            Terminal.out(version)
        case .generateCompletionScript:
            let shells = CompletionScript.Shell.allCases.map(\.rawValue)
            guard let value, let shell = CompletionScript.Shell(rawValue: value) else {
                let given = value.map { "'\($0)' is not one of" } ?? "missing value; one of"
                return usageFailure(
                    UsageError("--generate-completion-script: \(given) \(shells.joined(separator: ", "))"), path: [root]
                )
            }
            Terminal.out(CompletionScript.script(for: root, shell: shell))
        case .generateManual:
            Terminal.out(ManualPage.page(for: root, version: version, sections: manualSections))
        }
        return ExitCode.success.rawValue
    }

    /// Runs with the process's arguments and exits.
    public func main() -> Never {
        // A closed stdout is an EPIPE the writers see (and ``Terminal`` notes), not a SIGPIPE that kills the
        // process before it removes its temporary files.
        signal(SIGPIPE, SIG_IGN)
        let code = run(Array(CommandLine.arguments.dropFirst()))
        Terminal.flush()
        exit(code)
    }

    /// The error for `word` that is not a subcommand of `command`, with the nearest one that is.
    private func unknownCommand(_ word: String, in command: Command) -> UsageError {
        let hint = Suggestion.closest(to: word, among: command.subcommands.map(\.name)).map {
            "; did you mean '\($0)'?"
        }
        return UsageError("unknown command '\(word)'\(hint ?? "")")
    }

    private func usageFailure(_ error: UsageError, path: [Command], json: Bool = false) -> Int32 {
        if json { JSONOutput.printError(ErrorObject(code: ErrorObject.usageCode, message: error.message)) }
        var text = "Error: \(error.message)\n"
        if let help = error.help { text += "Help:  \(help)\n" }
        text += "Usage: \(HelpFormatter.usage(for: path))\n"
        text += "  See '\(path.map(\.name).joined(separator: " ")) --help' for more information."
        Terminal.err(text)
        return ExitCode.usage.rawValue
    }
}
