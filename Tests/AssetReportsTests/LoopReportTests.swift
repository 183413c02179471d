import AudioCore
import AudioDSP
import AudioFile
import AudioTestSupport
import CZlib
import Foundation
import Testing

@testable import AssetPipeline
@testable import AssetReports

/// Loop material for report tests: a seamless loop, a cut one (a tone's phase jumps at the seam) and a quiet one.
enum LoopReportFixtures {
    static let rate = 48_000

    /// 3 s of periodic noise under a 200 Hz tone, looped whole: seamless.
    static func seamless(gainDB: Double = 0) -> AudioBuffer {
        var b = LoopSignals.periodicNoise(period: 3 * rate, frames: 3 * rate, amplitude: 0.05, seed: 3)
        let tone = LoopSignals.tones(frequencies: [200], frames: 3 * rate)
        for i in b.samples.indices { b.samples[i] = (b.samples[i] + tone.samples[i]) * Float(pow(10, gainDB / 20)) }
        return b
    }

    /// A verifier result for `buffer` looped over `loop`, as `loops verify --html` makes it.
    static func result(_ file: String, _ buffer: AudioBuffer, loop: Range<Int>) -> LoopVerifier.Result {
        LoopVerifier.Result(
            file: file, report: SeamRules.judge(buffer, loop: loop),
            loop: LoopRegion(start: FramePosition(loop.lowerBound), end: FramePosition(loop.upperBound)),
            source: .wholeFile, sampleRate: rate, excerpt: SeamExcerpt(buffer: buffer, loop: loop))
    }

    /// Three textures as `loops verify` groups them: a rain, its copy 6 dB down (a near-duplicate: a level change
    /// alone) and a hiss (another sound), each seamless over its whole 6 s, with its likeness signature.
    static func textures() throws -> [LoopVerifier.Result] {
        let rain = LoopSignals.periodicNoise(period: 96_000, frames: 96_000 * 3, smoothingHz: 2_000, poles: 2, seed: 5)
        let hiss = LoopSignals.periodicNoise(period: 96_000, frames: 96_000 * 3, smoothingHz: 300, poles: 2, seed: 9)
        let sounds = [
            ("a rain.wav", rain), ("b rain quieter.wav", BellSignals.scaled(rain, decibels: -6)), ("c hiss.wav", hiss),
        ]
        var made: [LoopVerifier.Result] = []
        for (name, buffer) in sounds {
            var r = result(name, buffer, loop: 0..<buffer.frameCount)
            r.likeness = try LikenessFile.signature(buffer, kind: .texture, file: name).rounded()
            made.append(r)
        }
        return LoopVerifier.grouped(made)
    }

    /// Seamless, cut mid-period (a phase jump: fails), 20 dB quieter seamless, and an unreadable file.
    static func badSet() -> [LoopVerifier.Result] {
        let good = seamless()
        return [
            result("a seamless.wav", good, loop: 0..<(3 * rate)),
            result("b cut <mid-period>.wav", good, loop: 0..<(2 * rate + 123)),
            result("c quiet.wav", seamless(gainDB: -20), loop: 0..<(3 * rate)),
            LoopVerifier.Result(file: "d broken.wav", failure: "d broken.wav: not an audio file", kind: "malformed"),
        ]
    }
}

