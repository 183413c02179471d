import AssetPipeline
import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

// Hand-built signatures use the memberwise initialiser.
@testable import AudioDSP

/// The likeness distance, its near-duplicate threshold and the groups (docs/similarity.md), on hand-built
/// signatures, synthetic bell families and families made from the corpus's real bells and textures.
@Suite struct LikenessTests {
    /// The corpus (`../shared/corpus` as ``BellCorpus`` finds it, or `ENSO_CORPUS` for a work tree placed elsewhere).
    static let corpus: URL =
        ProcessInfo.processInfo.environment["ENSO_CORPUS"].map { URL(fileURLWithPath: $0) }
        ?? BellCorpus.root
    static var corpusPresent: Bool {
        FileManager.default.fileExists(atPath: corpus.appendingPathComponent("manifest.json").path)
    }

    // MARK: - Rules on hand-built signatures, on both sides of each JND

    static func bell(_ cents: [Double], levels: [Double]? = nil, decay: Double = 4) -> LikenessSignature {
        var s = LikenessSignature(kind: .struck, duration: 4)
        s.partials = zip(cents, levels ?? cents.map { _ in 0 }).map { .init(cents: $0, level: $1) }
        s.weakPartials = s.partials
        s.decay = [decay]
        s.envelope = [[0]]
        s.attack = 0.005
        return s
    }

    @Test func pitchWithinItsJNDIsANearDuplicateAndBeyondIsNot() {
        let a = Self.bell([0, 1200])
        #expect(LikenessDistance(a, Self.bell([4, 1204])).nearDuplicate)
        let apart = LikenessDistance(a, Self.bell([6, 1206]))
        #expect(!apart.nearDuplicate)
        #expect(apart.components.first?.name == "pitch")
        #expect(abs(apart.components.first!.difference - 6) < 1e-9)
    }

    @Test func partialLevelsAndDecayEachHaveTheirJND() {
        let a = Self.bell([0, 700], levels: [0, -6])
        #expect(LikenessDistance(a, Self.bell([0, 700], levels: [0, -6.8])).nearDuplicate)
        #expect(!LikenessDistance(a, Self.bell([0, 700], levels: [0, -8])).nearDuplicate)
        #expect(LikenessDistance(Self.bell([0], decay: 4), Self.bell([0], decay: 4.3)).nearDuplicate)
        #expect(!LikenessDistance(Self.bell([0], decay: 4), Self.bell([0], decay: 4.5)).nearDuplicate)
        let shorter = LikenessDistance(Self.bell([0], decay: 4), Self.bell([0], decay: 2.8))
        #expect(!shorter.nearDuplicate)
        #expect(shorter.components.first?.name == "decay")
    }

    @Test func cuesCombineAsTheRootOfTheirSquares() {
        // 4 cents (0.8 JND) and 0.7 dB (0.7 JND): each alone unheard, together 1.06 JND.
        let a = Self.bell([0], levels: [0])
        var b = Self.bell([4], levels: [0])
        b.envelope = [[-0.7]]
        let d = LikenessDistance(a, b)
        #expect(abs(d.distance - (0.8 * 0.8 + 0.7 * 0.7).squareRoot()) < 1e-9)
        #expect(!d.nearDuplicate)
    }

    @Test func texturesCompareBandLevelsAndModulation() {
        var a = LikenessSignature(kind: .texture, duration: 10)
        a.bandLevels = [0, -3, -10, -20]
        a.modulation = [[-20, -22, -25, -30]]
        a.modulationLevels = [0]
        var b = a
        b.bandLevels[2] = -10.8
        #expect(LikenessDistance(a, b).nearDuplicate)
        b.modulation[0][0] = -14
        #expect(LikenessDistance(a, b).components.first?.name == "modulation")
        #expect(!LikenessDistance(a, b).nearDuplicate)
    }

