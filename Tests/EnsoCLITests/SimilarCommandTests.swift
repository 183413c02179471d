import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `enso bells similar` and `enso loops similar`: the ranking, the near-duplicates first, the JSON row, the exit
/// codes (docs/cli.md, docs/similarity.md).
@Suite struct SimilarCommandTests {
    let fixture = CLIFixture("similar")

    /// The `--json` row (docs/cli.md).
    struct Row: Decodable {
        struct Component: Decodable {
            var name: String
            var difference: Double
            var unit: String
            var jnd: Double
            var jnds: Double
        }
        struct RowError: Decodable {
            var code: String
            var message: String
            var file: String
        }
        var rank: Int
        var file: String
        var distance: Double?
        var nearDuplicate: Bool?
        var components: [Component]
        var error: RowError?
    }

    static let temple = BellSignals.templePartials

    /// The temple bell with every partial's frequency times `ratio` and T60 times `decay`.
    static func temple(ratio: Double = 1, decay: Double = 1) -> [BellSignals.Partial] {
        temple.map { BellSignals.Partial($0.frequency * ratio, $0.amplitude, t60: $0.t60 * decay) }
    }

    func write(_ b: AudioBuffer, _ name: String) throws -> String {
        let path = fixture.dir + "/" + name
        try AudioFileEncoder.write(b, to: path, options: EncodeOptions(format: .wav24))
        return path
    }

    @Test func bellsSimilarPutsEveryNearDuplicateAboveEveryOtherCandidate() throws {
        let ref = try write(BellSignals.bell(seconds: 3), "ref.wav")
        try FileManager.default.createDirectory(atPath: fixture.dir + "/c", withIntermediateDirectories: true)
        let cents3 = pow(2, 3.0 / 1200)
        let semitone = pow(2, 1.0 / 12)
        let near = [
            try write(BellSignals.scaled(BellSignals.bell(seconds: 3), decibels: -6), "c/quieter.wav"),
            try write(BellSignals.bell(Self.temple(ratio: cents3), seconds: 3), "c/detuned.wav"),
            try write(BellSignals.bell(seconds: 3, strike: 0.02), "c/padded.wav"),
        ]
        let far = [
            try write(BellSignals.bell(Self.temple(ratio: semitone), seconds: 3), "c/semitone.wav"),
            try write(BellSignals.bell(Self.temple(decay: 0.7), seconds: 3), "c/shorter.wav"),
            try write(BellSignals.twoNoteChime(), "c/chime.wav"),
        ]
        let r = try CLIFixture.succeeds(["bells", "similar", ref, fixture.dir + "/c", "--json"])
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        #expect(rows.map(\.rank) == Array(1...6))
        #expect(Set(rows.prefix(3).map(\.file)) == Set(near), "\(rows.map { ($0.file, $0.distance ?? -1) })")
        #expect(Set(rows.suffix(3).map(\.file)) == Set(far))
        #expect(rows.prefix(3).allSatisfy { $0.nearDuplicate == true && $0.distance! <= 1 })
        #expect(rows.suffix(3).allSatisfy { $0.nearDuplicate == false && $0.distance! > 1 })
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.distance! <= $1.distance! })
        // The semitone differs most in pitch; the shorter bell in its decay and the envelope that follows it.
        #expect(rows.first { $0.file.hasSuffix("semitone.wav") }?.components.first?.name == "pitch")
        let shorter = rows.first { $0.file.hasSuffix("shorter.wav") }?.components.map(\.name) ?? []
        #expect(shorter.contains("decay") && shorter.contains("envelope") && !shorter.contains("pitch"))
        #expect(rows.allSatisfy { $0.components.count <= 3 && !$0.components.isEmpty })

        let table = try CLIFixture.succeeds(["bells", "similar", ref, fixture.dir + "/c", "--top", "2"])
        #expect(table.stdout.contains("NEAR-DUPLICATE"))
        #expect(table.stdout.contains("6 candidates: 3 near-duplicates"))
        #expect(!table.stdout.contains("semitone.wav"))
    }

    @Test func referenceItselfIsNotRankedAndAnUnreadableCandidateExits2() throws {
        let ref = try write(BellSignals.bell(seconds: 2), "ref.wav")
        let other = try write(BellSignals.twoNoteChime(), "chime.wav")
        let r = try ToolRunner.run(
            "enso", ["bells", "similar", ref, fixture.dir, fixture.dir + "/missing.wav", "--json"])
        #expect(r.exitCode == 2, "\(r.stderr)")
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        #expect(rows.map(\.file) == [other, fixture.dir + "/missing.wav"])
        #expect(rows[1].error?.code == "not-found")
        #expect(r.stderr.contains("missing.wav"))
    }

    @Test func anUnreadableReferenceExits2AndBadUsage64() throws {
        let other = try write(BellSignals.twoNoteChime(), "chime.wav")
        let r = try ToolRunner.run("enso", ["bells", "similar", fixture.dir + "/nope.wav", other])
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("nope.wav"))
        #expect(try ToolRunner.run("enso", ["bells", "similar", other]).exitCode == 64)
        #expect(try ToolRunner.run("enso", ["loops", "similar", other, other, "--top", "0"]).exitCode == 64)
    }

    @Test func loopsSimilarRanksTexturesByBandsAndModulation() throws {
        let rate = 48_000
        let brown = LoopSignals.brownNoise(frames: 4 * rate, channels: 1, sampleRate: rate, seed: 3)
        let ref = try write(brown, "ref.wav")
        let quieter = try write(BellSignals.scaled(brown, decibels: -6), "quieter.wav")
        let pulsing = try write(LoopSignals.tremolo(brown, hz: 2, depth: 0.6), "pulsing.wav")
        let white = try write(
            SignalGenerator.buffer(
                SignalGenerator.whiteNoise(frames: 4 * rate, amplitude: 0.2, seed: 4), sampleRate: rate),
            "white.wav")
        let r = try CLIFixture.succeeds(["loops", "similar", ref, quieter, pulsing, white, "--json"])
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        #expect(rows.map(\.file).first == quieter)
        #expect(rows.map(\.nearDuplicate) == [true, false, false])
        #expect(rows.first { $0.file == pulsing }?.components.first?.name == "modulation")
        #expect(rows.first { $0.file == white }?.components.first?.name == "bandLevels")
    }
}
