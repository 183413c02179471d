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
