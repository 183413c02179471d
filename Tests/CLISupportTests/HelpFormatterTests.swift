import Testing

@testable import CLISupport

@Suite struct HelpFormatterTests {
    static func command(options: Int) -> Command {
        Command(
            name: "run", abstract: "Runs.", arguments: [ArgumentSpec("file", help: "A file.")],
            options: (0..<options).map { .flag("flag\($0)", help: "Flag \($0).") }, run: { _, _ in .success })
    }

    @Test func usageListsUpToADozenOptionsThenSaysOptions() {
        let root = Command(name: "t", abstract: "t")
        #expect(HelpFormatter.usage(for: [root, Self.command(options: 12)]).contains("[--flag11]"))
        #expect(HelpFormatter.usage(for: [root, Self.command(options: 13)]) == "t run [<options>] <file>")
        // The options are all still listed in the help.
        #expect(HelpFormatter.help(for: [root, Self.command(options: 13)], width: 80).contains("--flag12"))
    }

    @Test func helpIsWrappedToTheWidth() {
        let long = (0..<40).map { "word\($0)" }.joined(separator: " ")
        let root = Command(
            name: "t", abstract: long, discussion: long + "\n    indented " + long,
            options: [.flag("json", help: long)], run: { _, _ in .success })
        for width in [50, 80, 120] {
            let help = HelpFormatter.help(for: [root], width: width)
            let widest = help.split(separator: "\n").map(\.count).max() ?? 0
            #expect(widest <= width, "a line of \(widest) columns at width \(width)")
            // No word is lost or split.
            #expect(help.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter { $0 == "word39" }.count == 4)
        }
        // Option help continues in its column; an indented line keeps its indentation.
        let help = HelpFormatter.help(for: [root], width: 60)
        #expect(help.contains("\n" + String(repeating: " ", count: HelpFormatter.column) + "word"))
        #expect(help.contains("\n    indented word0"))
        #expect(HelpFormatter.wrap("a b c", width: 80) == "a b c")
        #expect(HelpFormatter.wrap("  aaa bbb ccc", width: 8) == "  aaa\n  bbb\n  ccc")
    }
}
