import AudioCore
import AudioTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AssetPipeline
@testable import AssetReports

/// The excerpts a bell report holds while its files are auditioned (``BellReport/HeldExcerpts``): those of the best
/// candidates so far, so the report's memory does not grow with the number of files, and the page the same as with
/// every excerpt kept unless the best held are too few distinct sounds.
@Suite struct BellReportHeldExcerptsTests {
    typealias Key = BellReport.HeldExcerpts.Key

    /// A tiny excerpt standing for a candidate's sound.
    static func excerpt() -> BellReport.HeldExcerpt {
        BellReport.HeldExcerpt(BellReport.Excerpt([0.5, -0.25, 0.125], sampleRate: .hz48000))
    }

    /// Candidates finishing in any order: at every step at most `capacity` are held, and at the end exactly the best
    /// `capacity` in rank order, every other excerpt let go; a candidate ranking after the last held is not
    /// admitted (its excerpt is never made).
    @Test func aRunHoldsTheExcerptsOfItsBestCandidatesOnly() {
        var rng = SeededRandom(seed: 9)
        let verdicts: [BellAuditionVerdict] = [.keep, .fix, .listen, .reject]
        let keys: [Key] = (0..<400).map { i in
            (verdict: verdicts[Int(rng.nextUnit() * 4)], score: (rng.nextUnit() * 100).rounded(), file: "f\(i).wav")
        }
        let store = BellReport.HeldExcerpts(capacity: 30)
        var boxes: [BellReport.HeldExcerpt?] = []
        for key in keys {
            guard store.admits(key) else {
                boxes.append(nil)
                continue
            }
            let box = Self.excerpt()
            store.hold(box, key: key)
            boxes.append(box)
            #expect(store.count <= 30)
        }
        let best = Set(
            keys.indices.sorted { BellAuditionResult.ranksBefore(keys[$0], keys[$1]) }.prefix(30))
        let holding = Set(boxes.indices.filter { boxes[$0]?.excerpt != nil })
        #expect(holding == best)
        #expect(store.count == 30)
        // Fewer excerpts made than candidates: those ranking after the best held so far made none.
        #expect(boxes.compactMap { $0 }.count < 200, "\(boxes.compactMap { $0 }.count) excerpts made of 400")
        let last = keys[best.max { BellAuditionResult.ranksBefore(keys[$0], keys[$1]) }!]
        #expect(!store.admits((verdict: .reject, score: -1, file: "z.wav")))
        #expect(store.admits((verdict: .keep, score: 1_000, file: "a.wav")))
        #expect(store.admits(last), "a candidate tied with the last held is held too")
    }

