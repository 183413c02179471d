import AudioCore
import AudioDSP
import AudioFile
import AudioTestSupport
import Foundation
import Synchronization
import Testing

@testable import AssetPipeline
@testable import AssetReports

/// The bell audition's HTML page (its browser run is in ``ReportBrowserTests``).
@Suite struct BellReportTests {
    /// A bad set: a clean temple bell, a two-note chime (a notification), a clipped bell, a bell cut off while it
    /// rings, and a missing file.
    static func makeReport() throws -> (dir: String, report: String, html: String) {
        let dir = ToolRunner.temporaryDirectory("bell-report")
        let bell = BellSignals.bell(seconds: 6, channels: 2)
        let candidates: [(String, AudioBuffer)] = [
            ("temple bell.wav", bell),
            ("chime & <dong>.wav", BellSignals.twoNoteChime()),
            ("clipped.wav", BellSignals.clipped(BellSignals.bell(seconds: 4), gain: 12)),
            ("cut.wav", BellSignals.cutTail(bell, below: 15)),
        ]
        var files: [String] = []
        for (name, b) in candidates {
            try AudioFileEncoder.write(b, to: "\(dir)/\(name)", options: EncodeOptions(format: .wav16))
            files.append("\(dir)/\(name)")
        }
        files.append("\(dir)/missing.wav")
        let entries = BellAudition.audition(paths: files, profile: .temple, keeping: BellReport.sketch)
        let html = BellReport.html(entries, profile: .temple)
        let report = "\(dir)/report/bells.html"
        try FileManager.default.createDirectory(atPath: "\(dir)/report", withIntermediateDirectories: true)
        try BellReport.write(html, to: report)
        return (dir, report, html)
    }

    /// The card of `file` (from its `<section>` to the next).
    /// The card whose heading names `file` (another card may name it too, as a near-duplicate).
    static func card(_ html: String, _ file: String) -> String? {
        html.components(separatedBy: "<section class=\"card ").first {
            $0.contains("id=\"bell-") && ($0.components(separatedBy: "</h2>").first ?? "").contains(file)
        }
    }

    @Test func pageIsSelfContainedWithEveryCandidateAndItsSound() throws {
        let (dir, _, html) = try Self.makeReport()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(html.components(separatedBy: "<section class=\"card ").count - 1 == 5)
        #expect(html.components(separatedBy: "src=\"data:audio/ogg;base64,").count - 1 == 4)
        #expect(html.contains("chime &amp; &lt;dong&gt;.wav") && !html.contains("<dong>"))
        for external in ["src=\"../", "src=\"http", "href=\"http", "src=\"file:", "href=\"/", "url("] {
            #expect(!html.contains(external), "\(external)")
        }
    }

    @Test func comparisonComesFirstWithEveryDecayOnOneAxis() throws {
        let (dir, _, html) = try Self.makeReport()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let compare = try #require(html.range(of: "decay of every candidate, dB re its peak"))
        let firstCard = try #require(html.range(of: "<section class=\"card "))
        #expect(compare.lowerBound < firstCard.lowerBound)
        // One curve per candidate that decoded, on one axis with the −40 and −60 dB lines; a row per candidate.
        #expect(html.components(separatedBy: "fill=\"none\" data-c=\"").count - 1 == 4)
        #expect(html.contains("<line class=\"grid strong\""))
        #expect(html.components(separatedBy: "<tr data-c=").count - 1 == 5)
        #expect(html.contains("<span class=\"bars\">"))
    }