    /// Two loops of the same sounds at two tempos are two loops: the tempo of the pulse their events keep, 4 % a
    /// JND, read modulo an octave, and left out when either sound holds none.
    @Test func texturesCompareTheTempoOfTheirPulse() {
        var a = LikenessSignature(kind: .texture, duration: 10)
        a.bandLevels = [0, -3, -10, -20]
        a.modulation = [[-20, -22, -25, -30]]
        a.modulationLevels = [0]
        a.pulse = 0.6
        var b = a
        b.pulse = 0.6 * 1.03
        #expect(LikenessDistance(a, b).nearDuplicate)
        b.pulse = 0.6 * 1.05
        #expect(!LikenessDistance(a, b).nearDuplicate)
        #expect(LikenessDistance(a, b).components.first?.name == "tempo")
        // The half bar in one, the beat in the other: one tempo.
        b.pulse = 0.3
        #expect(LikenessDistance(a, b).nearDuplicate)
        b.pulse = nil
        #expect(LikenessDistance(a, b).nearDuplicate, "rain and a beat loop are told apart by their other cues")
    }

    /// The same two-bar groove at 80 and 100 bpm (its sounds, chords and bed the same): the band levels and the
    /// modulation spectrum cannot tell them apart (the loop curator's pair read 0.90 JND), the tempo does; at 81 bpm
    /// it is still the same sound.
    @Test func aGrooveAtAnotherTempoIsAnotherLoop() throws {
        let slow = LoopSignals.beatLoop(bars: 2, bpm: 80, sampleRate: 48_000, bed: 0.01, held: true, drone: 0)
        let fast = LoopSignals.beatLoop(bars: 2, bpm: 100, sampleRate: 48_000, bed: 0.01, held: true, drone: 0)
        let a = try #require(SeamMetrics.measureWithTexture(slow, loop: 0..<slow.frameCount).texture)
        let b = try #require(SeamMetrics.measureWithTexture(fast, loop: 0..<fast.frameCount).texture)
        let apart = LikenessDistance(a, b)
        #expect(!apart.nearDuplicate, "\(apart.components.map { "\($0.name) \($0.jnds)" })")
        // Without the tempo, their other cues stay within one JND: they were near-duplicates.
        let others = apart.components.filter { $0.name != "tempo" }.map { $0.jnds * $0.jnds }.reduce(0, +)
        #expect(others.squareRoot() <= 1, "\(apart.components.map { "\($0.name) \($0.jnds)" })")
        #expect(apart.components.first?.name == "tempo", "\(apart.components.map { "\($0.name) \($0.jnds)" })")
        // 81 bpm: 1.2 % faster, under the tempo's JND, and the same sound.
        let near = LoopSignals.beatLoop(bars: 2, bpm: 81, sampleRate: 48_000, bed: 0.01, held: true, drone: 0)
        let c = try #require(SeamMetrics.measureWithTexture(near, loop: 0..<near.frameCount).texture)
        let close = LikenessDistance(a, c)
        #expect(close.nearDuplicate, "\(close.components.map { "\($0.name) \($0.jnds)" })")
    }

