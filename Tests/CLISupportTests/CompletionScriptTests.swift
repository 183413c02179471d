import Testing

@testable import CLISupport

@Suite struct CompletionSummaryTests {
    @Test func theFirstSentenceOutsideParenthesesAndEllipses() {
        #expect(
            CompletionScript.summary("Sitting per cycle: 20m or seconds (1 s ... 24 h). More.")
                == "Sitting per cycle: 20m or seconds (1 s ... 24 h).")
        #expect(
            CompletionScript.summary("Switch the theme (e.g. 1m=rain). Repeatable.")
                == "Switch the theme (e.g. 1m=rain).")
        #expect(CompletionScript.summary("Rate 1000...768000.") == "Rate 1000...768000.")
        #expect(CompletionScript.summary("Use e.g. rain. Then more.") == "Use e.g. rain.")
        #expect(CompletionScript.summary("One line\nand the next") == "One line and the next")
    }
}

/// An option whose values the tool prints at completion time (`valuesFrom`): each shell runs the tool for them and
/// offers files too; the choices of an option still win.
@Suite struct CompletionToolValuesTests {
    static let root = Command(
        name: "tool", abstract: "A tool.",
        subcommands: [
            Command(
                name: "play", abstract: "Play.",
                options: [
                    .value("bell", valueName: "ID|FILE", help: "The bell.", valuesFrom: ["ids", "--kind", "bell"])
                ], run: { _, _ in .success })
        ])

    @Test func theKindIsTheToolsValuesAndFiles() {
        let bell = OptionSpec.value("bell", valueName: "ID|FILE", help: "", valuesFrom: ["ids"])
        #expect(bell.valueKind == .toolValuesOrFile(["ids"], afterEquals: false))
        let theme = OptionSpec.value("theme-at", valueName: "TIME=ID|FILE", help: "", valuesFrom: ["ids"])
        #expect(theme.valueKind == .toolValuesOrFile(["ids"], afterEquals: true))
        #expect(OptionSpec.value("bell", valueName: "ID|FILE", help: "").valueKind == .file)
        let both = OptionSpec.value("x", valueName: "X", help: "", choices: ["a"], valuesFrom: ["ids"])
        #expect(both.valueKind == .choices(["a"]))
    }

    @Test func eachShellRunsTheToolForTheValues() {
        let bash = CompletionScript.script(for: Self.root, shell: .bash)
        #expect(bash.contains("'tool play --bell') _tool_values 'ids' '--kind' 'bell'; return ;;"), "\(bash)")
        #expect(bash.contains("2>/dev/null"))
        let zsh = CompletionScript.script(for: Self.root, shell: .zsh)
        #expect(zsh.contains("'--bell[The bell.]:id|file:{_tool_values ids --kind bell}'"), "\(zsh)")
        let fish = CompletionScript.script(for: Self.root, shell: .fish)
        #expect(fish.contains("-l bell -r -F -a '(__tool_values ids --kind bell)'"), "\(fish)")
    }
}