    @Test func aRejectedCardLooksRejectedAndListsEachDefectOnce() throws {
        let (dir, _, html) = try Self.makeReport()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clipped = try #require(Self.card(html, "clipped.wav"))
        #expect(clipped.hasPrefix("reject\""))
        #expect(!clipped.contains("class=\"score\""), "a rejected card has no headline score")
        #expect(clipped.components(separatedBy: "<b>clipping</b>").count - 1 == 1)
        #expect(
            clipped.components(separatedBy: "samples at full scale").count - 1 == 1,
            "the evidence once, not again in the reasons")
        #expect(clipped.contains("clipped ×"), "the waveform marks the clipped runs")
        let cut = try #require(Self.card(html, "cut.wav"))
        #expect(cut.contains("<b>truncated-tail</b>") && cut.contains("cut at "))
        let good = try #require(Self.card(html, "temple bell.wav"))
        #expect(good.contains("class=\"score\"") && good.contains("<table class=\"terms\">"))
        #expect(good.contains(">1k<"), "the spectrogram has frequency ticks")
    }

    @Test func playersAreLoudnessMatched() throws {
        let (dir, _, html) = try Self.makeReport()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var levels: [Double] = []
        for (i, part) in html.components(separatedBy: "src=\"data:audio/ogg;base64,").dropFirst().enumerated() {
            let path = "\(dir)/\(i).ogg"
            #expect(
                FileManager.default.createFile(
                    atPath: path, contents: Data(base64Encoded: String(part.prefix { $0 != "\"" }))))
            // Matched as played: a mono excerpt on both speakers (docs/bells.md, "Loudness as played").
            let excerpt = try AudioFileDecoder.decode(path: path).buffer
            levels.append(try #require(try LoudnessAnalysis.integratedAsPlayed(excerpt)))
        }
        #expect(levels.count == 4 && levels.max()! - levels.min()! < 1, "\(levels)")
    }

    @Test func aBellCostsThePageNoMoreThanItsBudget() throws {
        let dir = ToolRunner.temporaryDirectory("bell-report")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 16 s of stereo bell over a noise bed (the costliest to encode): its first 6 s, mono, for its player.
        let long = BellSignals.noisy(BellSignals.bell(seconds: 16, channels: 2), dbfs: -50)
        var files: [String] = []
        for i in 0..<3 {
            try AudioFileEncoder.write(long, to: "\(dir)/\(i).wav", options: EncodeOptions(format: .wav16))
            files.append("\(dir)/\(i).wav")
        }
        let empty = BellReport.html([], profile: .temple).utf8.count
        let html = BellReport.html(
            BellAudition.audition(paths: files, profile: .temple, keeping: BellReport.sketch), profile: .temple)
        let perBell = (html.utf8.count - empty) / 3
        #expect(perBell <= BellReport.budgetPerBell, "\(perBell) bytes a bell")
        #expect(html.contains("its first 6 s of 16.0 s, mono"))
    }

    /// The page is made from each file's one analysis: the files are gone before it is written, and every card still
    /// has its figures and its player (it used to decode every file again, and a file gone by then had neither).
    @Test func thePageReadsTheAnalysisNotTheFiles() throws {
        let dir = ToolRunner.temporaryDirectory("bell-report-once")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var files: [String] = []
        for (i, b) in [BellSignals.bell(seconds: 4, channels: 2), BellSignals.bell(seconds: 3, beat: 1.2)].enumerated()
        {
            try AudioFileEncoder.write(b, to: "\(dir)/\(i).wav", options: EncodeOptions(format: .wav16))
            files.append("\(dir)/\(i).wav")
        }
        let entries = BellAudition.audition(paths: files, profile: .temple, keeping: BellReport.sketch)
        for f in files { try FileManager.default.removeItem(atPath: f) }
        let html = BellReport.html(entries, profile: .temple)
        #expect(html.components(separatedBy: "src=\"data:audio/ogg;base64,").count - 1 == 2)
        #expect(html.components(separatedBy: "fill=\"none\" data-c=\"").count - 1 == 2, "a curve per candidate")
        #expect(html.components(separatedBy: "spectrogram, 70 dB range").count - 1 == 2)
        #expect(html.components(separatedBy: "decay in dB re peak").count - 1 == 2)
    }

    /// The excerpts are encoded after the audition's bar is full: the page reports each one as it is encoded, so
    /// the command can show a bar of its own for that phase (300 files showed a full bar for 14 s).
    @Test func encodingReportsProgressOncePerExcerpt() throws {
        let dir = ToolRunner.temporaryDirectory("bell-report-progress")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var files: [String] = []
        for i in 0..<3 {
            try AudioFileEncoder.write(
                BellSignals.bell(seconds: 2 + Double(i)), to: "\(dir)/\(i).wav", options: EncodeOptions(format: .wav16))
            files.append("\(dir)/\(i).wav")
        }
        files.append("\(dir)/missing.wav")
        let entries = BellAudition.audition(paths: files, profile: .temple, keeping: BellReport.sketch)
        #expect(BellReport.excerptCount(entries) == 3, "no excerpt for the missing file")
        let count = Mutex(0)
        _ = BellReport.html(entries, profile: .temple) { count.withLock { $0 += 1 } }
        #expect(count.withLock { $0 } == 3)
    }

    /// A held excerpt is its samples over its peak, truncated toward zero to 16 bits (`Int32(v)`), both signs and
    /// either side of a whole number; a peak of either sign is ±32767.
    @Test func anExcerptHoldsItsSamplesTruncatedToSixteenBits() {
        var mono: [Float] = [0, 1e-6, -1e-6, 0.123_456, -0.123_456, 0.3, -0.3, 0.499_99, -0.5, 0.25, -0.25]
        mono += (0..<1000).map { Float(sin(Double($0) * 0.37)) * 0.4 }
        let e = BellReport.Excerpt(mono, sampleRate: .hz48000)
        let inverse = 1 / e.scale
        #expect(e.scale == 0.5 / 32767)
        let expected = mono.map { x -> Int16 in
            let v = x * inverse
            return Int16(truncatingIfNeeded: Int32(v > 32767 ? 32767 : v < -32767 ? -32767 : v))
        }
        #expect(e.samples == expected)
        #expect(e.samples[8] == -32767 && e.samples[9] == 16383 && e.samples[10] == -16383)
    }

    /// The vectorised truncation is `Int32(v)`'s on every kind of value: whole numbers, halves (where rounding to
    /// nearest would differ), the float on either side of each, and tiny ones, across the 16-bit range, both signs.
    @Test func anExcerptTruncatesAsTheConversionDoesAtWholeNumbersAndHalves() {
        var mono: [Float] = [1]
        let inverse = 1 / (1 / Float(Int16.max))
        for magnitude in [0, 1, 2, 3, 7, 100, 255, 1000, 4095, 16383, 16384, 30000, 32765, 32766] {
            for offset: Float in [0, 0.25, 0.5, 0.75] {
                for sign: Float in [1, -1] {
                    let x = sign * (Float(magnitude) + offset) / inverse
                    mono += [x, x.nextUp, x.nextDown, x.nextUp.nextUp, x.nextDown.nextDown]
                }
            }
        }
        mono += [1e-30, -1e-30, Float.leastNonzeroMagnitude, -Float.leastNonzeroMagnitude, -0.0, -1, 0.999_999_9]
        let e = BellReport.Excerpt(mono, sampleRate: .hz48000)
        #expect(1 / e.scale == inverse)
        let expected = mono.map { x -> Int16 in
            let v = x * inverse
            return Int16(truncatingIfNeeded: Int32(v > 32767 ? 32767 : v < -32767 ? -32767 : v))
        }
        #expect(e.samples == expected)
    }

    /// The fade's gains, made once per length and kept, are the raised cosine computed sample by sample.
    @Test func anExcerptFadesOutWithTheRaisedCosineOfItsLength() {
        for (n, f) in [(10, 4), (1000, 240), (100, 240), (24_000, 24_000)] {
            for _ in 0..<2 {
                var mono = (0..<n).map { Float(sin(Double($0) * 0.11)) }
                var expected = mono
                let g = min(n, f)
                for i in 0..<g { expected[n - 1 - i] *= Float(0.5 - 0.5 * cos(Double.pi * Double(i) / Double(g))) }
                ReportAudio.fadeOut(&mono, frames: f)
                #expect(mono == expected, "\(n) samples, \(f) frames")
            }
        }
    }
}