    /// A loop plays as a cycle: started on another beat, between beats or anywhere, it is the same loop, and `--unique`
    /// keeps one. Its texture is read as it plays (``TextureSpectra/wrapFrames``), its modulation frame by frame.
    @Test func theRotationsOfAOneBarGrooveAreNearDuplicates() throws {
        let loop = LoopSignals.beatLoop(bars: 1, bpm: 100, sampleRate: 48_000, bed: 0.01, held: true, drone: 0)
        let a = try #require(SeamMetrics.measureWithTexture(loop, loop: 0..<loop.frameCount).texture)
        let beat = 28_800  // 0.6 s
        for shift in [beat, beat / 2 + 1_111, 3 * beat + 17, 61_234] {
            let turned = LoopSignals.rotated(loop, by: shift)
            let b = try #require(SeamMetrics.measureWithTexture(turned, loop: 0..<turned.frameCount).texture)
            let d = LikenessDistance(a, b)
            #expect(d.distance <= 0.5, "rotated \(shift): \(d.components.map { "\($0.name) \($0.jnds)" })")
        }
        // 2 bars at 140 bpm, 44.1 kHz: 151 200 samples, 295.3 half frames, so the frames read run 0.7 of a half
        // frame past one cycle; the envelope is taken over exactly one.
        let odd = LoopSignals.beatLoop(bars: 2, bpm: 140, sampleRate: 44_100, bed: 0.01, held: true, drone: 0)
        let c = try #require(SeamMetrics.measureWithTexture(odd, loop: 0..<odd.frameCount).texture)
        for shift in [18_900, 9_450 + 777, 3 * 18_900 + 5] {
            let turned = LoopSignals.rotated(odd, by: shift)
            let b = try #require(SeamMetrics.measureWithTexture(turned, loop: 0..<turned.frameCount).texture)
            let d = LikenessDistance(c, b)
            #expect(d.distance <= 0.5, "rotated \(shift): \(d.components.map { "\($0.name) \($0.jnds)" })")
        }
    }

    /// A loop and the same loop written twice over play the same: two textures are compared on the modulation rates
    /// both resolve, and a 1.92 s loop cannot resolve 0.5-1 Hz (its DFT bins are 0.52 Hz apart), which its copy holds.
    @Test func aLoopAndItsCopyPlayedTwiceAreNearDuplicates() throws {
        let loop = LoopSignals.beatLoop(bars: 1, bpm: 125, sampleRate: 48_000, bed: 0.01, held: false, drone: 0.05)
        let twice = AudioBuffer(
            channelData: [loop.withChannel(0) { Array($0) + Array($0) }], sampleRate: loop.sampleRate)
        let a = try #require(SeamMetrics.measureWithTexture(loop, loop: 0..<loop.frameCount).texture)
        let b = try #require(SeamMetrics.measureWithTexture(twice, loop: 0..<twice.frameCount).texture)
        #expect(a.modulation.allSatisfy { $0[0] == LikenessSignature.modulationFloor })
        #expect(b.modulation.contains { $0[0] > LikenessSignature.modulationFloor + 10 })
        let d = LikenessDistance(a, b)
        #expect(d.distance <= 0.5, "\(d.components.map { "\($0.name) \($0.jnds)" })")
    }

    /// A groove's tempo is its beat, whatever multiple of it the waveform repeats at: strokes 0.5 s apart in a
    /// figure of three (the waveform repeats every 1.5 s) and 0.75 s apart in a figure of four (3 s) are two tempos,
    /// 120 and 80 bpm, which the periods, an octave apart, hid.
    @Test func theTempoIsTheBeatNotTheFigure() throws {
        let three = LoopSignals.strokeFigure(strokes: 3, beat: 0.5, times: 4)
        let four = LoopSignals.strokeFigure(strokes: 4, beat: 0.75, times: 2)
        let a = try #require(SeamMetrics.measureWithTexture(three, loop: 0..<three.frameCount).texture)
        let b = try #require(SeamMetrics.measureWithTexture(four, loop: 0..<four.frameCount).texture)
        #expect(a.pulse == 0.5 && b.pulse == 0.75, "\(String(describing: a.pulse)), \(String(describing: b.pulse))")
        let tempo = try #require(LikenessDistance(a, b).components.first { $0.name == "tempo" })
        #expect(tempo.jnds > 5, "\(tempo)")
    }

