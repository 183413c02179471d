import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `enso bells audition --html` links the candidates past the embedded players from the report's own folder
/// (issue #45: every candidate playable), whatever the working directory and wherever the report is written.
@Suite struct BellsReportLinksTests {
    @Test func aReportInAnotherFolderLinksEachFileFromThere() throws {
        let dir = ToolRunner.temporaryDirectory("bells-report-links")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: "\(dir)/in put", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/out/reports", withIntermediateDirectories: true)
        // 26 distinct bells of 2 s: two more than the page's embedded players.
        for k in 0..<26 {
            let base = 220 + Double(k) * 37
            let bell = BellSignals.bell(
                [1.0, 2.4, 3.9].map { BellSignals.Partial(base * $0, 0.2, t60: 1.5) }, seconds: 2)
            try AudioFileEncoder.write(bell, to: "\(dir)/in put/bell #\(k).wav", options: EncodeOptions(format: .wav16))
        }
        let r = try ToolRunner.run(
            "enso", ["bells", "audition", "--no-pack", "--html", "out/reports/bells.html", "in put"],
            currentDirectory: dir)
        #expect(r.stderr.contains("Wrote out/reports/bells.html"), "\(r.stderr.suffix(400))")
        let html = try String(contentsOfFile: "\(dir)/out/reports/bells.html", encoding: .utf8)
        let links = html.components(separatedBy: "<div class=\"player file-player\" data-src=\"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        #expect(links.count == 2, "\(links)")
        for link in links {
            #expect(link.hasPrefix("../../in%20put/bell%20%23"), "\(link)")
            // The link, resolved from the report's folder as a browser resolves it, is the file.
            let path = try #require(URL(string: link, relativeTo: URL(fileURLWithPath: "\(dir)/out/reports/"))?.path)
            #expect(FileManager.default.fileExists(atPath: path), "\(path)")
        }
    }
}
