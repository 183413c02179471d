import CLISupport
import Testing

@Suite struct DurationParserTests {
    @Test(arguments: [
        ("20m", 1200.0), ("90s", 90.0), ("1h30m", 5400.0), ("45", 45.0), ("1.5s", 1.5), ("250ms", 0.25),
        ("1h", 3600.0), ("2m30s", 150.0),
    ])
    func parses(_ text: String, _ seconds: Double) {
        #expect(DurationParser.seconds(text) == seconds)
    }

    @Test(arguments: ["", "m", "20x", "1h-3m", "abc", "1..5s"])
    func rejects(_ text: String) {
        #expect(DurationParser.seconds(text) == nil)
    }

    @Test func formats() {
        #expect(DurationParser.format(4.5) == "4.5s")
        #expect(DurationParser.format(125) == "2m05s")
        #expect(DurationParser.format(3723) == "1h02m03s")
    }
}
