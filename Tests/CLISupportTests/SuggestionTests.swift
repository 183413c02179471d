import Testing

@testable import CLISupport

@Suite struct SuggestionTests {
    @Test func nearNamesAreSuggestedFarOnesAreNot() {
        #expect(Suggestion.closest(to: "jsno", among: ["json", "csv"]) == "json")  // a swap is one edit
        #expect(Suggestion.closest(to: "jason", among: ["json", "csv"]) == "json")
        #expect(Suggestion.closest(to: "verfy", among: ["verify", "find", "bake"]) == "verify")
        #expect(Suggestion.closest(to: "rendr", among: ["render", "plan"]) == "render")
        #expect(Suggestion.closest(to: "xyz", among: ["json", "csv"]) == nil)
        #expect(Suggestion.closest(to: "ab", among: ["cd"]) == nil)  // never the whole word
        #expect(Suggestion.closest(to: "json", among: ["json"]) == nil)  // nothing to correct
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("", "abc") == 3)
    }

    @Test func unknownOptionNamesTheNearestOne() {
        let command = Command(
            name: "t", abstract: "test",
            options: [.flag("json", help: "JSON."), .value("rate", valueName: "HZ", help: "Rate.")])
        do {
            _ = try ArgumentParser.parse(["--jsno"], for: command)
            Issue.record("--jsno was accepted")
        } catch let e as UsageError {
            #expect(e.message == "unknown option '--jsno'; did you mean '--json'?")
        } catch {
            Issue.record("\(error)")
        }
        #expect((try? ArgumentParser.parse(["--zzzzzz"], for: command)) == nil)
    }

    @Test func unknownCommandNamesTheNearestOne() {
        let leaf = Command(name: "render", abstract: "r", run: { _, _ in .success })
        let tool = CommandLineTool(root: Command(name: "t", abstract: "t", subcommands: [leaf]), version: "t 1")
        // The message goes to stderr; the exit code is the usage code either way, and the suggestion is checked
        // end to end in EnsoCLITests (HelpTests).
        #expect(tool.run(["rendr"]) == 64)
        #expect(tool.run(["render"]) == 0)
    }
}
