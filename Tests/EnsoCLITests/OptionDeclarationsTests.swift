import AudioTestSupport
import Foundation
import Testing

/// Every option of every command comes from one declaration (issue 44 §8): the range a command's help shows is the
/// one its parser enforces, and commands read their options through declarations rather than by string.
@Suite("options declared once")
struct OptionDeclarationsTests {
    /// Ranges still shown in help but checked by the command's own code after parsing (not yet declared with
    /// `Option`): each is still checked with the same range by the command, later. This list may only shrink.
    static let notYetDeclared: Set<String> = []

    static let wide = ["COLUMNS": "10000"]

    /// A command path's help, one line per option row.
    static func help(_ path: [String]) throws -> String {
        let r = try ToolRunner.run("enso", ["help"] + path, environment: wide)
        #expect(r.exitCode == 0, "\(path): \(r.stderr)")
        return r.stdout
    }

    /// Every command path that runs (`bells audition`), from the manual page.
    static func commandPaths() throws -> [[String]] {
        let page = try ToolRunner.run("enso", ["--generate-manual"]).stdout
        return page.split(separator: "\n").filter { $0.hasPrefix(".SS ") }.map { line in
            line.dropFirst(4).replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: "\\-", with: "-")
                .split(separator: " ").dropFirst().map(String.init)
        }
    }

    /// The (long name, help) of each option row in `help`.
    static func optionRows(_ help: String) -> [(name: String, help: String)] {
        guard let start = help.range(of: "\nOPTIONS:\n") else { return [] }
        let lines = help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        var rows: [(String, String)] = []
        for (i, line) in lines.enumerated() {
            if line.isEmpty { break }
            guard line.hasPrefix("  -"), let long = line.range(of: "--") else { continue }
            let name = line[long.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            // The label ends at the first double space; a long label's help is on the next line.
            let body = line.dropFirst(2)
            let text =
                body.range(of: "  ").map { body[$0.upperBound...].trimmingCharacters(in: .whitespaces) }
                ?? (i + 1 < lines.count ? lines[i + 1].trimmingCharacters(in: .whitespaces) : "")
            rows.append((String(name), text))
        }
        return rows
    }

    /// Positionals that make the parse end in a usage error of its own once the options are read (so no command
    /// really runs): none when an argument is required, one too many when none is; `nil` when a variadic optional
    /// argument takes any number.
    static func forcingPositionals(usage: String) -> [String]? {
        // The words after the command path; an option's value (`[--assets <dir>]`) is not an argument.
        var words: [Substring] = []
        var isValue = false
        for word in usage.split(separator: " ").dropFirst() {
            defer { isValue = (word.hasPrefix("--") || word.hasPrefix("[--")) && !word.hasSuffix("]") }
            if isValue || word == "[<options>]" || word.hasPrefix("--") || word.hasPrefix("[--") { continue }
            if word.hasPrefix("<") || word.hasPrefix("[<") || word.hasPrefix("...") { words.append(word) }
        }
        let arguments = words.filter { $0.contains("<") }
        if arguments.contains(where: { $0.hasPrefix("<") }) { return [] }
        if words.contains(where: { $0.contains("...") }) { return nil }
        return Array(repeating: "unexpected", count: arguments.count + 1)
    }

    @Test func everyRangeInHelpIsTheParsersRange() throws {
        var refusedLate: Set<String> = []
        var checked = 0
        let range = try NSRegularExpression(pattern: #"\((-?\d+(?:\.\d+)?)\.\.\.(-?\d+(?:\.\d+)?)[,)]"#)
        for path in try Self.commandPaths() {
            let help = try Self.help(path)
            guard let usage = help.split(separator: "\n").first(where: { $0.hasPrefix("USAGE: ") }),
                !usage.hasSuffix("<subcommand>"), let positionals = Self.forcingPositionals(usage: String(usage))
            else { continue }
            for row in Self.optionRows(help) {
                let text = row.help as NSString
                guard let m = range.firstMatch(in: row.help, range: NSRange(location: 0, length: text.length)) else {
                    continue
                }
                let (low, high) = (text.substring(with: m.range(at: 1)), text.substring(with: m.range(at: 2)))
                let whole = !low.contains(".") && !high.contains(".")
                let step = whole ? 1.0 : 0.01
                func shown(_ v: Double) -> String { whole ? String(Int(v)) : String(format: "%g", v) }
                let label = "enso \(path.joined(separator: " ")) --\(row.name)"
                checked += 1
                for (value, accepted) in [
                    (low, true), (high, true), (shown(Double(low)! - step), false),
                    (shown(Double(high)! + step), false),
                ] {
                    let r = try ToolRunner.run(
                        "enso", path + ["--\(row.name)=\(value)"] + positionals, environment: Self.wide)
                    #expect(r.exitCode == 64, "\(label)=\(value): \(r.stderr)")
                    let refused = r.stderr.contains("Error: --\(row.name) \(value) is outside \(low)...\(high)")
                    if accepted {
                        #expect(!refused && !r.stderr.contains("is outside"), "\(label)=\(value): \(r.stderr)")
                    } else if !refused {
                        refusedLate.insert(label)
                    }
                }
            }
        }
        #expect(checked > 10, "found only \(checked) ranged options")
        #expect(
            refusedLate.subtracting(Self.notYetDeclared).isEmpty,
            "ranges in help the parser does not enforce: \(refusedLate.subtracting(Self.notYetDeclared).sorted())")
        #expect(
            Self.notYetDeclared.subtracting(refusedLate).isEmpty,
            "now declared (drop from notYetDeclared): \(Self.notYetDeclared.subtracting(refusedLate).sorted())")
        print("options declared once: \(checked) ranged options, \(refusedLate.count) not yet declared")
    }

    /// No command reads an option back by its name: every read goes through the option's declaration
    /// (`args.value(of: BellsOptions.top)`, `args[BellsOptions.json]`), not a string (`args.value("top")`), nor a
    /// name taken from elsewhere (`args.value(field.option)`, `args.value(option.spec.name)`).
    @Test func noOptionIsReadByString() throws {
        let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/enso")
        let files = try FileManager.default.contentsOfDirectory(atPath: tools.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20, "found only \(files.count) files in \(tools.path)")
        let read = try NSRegularExpression(
            pattern: #"\bargs\.(value|int|double|flag|has|choice|allValues)\(\s*("|[\w.]*\.(spec\.name|option)\b)"#)
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: tools.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                if read.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    found.append("\(file):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "options read by string:\n\(found.joined(separator: "\n"))")
    }
}
