import Foundation
import Testing

@testable import AssetReports

/// A page's links to its files (``ReportLinks``): relative to the folder the page is written to, whatever the
/// working directory, each segment percent-encoded.
@Suite struct ReportLinksTests {
    @Test func aFileIsLinkedFromThePagesFolder() {
        let beside = ReportLinks(page: "report.html", workingDirectory: "/w")
        #expect(beside.url("bells/a.wav") == "bells/a.wav")
        #expect(beside.url("./bells/../bells/a.wav") == "bells/a.wav")
        // A page written to another folder: the file is reached from there.
        let elsewhere = ReportLinks(page: "out/reports/bells.html", workingDirectory: "/w")
        #expect(elsewhere.url("bells/a.wav") == "../../bells/a.wav")
        #expect(elsewhere.url("out/a.wav") == "../a.wav")
        #expect(elsewhere.url("/data/b.wav") == "../../../data/b.wav")
        let absolute = ReportLinks(page: "/srv/pages/r.html", workingDirectory: "/w")
        #expect(absolute.url("/srv/pages/x/y.wav") == "x/y.wav")
        #expect(absolute.url("y.wav") == "../../w/y.wav")
    }

    @Test func namesAreEncodedSoTheyReadAsOneFile() {
        let links = ReportLinks(page: "r.html", workingDirectory: "/w")
        #expect(links.url("a b#1?%.wav") == "a%20b%231%3F%25.wav")
        #expect(links.url("résumé:x.wav") == "r%C3%A9sum%C3%A9%3Ax.wav")
        // Standard input is no file to link.
        #expect(links.url("-") == nil)
    }
}