@Suite struct LoopReportTests {
    @Test func pngChecksumsAndCompressedDataMatchTheStandard() throws {
        // CRC-32 of "IEND" is the constant every PNG ends with; Adler-32 of "Wikipedia" is RFC 1950's example.
        #expect(LoopReport.PNG.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(LoopReport.PNG.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        let png = LoopReport.PNG.encode(width: 3, height: 2, pixels: [0, 1, 2, 3, 4, 5], palette: LoopReport.palette)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(png.suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        // The image data inflates back to the rows (filter byte 0, then the pixels), and a smooth image shrinks.
        var rows: [UInt8] = []
        for y in 0..<200 {
            rows.append(0)
            for x in 0..<300 { rows.append(UInt8((x + y) / 4 % 256)) }
        }
        let z = LoopReport.PNG.deflate(rows)
        #expect(z.count < rows.count / 4)
        // At zlib's default level, as the stream's header says (RFC 1950 FLEVEL 2: 0x78 0x9C; the best is 0x78 0xDA).
        #expect(Array(z.prefix(2)) == [0x78, 0x9C])
        var size = uLong(rows.count)
        var back = [UInt8](repeating: 0, count: rows.count)
        let rc = back.withUnsafeMutableBufferPointer { b in
            z.withUnsafeBufferPointer { uncompress(b.baseAddress!, &size, $0.baseAddress!, uLong(z.count)) }
        }
        #expect(rc == Z_OK && back == rows)
        // An image whose rows are smooth is stored with the Sub filter, and its rows come back exactly.
        let width = 40
        let pixels = (0..<(width * 3)).map { UInt8(truncatingIfNeeded: $0 % width * 6 + $0 / width) }
        let image = LoopReport.PNG.encode(width: width, height: 3, pixels: pixels, palette: LoopReport.palette)
        let idat = try #require(image.firstRange(of: Array("IDAT".utf8)))
        let length = image[(idat.lowerBound - 4)..<idat.lowerBound].reduce(0) { $0 << 8 | Int($1) }
        let deflated = Array(image[idat.upperBound..<(idat.upperBound + length)])
        var raw = [UInt8](repeating: 0, count: (width + 1) * 3)
        var rawSize = uLong(raw.count)
        let inflated = raw.withUnsafeMutableBufferPointer { b in
            deflated.withUnsafeBufferPointer { uncompress(b.baseAddress!, &rawSize, $0.baseAddress!, uLong(length)) }
        }
        #expect(inflated == Z_OK && rawSize == uLong(raw.count))
        var decoded: [UInt8] = []
        for y in 0..<3 {
            let line = raw[(y * (width + 1))..<((y + 1) * (width + 1))]
            #expect(line.first == 1, "row \(y) filtered with Sub")
            var previous: UInt8 = 0
            for d in line.dropFirst() {
                previous = line.first == 1 ? previous &+ d : d
                decoded.append(previous)
            }
        }
        #expect(decoded == pixels)
        // A stored block bigger than 65535 bytes is split, each with its length and complement.
        let stored = LoopReport.PNG.zlibStored([UInt8](repeating: 7, count: 70_000))
        #expect(stored.count == 2 + 2 * 5 + 70_000 + 4)
    }

    @Test func excerptKeepsTwoSecondsEachSideAndWhatTheJumpReplaced() {
        let b = LoopReportFixtures.seamless()
        let e = SeamExcerpt(buffer: b, loop: 24_000..<120_000)
        #expect(e.seam == 48_000 && e.audio.frameCount == 96_000 && e.audio.channels == 2)
        // The frame before the seam is the loop's last; the one at the seam is its first.
        #expect(e.audio.channel(0)[e.seam - 1] == b.channel(0)[119_999])
        #expect(e.audio.channel(0)[e.seam] == b.channel(0)[24_000])
        #expect(e.afterEnd.map(\.count) == [241, 241] && e.beforeStart.map(\.count) == [241, 241])
        let right = Array(b.channel(1))
        #expect(e.afterEnd[1][0] == right[120_000] && e.beforeStart[1][240] == right[23_999])
        // A whole-file loop has nothing past either end.
        let whole = SeamExcerpt(buffer: b, loop: 0..<b.frameCount)
        #expect(whole.afterEnd.allSatisfy(\.isEmpty) && whole.beforeStart.allSatisfy(\.isEmpty))
    }