    @Test func docsTableListsEveryComponentWithItsUnitAndJND() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/similarity.md"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }.map {
            $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let documented = rows.filter { $0.count >= 6 && ["struck", "texture"].contains($0[1]) }
        #expect(documented.map { $0[0] } == LikenessComponent.all.map { "`\($0.name)`" })
        for (row, c) in zip(documented, LikenessComponent.all) {
            #expect(row[1] == c.kind.rawValue && row[3] == c.unit && Double(row[4]) == c.jnd, "\(row)")
        }
    }

    // MARK: - Groups

    @Test func groupsFollowTheGivenOrderAndChainNearDuplicates() {
        // 0 ~ 2 (4 cents), 2 ~ 3 (4 cents), 0 and 3 are 8 cents apart: one group by the chain; 1 is its own.
        let sigs: [LikenessSignature?] = [
            Self.bell([0, 1200]), Self.bell([300, 1500]), Self.bell([4, 1204]), Self.bell([8, 1208]), nil,
        ]
        let g = LikenessGroups.group(sigs)
        #expect(g.map(\.group) == [1, 2, 1, 1, 3])
        #expect(g.map(\.groupRank) == [1, 1, 2, 3, 1])
    }

    @Test func blockingFindsTheSameGroupsAsComparingEveryPair() {
        var rng = SeededRandom(seed: 45)
        var sigs: [LikenessSignature?] = []
        for _ in 0..<300 {
            let root = Double(rng.next() % 40) * 30
            let spread = Double(rng.next() % 100) / 25
            sigs.append(
                Self.bell(
                    [root + spread, root + 1900 + spread],
                    levels: [0, -3 - Double(rng.next() % 10) / 10]))
        }
        let blocked = LikenessGroups.group(sigs).map(\.group)
        // Every pair, by brute force.
        var parent = Array(sigs.indices)
        func find(_ i: Int) -> Int { parent[i] == i ? i : find(parent[i]) }
        var quickDisagrees = 0
        for i in sigs.indices {
            for j in (i + 1)..<sigs.count {
                let near = LikenessDistance(sigs[i]!, sigs[j]!).nearDuplicate
                // The early-stopping answer grouping uses is the full distance's.
                if LikenessDistance.areNearDuplicates(sigs[i]!, sigs[j]!) != near { quickDisagrees += 1 }
                guard near else { continue }
                let (a, b) = (find(i), find(j))
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        #expect(quickDisagrees == 0)
        for i in sigs.indices {
            for j in (i + 1)..<sigs.count {
                #expect((find(i) == find(j)) == (blocked[i] == blocked[j]), "pair \(i), \(j)")
            }
        }
        #expect(Set(blocked).count > 20 && Set(blocked).count < 300)
    }

    // MARK: - Families

    static func check(_ members: [LikenessFamilies.Member], kind: LikenessSignature.Kind, label: String) throws {
        let sigs: [LikenessSignature?] = try members.map {
            try LikenessFile.signature($0.buffer, kind: kind, file: "\($0.family)/\($0.name)")
        }
        let groups = LikenessGroups.group(sigs).map(\.group)
        let (p, r) = LikenessFamilies.precisionRecall(members, groups: groups)
        print(String(format: "likeness %@: %d sounds, pair precision %.3f, recall %.3f", label, members.count, p, r))
        // Each mistake with the distance and the cues that made it, for the failure's message.
        let wrong = LikenessFamilies.mistakes(members, groups: groups) { i, j in
            let d = LikenessDistance(sigs[i]!, sigs[j]!)
            let cues = d.components.prefix(2).map { String(format: "%@ %.2f %@", $0.name, $0.difference, $0.unit) }
            return String(format: "%.2f JND: ", d.distance) + cues.joined(separator: ", ")
        }
        #expect(p >= 0.95, "precision \(p): \(wrong.prefix(8))")
        #expect(r >= 0.95, "recall \(r): \(wrong.prefix(8))")
    }

    /// A semitone up, a decay 30 % shorter and a different bell are each their own family.
    static func distinct(from base: AudioBuffer, family: String) throws -> [LikenessFamilies.Member] {
        [
            .init(
                family: family + " semitone", name: "+100 cents", buffer: try LikenessFamilies.detuned(base, cents: 100)
            ),
            .init(
                family: family + " shorter", name: "decay x0.7",
                buffer: LikenessFamilies.fasterDecay(base, factor: 0.7)),
        ]
    }

    @Test func syntheticBellFamiliesGroupAsAListenerWould() throws {
        let temple = BellSignals.bell(seconds: 4, sampleRate: 48_000)
        let bowl = BellSignals.bell(
            [.init(220, 0.3, t60: 5), .init(598, 0.12, t60: 4), .init(1110, 0.06, t60: 3)], seconds: 4,
            attack: 0.02, sampleRate: 48_000)
        let chime = BellSignals.bell(
            [.init(1047, 0.3, t60: 1.5), .init(2794, 0.1, t60: 1), .init(5200, 0.04, t60: 0.6)], seconds: 2,
            attack: 0.002, sampleRate: 48_000)
        var members: [LikenessFamilies.Member] = []
        for (name, b) in [("temple", temple), ("bowl", bowl), ("chime", chime)] {
            members += try LikenessFamilies.nearDuplicates(of: b, family: name)
            members += try Self.distinct(from: b, family: name)
        }
        try Self.check(members, kind: .struck, label: "synthetic bells")
    }

    static func corpusBuffer(_ file: String, seconds: Double? = nil) throws -> AudioBuffer {
        var b = try AudioFileDecoder.decode(path: corpus.appendingPathComponent(file).path).buffer
        if let seconds, b.duration > seconds {
            let n = Int(seconds * b.sampleRate.double)
            b = AudioBuffer(
                channelData: (0..<b.channels).map { c in b.withChannel(c) { Array($0.prefix(n)) } },
                sampleRate: b.sampleRate)
        }
        // At a peak of −1 dBFS, as a candidate is delivered: noise at −72 dBFS is then 71 dB under its peak.
        let peak = b.samples.map(abs).max() ?? 1
        return BellSignals.scaled(b, decibels: -1 - 20 * log10(Double(max(peak, 1e-9))))
    }

    @Test(.enabled(if: corpusPresent, "no corpus at ../shared/corpus (or ENSO_CORPUS)"))
    func corpusBellFamiliesGroupAsAListenerWould() throws {
        var members: [LikenessFamilies.Member] = []
        for id in ["gu-tubular-bells-c4", "pd-bell", "gc-buddhist-gong", "avl-bp-ridebell-2"] {
            let ext = id == "gc-buddhist-gong" ? "ogg" : "flac"
            let b = try Self.corpusBuffer("bells/bell-like/\(id).\(ext)", seconds: 3)
            members += try LikenessFamilies.nearDuplicates(of: b, family: id)
            members += try Self.distinct(from: b, family: id)
        }
        // Another bell of the same kind: the next tubular bell.
        members.append(
            .init(
                family: "gu-tubular-bells-g4", name: "original",
                buffer: try Self.corpusBuffer("bells/bell-like/gu-tubular-bells-g4.flac")))
        try Self.check(members, kind: .struck, label: "corpus bells")
    }

    @Test(.enabled(if: corpusPresent, "no corpus at ../shared/corpus (or ENSO_CORPUS)"))
    func corpusTextureFamiliesGroupAsAListenerWould() throws {
        var members: [LikenessFamilies.Member] = []
        for id in ["ufo-water", "ufo-smallfire", "ufo-wind-turbine"] {
            let b = try Self.corpusBuffer("loops/ambient/\(id).ogg", seconds: 6)
            members += try LikenessFamilies.nearDuplicates(of: b, family: id)
        }
        // Another water, another fire-like crackle: told apart.
        for id in ["ufo-water02", "ufo-waterfontain"] {
            members.append(
                .init(
                    family: id, name: "original", buffer: try Self.corpusBuffer("loops/ambient/\(id).ogg", seconds: 6)))
        }
        try Self.check(members, kind: .texture, label: "corpus textures")
    }
}
