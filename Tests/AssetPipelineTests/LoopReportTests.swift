import AudioCore
import AudioDSP
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

@Suite struct LoopReportTests {
    @Test func pngChecksumsMatchTheStandardValues() {
        // CRC-32 of "IEND" is the constant every PNG ends with; Adler-32 of "Wikipedia" is RFC 1950's example.
        #expect(LoopReport.PNG.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(LoopReport.PNG.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        let png = LoopReport.PNG.encode(width: 3, height: 2, pixels: [0, 1, 2, 3, 4, 5], palette: LoopReport.palette)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(png.suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        // A stored block bigger than 65535 bytes is split, each with its length and complement.
        let z = LoopReport.PNG.zlibStored([UInt8](repeating: 7, count: 70_000))
        #expect(z.count == 2 + 2 * 5 + 70_000 + 4)
        #expect(z[2] == 0 && z[3] == 0xFF && z[4] == 0xFF && z[5] == 0 && z[6] == 0)
    }

    @Test func htmlIsSelfContainedAndEscaped() {
        let b = LoopSignals.periodicNoise(period: 12_000, frames: 72_000, seed: 1)
        var r = LoopVerifier.Result(
            file: "<a&b>.wav", report: SeamMetrics.analyze(b, loop: 0..<72_000), loop: LoopRegion(start: 0, end: 72_000),
            source: .wholeFile, sampleRate: 48_000, excerpt: LoopReport.Excerpt(buffer: b, loop: 0..<72_000))
        r.reasons = ["level drops 2.1 dB across the seam"]
        let html = LoopReport.html(results: [r, LoopVerifier.Result(file: "bad.wav", failure: "bad.wav: not audio", kind: "not-audio")])
        #expect(html.contains("&lt;a&amp;b&gt;.wav") && !html.contains("<a&b>"))
        #expect(html.contains("<svg") && html.contains("data:image/png;base64,"))
        #expect(html.contains("2 files: 1 pass, 0 warn, 0 fail, 1 error"))
        #expect(html.contains("bad.wav: not audio"))
        // Metrics appear worst first: the order of names in the table follows the report's order.
        let names = r.metrics.map(\.name.rawValue)
        let positions = names.compactMap { html.range(of: "<td>\($0)</td>")?.lowerBound }
        #expect(positions == positions.sorted() && positions.count == 7)
        for external in ["<script", "src=\"http", "href=\"http"] { #expect(!html.contains(external)) }
    }
}
