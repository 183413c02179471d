import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `bells audition --pack DIR` (and inside a pack's folder): one definition of keep, the pack's (issue #48 §1). A
/// candidate the audition keeps alone but the pack would refuse is rejected for the pack, with the pack's reason
/// first; every keep of a pack audition is then added by `assets add`, also through `--listen` and `--selection`.
@Suite struct BellsPackTests {
    struct Row: Decodable {
        var file: String
        var verdict: String
        var reasons: [String]
        var score: Double?
    }

    /// A bell that rings long (falls 20 dB in 4 s: T60 12 s) and one that is a keep alone but falls 20 dB in 2 s,
    /// sooner than the pack's 3 s strike spacing.
    static func makeCandidates() throws -> String {
        let dir = ToolRunner.temporaryDirectory("bells-pack")
        let long = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 12) }
        try AudioFileEncoder.write(
            BellSignals.bell(long, seconds: 16), to: "\(dir)/long.wav", options: EncodeOptions(format: .wav24))
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 8), to: "\(dir)/short.wav", options: EncodeOptions(format: .wav24))
        return dir
    }

    static func rows(_ r: ToolRunner.Result) throws -> [String: Row] {
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        return Dictionary(uniqueKeysWithValues: rows.map { (($0.file as NSString).lastPathComponent, $0) })
    }

    @Test func aKeepThePackWouldRefuseIsRejectedForItAndEveryKeepIsAdded() throws {
        let dir = try Self.makeCandidates()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let alone = try Self.rows(ToolRunner.run("enso", ["bells", "audition", "--json", "--no-pack", dir]))
        #expect(alone["short.wav"]?.verdict == "keep" && alone["long.wav"]?.verdict == "keep")
        let pack = dir + "/pack"
        let judged = try ToolRunner.run("enso", ["bells", "audition", "--json", "--pack", pack, dir])
        #expect(judged.exitCode == 0, "\(judged.stderr)")
        let rows = try Self.rows(judged)
        let short = try #require(rows["short.wav"])
        #expect(short.verdict == "reject" && short.score == nil)
        // What decided it comes first, never rounded across the rule.
        #expect(short.reasons.first?.hasPrefix("pack bell-decay: ") == true, "\(short.reasons)")
        #expect(short.reasons.first?.contains("must ring at least 3 s") == true)
        #expect(rows["long.wav"]?.verdict == "keep")
        // Every keep (and fix) of the pack audition is added.
        let kept = rows.values.filter { $0.verdict == "keep" || $0.verdict == "fix" }.map(\.file)
        #expect(!kept.isEmpty)
        let add = try ToolRunner.run("enso", ["assets", "add", "--assets", pack] + kept)
        #expect(add.exitCode == 0, "\(add.stdout)\(add.stderr)")
        #expect(add.stdout.contains("\(kept.count) of \(kept.count) added"))
        // A profile other than the pack's is refused: the pack's report scores with its own.
        let profile = try ToolRunner.run("enso", ["bells", "audition", "--pack", pack, "--profile", "temple", dir])
        #expect(profile.exitCode == 64 && profile.stderr.contains("bowl"))
    }

    /// Inside a pack's folder the audition judges for that pack by default (and says so); `--no-pack` judges alone.
    @Test func insideAPacksFolderThePackIsTheDefault() throws {
        let dir = try Self.makeCandidates()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pack = dir + "/pack"
        let made = try ToolRunner.run("enso", ["assets", "add", "--assets", pack, dir + "/long.wav"])
        #expect(made.exitCode == 0, "\(made.stderr)")
        let inside = try ToolRunner.run(
            "enso", ["bells", "audition", "--json", dir + "/short.wav"], currentDirectory: pack + "/bells")
        #expect(try Self.rows(inside)["short.wav"]?.verdict == "reject")
        #expect(inside.stderr.contains("Judging for the pack in \(pack)"), "\(inside.stderr)")
        let alone = try ToolRunner.run(
            "enso", ["bells", "audition", "--json", "--no-pack", dir + "/short.wav"], currentDirectory: pack)
        #expect(try Self.rows(alone)["short.wav"]?.verdict == "keep")
    }

    /// The documented flow, `--listen` then `assets add --selection`, adds every bell kept by ear.
    @Test func theListenSelectionFlowAddsWhatWasKept() throws {
        let dir = try Self.makeCandidates()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pack = dir + "/pack"
        let selection = dir + "/selection.json"
        let listen = try ToolRunner.run(
            "enso",
            ["bells", "audition", "--pack", pack, "--listen", "--output", "null", "--selection", selection, dir],
            stdin: "k\nk\nk\nq\n")
        #expect(listen.exitCode == 0, "\(listen.stderr)")
        struct Selection: Decodable { var kept: [String] }
        let kept = try JSONDecoder().decode(
            Selection.self, from: try #require(FileManager.default.contents(atPath: selection))
        ).kept
        #expect(kept.map { ($0 as NSString).lastPathComponent } == ["long.wav"])
        let add = try ToolRunner.run("enso", ["assets", "add", "--assets", pack, "--selection", selection])
        #expect(add.exitCode == 0 && add.stdout.contains("1 of 1 added"), "\(add.stdout)\(add.stderr)")
    }
}