    /// Candidates tied in rank at the last place (the same file given twice) are held together, whatever the order
    /// they finish in.
    @Test func candidatesTiedAtTheLastPlaceAreHeldTogether() {
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0]] {
            let keys: [Key] = [
                (verdict: .keep, score: 90, file: "a.wav"), (verdict: .keep, score: 50, file: "same.wav"),
                (verdict: .keep, score: 50, file: "same.wav"),
            ]
            let store = BellReport.HeldExcerpts(capacity: BellReport.Players.limit)
            var boxes = [BellReport.HeldExcerpt?](repeating: nil, count: 3)
            for filler in 0..<(BellReport.Players.limit - 2) {
                store.hold(Self.excerpt(), key: (verdict: .keep, score: 95, file: "better-\(filler).wav"))
            }
            for i in order {
                boxes[i] = Self.excerpt()
                store.hold(boxes[i]!, key: keys[i])
            }
            #expect(boxes.map { $0?.excerpt != nil } == [true, true, true], "\(order)")
            store.hold(Self.excerpt(), key: (verdict: .keep, score: 99, file: "best.wav"))
            #expect(boxes.map { $0?.excerpt != nil } == [true, false, false], "\(order): both let go together")
        }
    }

    /// 30 distinct bells and a −6 dB copy of each (a near-duplicate), reported three ways from one analysis each:
    /// every excerpt kept, the best 48 held, the best 24 held.
    static let reports: (all: String, held48: String, held24: String, made: (Int, Int)) = {
        let input = (0..<30).flatMap { k -> [(String, AudioBuffer)] in
            let partials = [1.0, 2.1, 3.3].enumerated().map { n, r in
                BellSignals.Partial((200 + Double(k * 29)) * r, 0.3 / Double(n + 1), t60: 1.5 + Double(k % 5) / 2)
            }
            let bell = BellSignals.bell(partials, seconds: 2 + Double(k % 4) / 4)
            return [("bell-\(k).wav", bell), ("bell-\(k) quieter.wav", BellSignals.scaled(bell, decibels: -6))]
        }
        let (store48, store24) = (BellReport.HeldExcerpts(capacity: 48), BellReport.HeldExcerpts(capacity: 24))
        typealias Sketches = (BellReport.Sketch?, BellReport.Sketch?, BellReport.Sketch?)
        let slots = Mutex([(BellAuditionResult, Sketches)?](repeating: nil, count: input.count))
        DispatchQueue.concurrentPerform(iterations: input.count) { i in
            let a = BellAudition.analyse(input[i].1, file: input[i].0, profile: .temple)
            let s = (
                BellReport.sketch(a), BellReport.sketch(a, holding: store48), BellReport.sketch(a, holding: store24)
            )
            slots.withLock { $0[i] = (a.result, s) }
        }
        let all = slots.withLock { $0.map { $0! } }
        let kept = Dictionary(uniqueKeysWithValues: all.map { ($0.0.file, $0.1) })
        let ranked = BellAuditionResult.ranked(all.map(\.0))
        func page(_ pick: (Sketches) -> BellReport.Sketch?) -> String {
            BellReport.html(ranked.map { (result: $0, kept: pick(kept[$0.file]!)) }, profile: .temple)
        }
        let made = (
            all.filter { $0.1.1?.sound?.excerpt != nil }.count, all.filter { $0.1.2?.sound?.excerpt != nil }.count
        )
        return (page { $0.0 }, page { $0.1 }, page { $0.2 }, made)
    }()

    /// The page without its `data:` URIs (each Ogg stream has a random serial number).
    static func withoutData(_ html: String) -> String {
        html.replacingOccurrences(of: "data:[^\"]*", with: "data:", options: .regularExpression)
    }

    /// With the best 48 of 60 held (at least 24 distinct sounds among them), the page is the one every excerpt
    /// kept makes, and only 48 excerpts are held at the end.
    @Test func thePageIsTheSameWhenTheBestHeldHoldEnoughDistinctSounds() {
        let (all, held48, _, made) = Self.reports
        #expect(made.0 == 48)
        #expect(Self.withoutData(held48) == Self.withoutData(all))
        #expect(held48.components(separatedBy: "src=\"data:audio/ogg;base64,").count - 1 == BellReport.Players.limit)
        #expect(!all.contains("The players were chosen among the best"))
    }

    /// With only the best 24 held, some of them near-duplicates, the players go to those 24 and the page says how
    /// many distinct sounds ranked lower were passed over.
    @Test func aPageWhoseBestHeldAreTooFewDistinctSoundsSaysSo() throws {
        let (all, _, held24, made) = Self.reports
        #expect(made.1 == 24)
        let players = held24.components(separatedBy: "src=\"data:audio/ogg;base64,").count - 1
        #expect(players == BellReport.Players.limit)
        #expect(Self.withoutData(held24) != Self.withoutData(all))
        let note = try #require(
            held24.components(separatedBy: "The players were chosen among the best 24 candidates").dropFirst().first?
                .components(separatedBy: "</p>").first)
        #expect(note.contains("fewer than 24 distinct sounds"), "\(note)")
        #expect(note.contains("ranked lower") && note.contains("by the command its card gives"), "\(note)")
    }
}
