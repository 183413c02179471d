import AudioCore
import AudioDSP
import AudioTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AssetPipeline
@testable import AssetReports

/// 300 candidates in one bell report (issue #48 §2, issue #45's report part): the page's size, its players, its
/// overview, its near-duplicate groups and its ties. The browser run of the same page is in ``ReportBrowserTests``.
enum ThreeHundredBells {
    /// 150 distinct synthetic bells of 3–8 s (mono, 48 kHz), a −6 dB copy of the first 90 (near-duplicates: a level
    /// change alone), and a clipped copy of the last 60 (rejects): 300 candidates, auditioned in memory.
    static func buffers() -> [(name: String, buffer: AudioBuffer)] {
        func bell(_ k: Int) -> AudioBuffer {
            let seconds = 3 + Double((k * 37) % 51) / 10
            let base = 180 + Double((k * 53) % 400)
            let t60 = 2 + Double((k * 17) % 70) / 10
            let partials = [1.0, 1.93, 2.71, 4.1, 5.4].enumerated().map { n, r in
                BellSignals.Partial(base * r, 0.2 / Double(n + 1), t60: t60 / (1 + 0.3 * Double(n)))
            }
            return BellSignals.bell(
                partials, seconds: seconds, attack: 0.002 + Double(k % 7) * 0.004, beat: k % 4 == 0 ? 0.9 : nil)
        }
        var out: [(String, AudioBuffer)] = []
        for k in 0..<150 { out.append(("bell-\(k).wav", bell(k))) }
        for k in 0..<90 { out.append(("bell-\(k) quieter.wav", BellSignals.scaled(bell(k), decibels: -6))) }
        for k in 90..<150 { out.append(("bell-\(k) clipped.wav", BellSignals.clipped(bell(k), gain: 12))) }
        return out
    }

    /// The audition (ranked, each with its report sketch) of ``buffers()``, its page, and how many times the page
    /// reported an excerpt encoded: made once per test run.
    static let report: (entries: [(result: BellAuditionResult, kept: BellReport.Sketch?)], html: String, encoded: Int) =
        {
            let input = buffers()
            let slots = Mutex([(BellAuditionResult, BellReport.Sketch?)?](repeating: nil, count: input.count))
            DispatchQueue.concurrentPerform(iterations: input.count) { i in
                let a = BellAudition.analyse(input[i].buffer, file: input[i].name, profile: .temple)
                let kept = BellReport.sketch(a)
                slots.withLock { $0[i] = (a.result, kept) }
            }
            let all = slots.withLock { $0.map { $0! } }
            let kept = Dictionary(uniqueKeysWithValues: all.map { ($0.0.file, $0.1) })
            let entries = BellAuditionResult.ranked(all.map(\.0)).map { (result: $0, kept: kept[$0.file]!) }
            let encoded = Mutex(0)
            let html = BellReport.html(entries, profile: .temple) { encoded.withLock { $0 += 1 } }
            return (entries, html, encoded.withLock { $0 })
        }()

    /// The row of `file` in the ranked table.
    static func row(_ html: String, _ file: String) -> String? {
        html.components(separatedBy: "<tr data-c=").first { $0.contains(">\(file)</bdi>") }
    }
}

@Suite struct BellReportScaleTests {
    /// 300 candidates: under 6 MB (it was 18.6 MB), the first ``BellReport/Players/limit`` with a player, every
    /// other card saying how to hear its file.
    @Test func threeHundredCandidatesMakeAPageUnderSixMegabytes() throws {
        let (entries, html, encoded) = ThreeHundredBells.report
        #expect(entries.count == 300)
        // The report phase's own progress: one step per player, as many as the command's bar counts.
        #expect(encoded == BellReport.Players.limit && BellReport.excerptCount(entries) == encoded)
        #expect(html.utf8.count < 6_000_000, "\(html.utf8.count) bytes")
        let players = html.components(separatedBy: "src=\"data:audio/ogg;base64,").count - 1
        #expect(players == BellReport.Players.limit)
        #expect(html.components(separatedBy: "<section class=\"card ").count - 1 == 300)
        #expect(html.components(separatedBy: "class=\"muted noplayer\"").count - 1 == 300 - players)
        #expect(html.contains("<code>enso strike '"))
        #expect(html.contains("The first \(players) of 300 candidates carry their sound in the page"))
        #expect(html.contains("each other card says how to hear its file"))
        // No reject has a player while a keep has none: rank order, best first.
        let cards = html.components(separatedBy: "<section class=\"card ").dropFirst().map {
            $0.components(separatedBy: "</section>").first!
        }
        #expect(!cards.contains { $0.hasPrefix("reject") && $0.contains("<audio") })
    }

