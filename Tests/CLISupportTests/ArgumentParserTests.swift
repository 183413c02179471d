import Testing

@testable import CLISupport

@Suite struct ArgumentParserTests {
    let command = Command(
        name: "t", abstract: "test",
        arguments: [ArgumentSpec("file", help: "Files.", variadic: true)],
        options: [
            .flag("json", help: "JSON."),
            .value("rate", short: "r", valueName: "HZ", help: "Rate."),
            .value("tag", valueName: "T", help: "Tag.", repeatable: true),
        ])

    @Test func parsesFlagsValuesAndPositionals() throws {
        let p = try ArgumentParser.parse(
            ["a.wav", "--json", "--rate", "48000", "--tag=x", "--tag", "y", "b"], for: command)
        #expect(p.flag("json"))
        #expect(p.positionals == ["a.wav", "b"])
        #expect(p.allValues("tag") == ["x", "y"])
        #expect(try ArgumentParser.parse(["a", "-r44100"], for: command).value("rate") == "44100")
        #expect(throws: UsageError.self) {
            try ArgumentParser.parse(["a", "--rate", "1", "--rate", "2"], for: command)
        }
    }

    @Test func rejectsUnknownOptionsAndMissingValues() {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["a", "--nope"], for: command) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["a", "--rate"], for: command) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse([], for: command) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["a", "--json=1"], for: command) }
    }

    @Test func negativeNumbersArePositionalsOrValues() throws {
        let p = try ArgumentParser.parse(["--rate", "-5", "-3"], for: command)
        #expect(p.value("rate") == "-5")
        #expect(p.positionals == ["-3"])
    }

    @Test func rangeChecksNameTheOption() throws {
        let p = try ArgumentParser.parse(["a", "--rate", "900000"], for: command)
        do {
            _ = try p.int("rate", in: 1000...768_000)
            Issue.record("expected a usage error")
        } catch let e as UsageError {
            #expect(e.message.contains("--rate"))
            #expect(e.message.contains("1000...768000"))
        }
    }
}
