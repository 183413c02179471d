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

    public init(root: Command, version: String) {
        self.root = root
        self.version = version
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    public func run(_ arguments: [String]) -> Int32 {
        var path = [root]
        var rest = arguments[...]
        if rest.first == "--version" {
            Terminal.out(version)
            return 0
        }
        // `tool help a b` → help for `tool a b`.
        if rest.first == "help" {
            rest = rest.dropFirst()
            var cmd = root
            var p = [root]
            for word in rest {
                guard let sub = cmd.subcommands.first(where: { $0.name == word }) else {
                    return usageFailure(UsageError("unknown command '\(word)'"), path: p)
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
                return usageFailure(UsageError("unknown command '\(word)'"), path: path)
            }
            Terminal.err(HelpFormatter.help(for: path))
            return ExitCode.usage.rawValue
        }
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(Array(rest), for: command)
        } catch let e as UsageError {
            return usageFailure(e, path: path)
        } catch {
            return usageFailure(UsageError("\(error)"), path: path)
        }
        let context = CommandContext(commandPath: path.map(\.name).joined(separator: " "))
        do {
            return try run(parsed, context).rawValue
        } catch let e as UsageError {
            return usageFailure(e, path: path)
        } catch let e as CommandFailure {
            Terminal.err("Error: \(e.message)")
            return e.exitCode.rawValue
        } catch let e as ExitCode {
            return e.rawValue
        } catch {
            Terminal.err("Error: \(error)")
            return ExitCode.failure.rawValue
        }
    }

    /// Runs with the process's arguments and exits.
    public func main() -> Never {
        let code = run(Array(CommandLine.arguments.dropFirst()))
        Terminal.flush()
        exit(code)
    }

    private func usageFailure(_ error: UsageError, path: [Command]) -> Int32 {
        var text = "Error: \(error.message)\n"
        if let help = error.help { text += "Help:  \(help)\n" }
        text += "Usage: \(HelpFormatter.usage(for: path))\n"
        text += "  See '\(path.map(\.name).joined(separator: " ")) --help' for more information."
        Terminal.err(text)
        return ExitCode.usage.rawValue
    }
}