    @Test func theCloseUpShowsTheChannelThatBreaks() {
        // Channel 2 of a seamless tone loop gets a step at the seam; the close-up must show channel 2, not a mix.
        var b = LoopSignals.tones(frequencies: [200], frames: 48_000)
        for i in 47_000..<48_000 { b.samples[48_000 + i] += 0.1 }
        let e = SeamExcerpt(buffer: b, loop: 0..<48_000)
        #expect(e.worstChannel == 1)
        #expect(e.closeUpSVG().contains("±5 ms: end → start, channel 2"))
        #expect(
            SeamExcerpt(
                buffer: LoopSignals.tones(frequencies: [200], frames: 48_000, channels: 1), loop: 0..<48_000
            )
            .closeUpSVG().contains("end → start</text>"))
    }

    @Test func failuresComeFirstAndTheSummaryLinksToEachCard() {
        let html = LoopReport.html(results: LoopReportFixtures.badSet())
        let order = ["b cut &lt;mid-period&gt;.wav", "d broken.wav", "a seamless.wav"]
        let cards = order.map { html.range(of: "</span><bdi>\($0)</bdi></h2>")?.lowerBound }
        #expect(cards.allSatisfy { $0 != nil } && cards.map { $0! } == cards.map { $0! }.sorted(), "cards: \(cards)")
        #expect(html.contains("<td data-v=\"0\"><a href=\"#loop-1\"><span class=\"pill fail\">fail</span></a></td>"))
        // Verdict filters above the table, every column sortable by a button (ReportTable).
        #expect(html.contains("<div class=\"filters\" role=\"group\" aria-label=\"show verdicts\" data-for=\"loops\">"))
        #expect(html.contains("aria-pressed=\"true\" data-verdict=\"fail\">1 fail</button>"))
        #expect(html.components(separatedBy: "<button type=\"button\" class=\"sort\">").count - 1 == 4)
        #expect(html.contains("<section class=\"card fail\" id=\"loop-1\" data-verdict=\"fail\">"))
        for i in 1...4 { #expect(html.contains("id=\"loop-\(i)\"")) }
        #expect(html.contains("d broken.wav: not an audio file"))
    }

    /// Near-duplicate textures (issue #45): the rain's quieter copy is collapsed under the rain, in the table (a
    /// row under its best's, shown by its disclosure) and as a card behind a disclosure after the rain's, each with
    /// its distance; the hiss stands alone; the spread of the loops that do not fail is drawn and said. The page's
    /// groups are the rows' own.
    @Test func nearDuplicateTexturesAreCollapsedUnderTheirBestWithTheirDistance() throws {
        let results = try LoopReportFixtures.textures()
        #expect(results.map(\.verdict) == [.pass, .pass, .pass], "\(results.map(\.reasons))")
        #expect(results.map(\.group) == [1, 1, 2] && results.map(\.groupRank) == [1, 2, 1])
        let distance = LikenessDistance(results[0].likeness!, results[1].likeness!).distance
        #expect(distance < LikenessDistance.nearDuplicateThreshold)
        let html = LoopReport.html(results: results)
        let jnd = ReportPage.number(distance, digits: 2)
        #expect(html.contains("<b>2 distinct sounds</b>: 1 group of near-duplicates (2 loops"))
        // The table: the rain leads with the disclosure, its copy is a row under it with its distance.
        #expect(html.contains("<tr class=\"pass lead\" data-g=\"1\""))
        #expect(
            html.contains("<button type=\"button\" class=\"more\" aria-expanded=\"false\">+1 near-duplicate</button>"))
        let dup = try #require(html.components(separatedBy: "<tr class=\"pass dup\" data-g=\"1\"").dropFirst().first)
        #expect(
            dup.hasPrefix(" data-verdict=\"pass\">")
                && dup.contains("b rain quieter.wav</bdi></a> <small class=\"muted\">≈ #1, \(jnd) JND</small>"))
        let rows = ["a rain.wav", "b rain quieter.wav", "c hiss.wav"].map {
            html.range(of: "<bdi>\($0)</bdi></a>")!.lowerBound
        }
        #expect(rows == rows.sorted())
        // The cards: the copy behind the rain's disclosure, saying its distance; the hiss after the group.
        let details = try #require(
            html.components(separatedBy: "<details class=\"group\"><summary>").dropFirst().first?
                .components(separatedBy: "</details>").first)
        #expect(details.hasPrefix("1 near-duplicate of #1 <bdi>a rain.wav</bdi> (within \(jnd) JND of each other)"))
        #expect(details.contains("id=\"loop-2\"") && details.contains("<bdi>b rain quieter.wav</bdi></h2>"))
        #expect(
            details.contains(
                "A near-duplicate of <a href=\"#loop-1\">#1 <bdi>a rain.wav</bdi></a>: \(jnd) JND from it."))
        #expect(!details.contains("c hiss.wav"))
        #expect(html.range(of: "</details>")!.lowerBound < html.range(of: "<bdi>c hiss.wav</bdi></h2>")!.lowerBound)
        #expect(html.contains("<figure><svg class=\"spread\""), "the rain's card draws its group's spread")
        // The spread of the set: the three loops, two distinct sounds.
        #expect(html.contains("3 loops that do not fail: <b>2 distinct sounds</b>; the two nearest distinct ones"))
        #expect(html.contains("class=\"spread-matrix\" width=\"3\" height=\"3\""))
        // Results not grouped (no signatures): every loop alone, nothing collapsed.
        let plain = LoopReport.html(results: LoopReportFixtures.badSet())
        #expect(!plain.contains("<details class=\"group\">") && !plain.contains(" dup\""))
    }

    /// A group is a sound, not a seam: the rain's copy with a click at its seam fails and leads the group on the page
    /// (failures first), the clean rain behind its disclosure; before, the failure was a hidden row under the
    /// passing rain.
    @Test func aFailingNearDuplicateLeadsItsGroupOnThePage() throws {
        let rain = LoopSignals.periodicNoise(period: 96_000, frames: 96_000 * 3, smoothingHz: 2_000, poles: 2, seed: 5)
        var click = rain
        click.withMutableChannel(0) { $0[0] += 0.4 }
        var made: [LoopVerifier.Result] = []
        for (name, buffer) in [("a rain.wav", rain), ("b rain click.wav", click)] {
            var r = LoopReportFixtures.result(name, buffer, loop: 0..<buffer.frameCount)
            r.likeness = try LikenessFile.signature(buffer, kind: .texture, file: name).rounded()
            made.append(r)
        }
        let results = LoopVerifier.grouped(made)
        #expect(results.map(\.verdict) == [.pass, .fail], "\(results.map(\.reasons))")
        #expect(Set(results.map(\.group)).count == 1, "one sound")
        let html = LoopReport.html(results: results)
        let lead = try #require(html.components(separatedBy: "<tr class=\"fail lead\"").dropFirst().first)
        #expect(lead.components(separatedBy: "</tr>").first?.contains("b rain click.wav") == true)
        #expect(html.contains("<tr class=\"pass dup\""))
        #expect(!html.contains("<tr class=\"fail dup\""))
    }

    @Test func everyFigureAndSoundIsInsideThePage() {
        let html = LoopReport.html(results: LoopReportFixtures.badSet())
        // Three judged loops: a player, a close-up, a waveform and a spectrogram each.
        #expect(html.components(separatedBy: "src=\"data:audio/ogg;base64,").count - 1 == 3)
        #expect(html.components(separatedBy: "href=\"data:image/png;base64,").count - 1 == 3)
        #expect(html.components(separatedBy: "<svg class=\"plot\"").count - 1 == 9)
        #expect(html.contains("loop end") && html.contains("loop start") && html.contains("ms from the seam"))
        for external in ["src=\"http", "href=\"http", "src=\"file:", "href=\"file:", "src=\"/", "href=\"/", "url("] {
            #expect(!html.contains(external), "\(external)")
        }
        // Metrics keep the verifier's order (worst first) and carry units.
        let r = LoopReportFixtures.badSet()[1]
        let positions = r.metrics.map(\.name.rawValue).compactMap { html.range(of: "<td>\($0)</td>")?.lowerBound }
        #expect(positions == positions.sorted() && positions.count == 7)
        #expect(html.contains("×</td>") && html.contains(" dB</td>"))
    }

    @Test func playersAreLoudnessMatchedAndCarryTheGainThatUndoesIt() throws {
        let results = LoopReportFixtures.badSet()
        let html = LoopReport.html(results: results)
        let dir = ToolRunner.temporaryDirectory("loop-report")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var levels: [Double] = []
        var gains: [Double] = []
        for (i, part) in html.components(separatedBy: "data-gain-db=\"").dropFirst().enumerated() {
            gains.append(try #require(Double(part.prefix { $0 != "\"" })))
            let b64 = try #require(
                part.components(separatedBy: "src=\"data:audio/ogg;base64,").dropFirst().first?.prefix { $0 != "\"" })
            let path = "\(dir)/\(i).ogg"
            #expect(writeTestFile(path, Data(base64Encoded: String(b64))))
            let decoded = try AudioFileDecoder.decode(path: path)
            levels.append(try #require(try AssetPack.measureLoudness(decoded.buffer)))
        }
        // Order on the page: cut (fail), seamless, quiet. Played within 0.5 LU of each other and of the level named.
        #expect(levels.count == 3)
        #expect(levels.max()! - levels.min()! < 0.5, "\(levels)")
        #expect(html.contains("every excerpt plays at −23.0 LUFS") && abs(levels[0] + 23) < 0.7)
        // The quiet loop was raised 20 dB more than the others, so "original level" lowers it 20 dB more.
        #expect(abs((gains[2] - gains[1]) - 20) < 0.5, "\(gains)")
        #expect(html.contains("data-repeat=\"3\""))
    }

    @Test func aLoopCostsTheReportNoMoreThanItsBudget() {
        // The worst case for both Vorbis and PNG: 4 s of stereo white noise at 48 kHz (docs/loops.md: ≤ 150 kB a loop).
        let noise = LoopSignals.periodicNoise(period: 6 * 48_000, frames: 6 * 48_000, amplitude: 0.5, seed: 9)
        let results = (0..<4).map { LoopReportFixtures.result("noise \($0).wav", noise, loop: 0..<(6 * 48_000)) }
        let empty = LoopReport.html(results: [])
        let perLoop = (LoopReport.html(results: results).utf8.count - empty.utf8.count) / 4
        #expect(perLoop <= LoopReport.budgetPerLoop, "\(perLoop) bytes a loop")
        print("loop report: \(perLoop) bytes a loop")
        #expect(perLoop > 40_000, "the excerpt is 4 s of sound")
    }

    @Test func numbersReadAsAPersonWritesThem() {
        #expect(ReportPage.number(-1.5e-6) == "0.0")
        #expect(ReportPage.number(-2.345, digits: 2) == "−2.35" || ReportPage.number(-2.345, digits: 2) == "−2.34")
        #expect(ReportPage.number(1234.4) == "1234")
        #expect(ReportPage.signed(0.04) == "0.0" && ReportPage.signed(3) == "+3.0" && ReportPage.signed(-3) == "−3.0")
        #expect(ReportPlot.ticks(-1...1) == [-1, -0.5, 0, 0.5, 1])
        #expect(ReportPlot.logTicks(40...24_000) == [50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000])
        #expect(ReportPlot.tickLabel(2000, step: 1000) == "2k" && ReportPlot.tickLabel(-0.5, step: 0.5) == "−0.5")
        #expect(LoopReport.value(1.234, unit: "ratio") == "1.23×" && LoopReport.value(-2.1, unit: "dB") == "−2.10 dB")
        // A sampled note's loop of a few periods reads as the table prints it, not as "0.00 s".
        #expect(LoopReport.length(LoopRegion(start: 1_000, end: 1_265), 48_000) == "0.006 s")
    }
}
