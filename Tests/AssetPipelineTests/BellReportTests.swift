import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// The HTML report, checked in a real browser (headless Chromium from Debian) when one is installed.
@Suite struct BellReportTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    func makeReport() throws -> (dir: String, report: String, files: [String]) {
        let dir = ToolRunner.temporaryDirectory("bell-report")
        let candidates: [(String, AudioBuffer)] = [
            ("temple bell.wav", BellSignals.bell(seconds: 6, channels: 2)),
            ("chime & <dong>.wav", BellSignals.twoNoteChime()),
            ("clipped.wav", BellSignals.clipped(BellSignals.bell(seconds: 4), gain: 12)),
        ]
        var files: [String] = []
        for (name, b) in candidates {
            try AudioFileEncoder.write(b, to: "\(dir)/\(name)", options: EncodeOptions(format: .wav16))
            files.append("\(dir)/\(name)")
        }
        files.append("\(dir)/missing.wav")
        let entries = BellAudition.audition(paths: files, profile: .temple, figures: true)
        let report = "\(dir)/report/bells.html"
        try FileManager.default.createDirectory(atPath: "\(dir)/report", withIntermediateDirectories: true)
        try BellReport.write(BellReport.html(entries, profile: .temple, reportPath: report), to: report)
        return (dir, report, files)
    }

    @Test func pageIsSelfContainedWithEveryCandidate() throws {
        let (dir, report, _) = try makeReport()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(!html.contains("http://") && !html.contains("https://") || html.contains("xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(html.components(separatedBy: "<section class=\"card").count - 1 == 4)
        #expect(html.components(separatedBy: "data:image/png;base64,").count - 1 == 3)
        #expect(html.contains("src=\"../temple%20bell.wav\""))
        #expect(html.contains("chime &amp; &lt;dong&gt;.wav"))
    }

    @Test(.enabled(if: chromium != nil, "needs Debian's chromium (make deps installs it)"))
    func chromiumLoadsWithoutConsoleErrorsAndShowsEveryCandidate() throws {
        let (dir, report, files) = try makeReport()
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0"]
        let dom = try run(common + ["--dump-dom", "file://\(report)"])
        let consoleLines = dom.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }
        #expect(consoleLines.isEmpty, "console: \(consoleLines)")
        for f in files {
            let name = (f as NSString).lastPathComponent.replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            #expect(dom.stdout.contains(name), "\(name) not shown")
        }
        #expect(dom.stdout.components(separatedBy: "<tr class=").count - 1 == files.count)
        // The screenshot stays in the test's folder as an artifact.
        let shot = "\(dir)/report/screenshot.png"
        _ = try run(common + ["--window-size=1280,2400", "--screenshot=\(shot)", "file://\(report)"])
        let png = try #require(FileManager.default.contents(atPath: shot))
        #expect(png.count > 10_000 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        print("bell report screenshot: \(shot)")
    }

    struct Output {
        var stdout: String
        var stderr: String
    }

    func run(_ args: [String]) throws -> Output {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.chromium!)
        p.arguments = args
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        nonisolated(unsafe) var errData = Data()
        let g = DispatchGroup()
        g.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            g.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        g.wait()
        p.waitUntilExit()
        return Output(
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