    /// Every candidate playable (issue #45): with the page's place known (``ReportLinks``), each of the 300 cards
    /// without an embedded excerpt plays its file, linked from the page's folder, at the volume that matches its
    /// loudness to the page's common level; the page grows by a few hundred bytes a card, no sound.
    @Test func everyCardWithoutAnExcerptPlaysItsFile() throws {
        let (entries, html, _) = ThreeHundredBells.report
        let links = ReportLinks(page: "/pages/out/bells.html", workingDirectory: "/pages/bells")
        let linked = BellReport.html(entries, profile: .temple, links: links)
        let players = linked.components(separatedBy: "src=\"data:audio/ogg;base64,").count - 1
        #expect(players == BellReport.Players.limit)
        let filePlayers = linked.components(separatedBy: "<div class=\"player file-player\"").count - 1
        #expect(filePlayers == 300 - players && !linked.contains("class=\"muted noplayer\""))
        #expect(linked.contains("every other card plays its file from disk"))
        // bell-100 clipped.wav, say: from out/ to bells/, the space encoded; its matching gain as a volume.
        let card = try #require(
            linked.components(
                separatedBy: "<div class=\"player file-player\" data-src=\"../bells/bell-100%20clipped.wav\""
            )
            .dropFirst().first?.components(separatedBy: "</div>").first)
        let result = try #require(entries.first { $0.result.file == "bell-100 clipped.wav" }?.result)
        let loudness = try #require(ReportAudio.asPlayed(integrated: result.metrics?.loudness.integrated, channels: 1))
        let target = try #require(
            Double(
                linked.components(separatedBy: "every excerpt plays at ").dropFirst().first?
                    .components(separatedBy: " LUFS").first?.replacingOccurrences(of: "−", with: "-") ?? ""))
        #expect(
            card.hasPrefix(" data-volume-db=\"\(String(format: "%.2f", min(0, target - loudness)))\""),
            "\(card.prefix(80))")
        #expect(card.contains("Hear it with <code>enso strike 'bell-100 clipped.wav'</code>"))
        let grown = linked.utf8.count - html.utf8.count
        #expect(grown < 276 * 1_000, "\(grown) bytes more for 276 file players")
        print("300 bells: \(html.utf8.count) bytes without file players, \(linked.utf8.count) with them")
    }

    /// A player plays the first 6 s, mono: a stereo bell of 16 s is cut, its end faded (its strike untouched), and
    /// its label says so.
    @Test func aPlayerPlaysTheFirstSixSecondsInMono() throws {
        let stereo = BellSignals.bell(seconds: 16, channels: 2)
        let (sound, label) = BellReport.Players.excerpt(stereo)
        #expect(sound.buffer.channels == 1 && sound.samples.count == 6 * 48_000)
        #expect(label == "its first 6 s of 16.0 s, mono")
        // The strike is as it was (only the end fades): the first 50 ms peak within 0.01 dB of the file's.
        let head = sound.buffer.slice(frames: 0..<2_400).peak
        let original = stereo.slice(frames: 0..<2_400).peak
        #expect(abs(20 * log10(head / original)) < 0.01, "\(head) against \(original)")
        // Its end fades to silence.
        #expect(abs(sound.buffer.samples.last!) < 1e-4)
        #expect(BellReport.Players.excerpt(BellSignals.bell(seconds: 4)).1 == "the whole file")
    }

    /// The page's sound has a ceiling: players past ``BellReport/Players/soundBudget`` go without sound, the last
    /// in the order players are given first, and their cards say how to hear the file.
    @Test func playersPastTheSoundBudgetGoWithoutSound() throws {
        let noisy = BellSignals.noisy(BellSignals.bell(seconds: 8, channels: 2), dbfs: -40)
        let sketches = (0..<3).map { _ in
            BellReport.sketch(BellAudition.analyse(noisy, file: "n.wav", profile: .temple))
        }
        let whole = BellReport.Players.encode(sketches, chosen: [2, 0, 1], progress: nil).items
        let size = try #require(whole[2]?.clip?.dataURI.utf8.count)
        let capped = BellReport.Players.encode(sketches, chosen: [2, 0, 1], budget: size * 2 + size / 2, progress: nil)
        #expect(capped.items.map { $0?.clip != nil } == [true, false, true], "kept in the order given: 2, then 0")
        #expect(capped.items.allSatisfy { $0?.sound == nil }, "every sound dropped once the page is made")
    }

    /// The overview draws the best 12 (one per group) as curves and the rest as a percentile band, and says so.
    @Test func theOverviewDrawsTheBestAndABandOfTheRest() throws {
        let html = ThreeHundredBells.report.html
        let overview = try #require(
            html.components(separatedBy: "<div class=\"compare-plot\">").dropFirst().first?
                .components(separatedBy: "</div>").first)
        #expect(overview.components(separatedBy: "fill=\"none\" data-c=\"").count - 1 == BellReport.overviewCurves)
        #expect(overview.components(separatedBy: "<path class=\"band density").count - 1 == 2)
        #expect(overview.contains("the other 288: the middle 80 %"))
        #expect(overview.utf8.count < 60_000, "\(overview.utf8.count) bytes")
    }

    /// A −6 dB copy is a near-duplicate of its original: one group, the copy behind its best's disclosure in the
    /// table and on the cards, with its distance in JNDs and the group's spread picture on the best's card.
    @Test func nearDuplicatesAreCollapsedUnderTheBestOfTheirGroup() throws {
        let html = ThreeHundredBells.report.html
        let original = try #require(ThreeHundredBells.row(html, "bell-3.wav"))
        let copy = try #require(ThreeHundredBells.row(html, "bell-3 quieter.wav"))
        func attribute(_ row: String, _ name: String) -> String? {
            row.components(separatedBy: "\(name)=\"").dropFirst().first?.components(separatedBy: "\"").first
        }
        #expect(attribute(original, "data-g") == attribute(copy, "data-g"))
        let lead = original.contains(" lead\"") ? original : copy
        let dup = original.contains(" lead\"") ? copy : original
        #expect(lead.contains("aria-expanded=\"false\">+1 near-duplicate</button>"))
        #expect(dup.contains(" dup\"") && dup.contains(" JND</small>"))
        #expect(html.contains("distinct sounds</b>"))
        // Its card is behind a disclosure after the best's card, which carries the spread picture.
        let details = try #require(
            html.components(separatedBy: "<details class=\"group\">").dropFirst().first {
                $0.components(separatedBy: "</details>").first!.contains(
                    "id=\"bell-\(dup.dropFirst().prefix { $0 != "\"" })\"")
            })
        #expect(details.contains("near-duplicate"))
        #expect(html.contains("<svg class=\"spread\""))
        #expect(html.components(separatedBy: "<details class=\"group\">").count - 1 >= 80)
    }

    /// The signature the page groups by is the one `enso bells similar` measures from the file: the report makes it
    /// from the audition's analysis without decoding or measuring again.
    @Test func theSignatureComesFromTheAnalysis() throws {
        let bell = BellSignals.bell(seconds: 5, beat: 1.1)
        let sketch = try #require(BellReport.sketch(BellAudition.analyse(bell, file: "b.wav", profile: .temple)))
        let measured = try LikenessFile.signature(bell, kind: .struck, file: "b.wav")
        // The page groups by the row's own signature (rounded as rows carry it), so its groups are the rows'.
        #expect(sketch.signature == measured.rounded())
    }

    /// Equal scores: the page shows scores to one decimal and marks a score equal to the one above, ranked by name.
    @Test func tiesAreShownAndSaidHowTheyBreak() throws {
        let bell = BellSignals.bell(seconds: 5)
        let entries = ["b.wav", "a.wav"].map { name in
            let a = BellAudition.analyse(bell, file: name, profile: .temple)
            return (result: a.result, kept: BellReport.sketch(a))
        }
        let ranked = BellAuditionResult.ranked(entries.map(\.result)).map { r in
            (result: r, kept: entries.first { $0.result.file == r.file }!.kept)
        }
        let html = BellReport.html(ranked, profile: .temple)
        let second = try #require(ThreeHundredBells.row(html, "b.wav"))
        #expect(second.contains("<abbr class=\"tie\" title=\"the same score as #1"))
        #expect(html.contains("then file name"))
        let score = try #require(ranked[0].result.score)
        #expect(html.contains("score \(ReportPage.number(score, digits: 1))</span>"))
    }
    /// The kept set's spread (issue #45): the candidates worth keeping as a matrix of their likeness distances and
    /// in words, how many distinct sounds they are and how near the two nearest distinct ones lie.
    @Test func theKeptSetsSpreadIsDrawnAndSaid() throws {
        let bell = BellSignals.bell(seconds: 5)
        let other = BellSignals.bell(
            [BellSignals.Partial(700, 0.5, t60: 5), BellSignals.Partial(1900, 0.2, t60: 3)], seconds: 5)
        let sounds = [("a.wav", bell), ("a-quieter.wav", BellSignals.scaled(bell, decibels: -6)), ("b.wav", other)]
        let entries = sounds.map { name, buffer in
            let a = BellAudition.analyse(buffer, file: name, profile: .temple)
            return (result: a.result, kept: BellReport.sketch(a))
        }
        let ranked = BellAuditionResult.ranked(entries.map(\.result)).map { r in
            (result: r, kept: entries.first { $0.result.file == r.file }!.kept)
        }
        #expect(ranked.allSatisfy { $0.result.passes }, "\(ranked.map(\.result.reasons))")
        let html = BellReport.html(ranked, profile: .temple)
        #expect(html.contains("The kept set's spread"))
        #expect(html.contains("3 candidates worth keeping: <b>2 distinct sounds</b>"), "\(html.prefix(0))")
        #expect(html.contains("class=\"spread-matrix\" width=\"3\" height=\"3\""))
        // One candidate worth keeping: nothing to compare, no section.
        #expect(!BellReport.html(Array(ranked.prefix(1)), profile: .temple).contains("The kept set's spread"))
    }
}
