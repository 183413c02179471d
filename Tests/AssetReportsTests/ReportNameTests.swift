import AudioCore
import Testing

@testable import AssetPipeline
@testable import AssetReports

/// File names in the HTML reports are isolated (`<bdi>`) and cannot carry a direction override past themselves:
/// `evil\u{202E}vaw.exe` must not reorder the report's text.
@Suite struct ReportNameTests {
    static let override = "evil\u{202E}vaw.exe"

    @Test func aNameWithAnOverrideIsIsolatedAndClosedInTheLoopReport() {
        var results = LoopReportFixtures.badSet()
        results[3] = LoopVerifier.Result(
            file: "/in/" + Self.override, failure: "/in/\(Self.override): not an audio file", kind: "malformed")
        let html = LoopReport.html(results: results)
        // The card's heading and the summary's link: the name in a <bdi>, the override closed inside it.
        #expect(html.contains("<bdi>/in/\(Self.override)\u{202C}</bdi></h2>"))
        #expect(html.contains("<bdi>\(Self.override)\u{202C}</bdi></a>"))
        // The reason, which quotes the name inside a sentence, closes it too before the page goes on.
        #expect(html.contains("not an audio file\u{202C}"))
        // Every override in the page is closed: the text after it keeps its direction.
        var open = 0
        for scalar in html.unicodeScalars {
            if scalar == "\u{202E}" { open += 1 }
            if scalar == "\u{202C}" { open -= 1 }
        }
        #expect(open == 0)
    }

    @Test func bidiClosersPairAsUnicodeDoes() {
        #expect(ReportPage.bidiClosers("plain name.wav") == "")
        #expect(ReportPage.bidiClosers("a\u{202E}b") == "\u{202C}")
        // Closed already: nothing added.
        #expect(ReportPage.bidiClosers("a\u{202E}b\u{202C}c") == "")
        // Innermost first: an override inside an isolate closes before the isolate.
        #expect(ReportPage.bidiClosers("\u{2067}x\u{202D}y") == "\u{202C}\u{2069}")
        // A PDI closes its isolate and what was opened inside it.
        #expect(ReportPage.bidiClosers("\u{2066}x\u{202E}y\u{2069}z") == "")
        #expect(ReportPage.fileName("a<b\u{202E}.wav") == "<bdi>a&lt;b\u{202E}.wav\u{202C}</bdi>")
    }
}
