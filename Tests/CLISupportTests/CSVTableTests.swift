import Testing

@testable import CLISupport

/// The one CSV writer of the CLI (docs/cli.md): RFC 4180 quoting, camelCase headers.
@Suite struct CSVTableTests {
    @Test func csvQuotesWhatItMustAndRefusesOtherCases() {
        var table = CSVTable(headers: ["file", "satSeconds", "d40"])
        table.append(["a,b.wav", "say \"hi\"", ""])
        table.append(["line\nbreak", "1.5", "x"])
        #expect(table.render() == "file,satSeconds,d40\n\"a,b.wav\",\"say \"\"hi\"\"\",\n\"line\nbreak\",1.5,x")
        for bad in ["integrated_lufs", "dc-offset", "Rank", "", "two words"] {
            #expect(!CSVTable.isCamelCase(bad), "\(bad)")
        }
        for good in ["rank", "integratedPadded", "d40", "gainDB"] { #expect(CSVTable.isCamelCase(good), "\(good)") }
    }

    /// A header in another case is a programmer error: the writer traps rather than print it.
    @Test func aHeaderInAnotherCaseTraps() async {
        await #expect(processExitsWith: .failure) { _ = CSVTable(headers: ["file", "integrated_lufs"]) }
    }
}
