import AudioTestSupport
import Foundation
import Testing

/// Every command's exit codes are data (issue 44 §8): each command `enso --generate-manual` lists shows them under
/// EXIT CODES in its help and in `enso(1)`, a known failure exits with a code its help lists, and docs/cli.md's
/// table of exit codes says the same as the commands.
@Suite("exit codes declared")
struct ExitCodeDeclarationsTests {
    /// The codes under EXIT CODES in `help` (each row starts `  CODE  meaning`), in order.
    static func exitCodes(_ help: String) -> [Int32] {
        guard let start = help.range(of: "\nEXIT CODES:\n") else { return [] }
        var codes: [Int32] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty || !line.hasPrefix("  ") { break }
            let word = line.dropFirst(2).prefix { $0.isNumber }
            if let code = Int32(word), !word.isEmpty { codes.append(code) }
        }
        return codes
    }

    /// The codes of every command that runs (`["sessions", "list"]`; not a group such as `sessions`), from its help.
    static func declaredCodes() throws -> [[String]: [Int32]] {
        var codes: [[String]: [Int32]] = [:]
        for path in try OptionDeclarationsTests.commandPaths() {
            let help = try OptionDeclarationsTests.help(path)
            guard let usage = help.split(separator: "\n").first(where: { $0.hasPrefix("USAGE: ") }),
                !usage.hasSuffix("<subcommand>")
            else { continue }
            codes[path] = exitCodes(help)
        }
        return codes
    }

    @Test func everyCommandListsItsExitCodes() throws {
        let codes = try Self.declaredCodes()
        #expect(codes.count > 25, "found only \(codes.count) commands in the manual")
        for (path, list) in codes.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let label = "enso \(path.joined(separator: " "))"
            #expect(!list.isEmpty, "\(label): its help has no EXIT CODES section")
            #expect(list.first == 0 && list.contains(64), "\(label): \(list) does not list 0 and 64")
            #expect(list == list.sorted() && Set(list).count == list.count, "\(label): \(list) not in order")
            let help = try OptionDeclarationsTests.help(path)
            let overview = help.components(separatedBy: "\nUSAGE:").first ?? ""
            #expect(!overview.contains("Exit codes:"), "\(label): the discussion still words its exit codes")
        }
        let page = try ToolRunner.run("enso", ["--generate-manual"]).stdout
        let listed = page.components(separatedBy: "\n.B Exit codes:\n").count - 1
        #expect(listed == codes.count, "enso(1): \(listed) of \(codes.count) commands list their exit codes")
    }

    /// A failure each command is known to meet, and the code it exits with: listed in its help.
    @Test func knownFailuresExitWithAListedCode() throws {
        let missing = "/nonexistent/enso-exit-codes"
        let cases: [(path: [String], arguments: [String], code: Int32)] = [
            (["sessions", "list"], ["--journal", "\(missing)/x.jsonl"], 2),
            (["sessions", "stats"], ["--journal", "\(missing)/x.jsonl"], 2),
            (["render"], [], 64),
            (["render"], ["-o", "x.wav", "--format", "aiff"], 64),
            (["info"], ["\(missing).wav"], 2),
            (["convert"], ["\(missing).wav", "/tmp/enso-exit-codes-out.wav"], 2),
            (["loops", "bake"], ["\(missing).wav", "/tmp/enso-exit-codes-out.wav"], 2),
            (["assets", "list"], [missing], 2),
            (["assets", "check"], [missing], 2),
            (["assets", "add"], ["\(missing).wav"], 64),
            (["bells", "similar"], ["\(missing).wav", "\(missing)-2.wav"], 2),
            (["plan"], ["--volume", "1.5"], 64),
        ]
        let codes = try Self.declaredCodes()
        for c in cases {
            let label = "enso \((c.path + c.arguments).joined(separator: " "))"
            let r = try ToolRunner.run("enso", c.path + c.arguments, environment: ["ENSO_ASSETS": ""])
            #expect(r.exitCode == c.code, "\(label): exit \(r.exitCode), expected \(c.code): \(r.stderr)")
            #expect(
                codes[c.path]?.contains(r.exitCode) == true,
                "\(label) exits \(r.exitCode), which its help does not list: \(codes[c.path] ?? [])")
        }
    }

    /// docs/cli.md's table "Exit codes by command": one row per command, its codes as its help lists them.
    @Test func docsTableAgreesWithTheCommands() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/cli.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        var documented: [[String]: [Int32]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `enso ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, cells[1].allSatisfy({ $0.isNumber || $0 == "," || $0 == " " }) else { continue }
            let path = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")).split(separator: " ")
                .dropFirst().map(String.init)
            documented[path] = cells[1].split(separator: ",").compactMap {
                Int32($0.trimmingCharacters(in: .whitespaces))
            }
        }
        let declared = try Self.declaredCodes()
        for (path, codes) in declared {
            #expect(
                documented[path] == codes,
                "docs/cli.md: enso \(path.joined(separator: " ")) is \(documented[path].map { "\($0)" } ?? "missing"), the command lists \(codes)"
            )
        }
        let extra = Set(documented.keys).subtracting(declared.keys)
        #expect(extra.isEmpty, "docs/cli.md lists commands that do not exist: \(extra)")
    }
}
