import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// `AssetPack.add`: normalise, store, check, and list in the manifest, or leave no trace.
@Suite struct AssetPackAddTests {
    static let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets").path

    /// A bundled bell re-encoded 9 dB quieter with 0.5 s of pre-roll, so adding it has to trim and normalise.
    func quietBell(_ id: String, in dir: String) throws -> String {
        let bell = try AudioFileDecoder.decode(path: Self.bundled + "/bells/\(id).flac").buffer
        let source = dir + "/\(id) (take 2).wav"
        try AudioFileEncoder.write(
            BellSignals.preRoll(BellSignals.scaled(bell, decibels: -9), seconds: 0.5), to: source,
            options: EncodeOptions(format: .wav24))
        return source
    }

    func addition(_ source: String, _ kind: AssetPack.Kind = .bell, id: String? = nil) -> AssetPack.Addition {
        let id = id ?? AssetPack.suggestedID(for: source)
        return AssetPack.Addition(
            source: source, kind: kind, id: id, displayName: AssetPack.suggestedDisplayName(for: id), licence: "CC0-1.0"
        )
    }

    @Test func idsAndNamesComeFromFileNames() {
        #expect(AssetPack.suggestedID(for: "/x/Temple Bell (take 2).WAV") == "temple-bell-take-2")
        #expect(AssetPack.suggestedID(for: "__bowl__.flac") == "bowl")
        // Latin letters keep their ASCII form ("Cloche Été" was `cloche-t`, "groß" `gro`); other scripts give no id.
        #expect(AssetPack.suggestedID(for: "Cloche Été.wav") == "cloche-ete")
        #expect(AssetPack.suggestedID(for: "Glocke groß, Smørrebrød.flac") == "glocke-gross-smorrebrod")
        #expect(AssetPack.suggestedID(for: "鐘.wav") == "")
        #expect(AssetPack.idProblem("")?.hasPrefix("is empty: the file's name holds no letter a–z") == true)
        #expect(AssetPack.idProblem("-bell") == "must be lower-case letters, digits and '-' (use --id)")
        #expect(AssetPack.idProblem("cloche-ete") == nil)
        #expect(AssetPack.suggestedDisplayName(for: "temple-bell-take-2") == "Temple Bell Take 2")
        #expect(AssetPack.suggestedDisplayName(forFile: "/x/temple-bell_take 2.wav") == "Temple Bell Take 2")
        #expect(AssetPack.suggestedDisplayName(forFile: "Cloche Été.flac") == "Cloche Été")
        #expect(AssetPack.suggestedDisplayName(forFile: "étoile du matin.flac") == "Étoile Du Matin")
    }

    @Test func goodBellsAreAddedToANewPackAndANotificationIsRejected() throws {
        let work = ToolRunner.temporaryDirectory("pack-add")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let bowl = try quietBell("singing-bowl", in: work)
        let temple = try quietBell("temple-bell", in: work)
        let chime = work + "/ding-dong.wav"
        try AudioFileEncoder.write(BellSignals.twoNoteChime(), to: chime, options: EncodeOptions(format: .wav16))
        let dir = work + "/my-pack"
        let results = try AssetPack.add([addition(bowl), addition(chime), addition(temple)], to: dir)
        #expect(results.map(\.status) == [.added, .rejected, .added])
        #expect(
            results[1].messages.contains { $0.contains("bell-audition") || $0.contains("bell-decay") },
            "\(results[1].messages)")
        let pack = try AssetPack.load(directory: dir)
        #expect(pack.name == "my-pack")
        #expect(pack.entries.map(\.id) == ["singing-bowl-take-2", "temple-bell-take-2"])
        for e in pack.entries {
            #expect(e.file == "bells/\(e.id).flac" && e.loop == nil && e.licence == "CC0-1.0")
            #expect(abs(e.loudness.integrated + 22) <= 0.1, "\(e.id): \(e.loudness.integrated) LUFS")
            #expect(e.command.contains("trim 0.49"), "\(e.command)")
        }
        // The stored pack passes `enso assets check`, and nothing else was left in the folder.
        let report = AssetCheck.run(directory: dir)
        #expect(report.verdict == .pass, "\(report.assets.flatMap(\.findings).filter { $0.status != .pass })")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/bells").sorted()
                == ["singing-bowl-take-2.flac", "temple-bell-take-2.flac"])
        #expect(!FileManager.default.fileExists(atPath: dir + "/soundscapes"))
    }

    /// A bell cut while it rings is rejected with each fact once: the audition's line lists the cut tail, and the
    /// `bell-defects` and `bell-tail` lines said it twice more (four lines for one cut).
    @Test func aCutBellIsRejectedSayingTheCutOnce() throws {
        let work = ToolRunner.temporaryDirectory("pack-add")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let cut = work + "/cut.wav"
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 1.5), to: cut, options: EncodeOptions(format: .wav24))
        let results = try AssetPack.add([addition(cut)], to: work + "/pack")
        #expect(results.map(\.status) == [.rejected])
        let messages = results[0].messages
        #expect(messages.contains { $0.contains("bell-audition:") && $0.contains("truncated-tail") }, "\(messages)")
        #expect(!messages.contains { $0.contains("bell-defects:") || $0.contains("bell-tail:") }, "\(messages)")
        #expect(messages.joined().components(separatedBy: "below its peak (decaying").count == 2, "\(messages)")
        // The findings themselves are all kept (for --json and the HTML report).
        let tail = results[0].findings.first { $0.check == "bell-tail" }
        #expect(tail?.status == .fail)
    }

    @Test func takenIdsAreRejectedUnlessReplaced() throws {
        let work = ToolRunner.temporaryDirectory("pack-add")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let dir = work + "/pack"
        let bowl = try quietBell("singing-bowl", in: work)
        #expect(try AssetPack.add([addition(bowl, id: "bowl")], to: dir).map(\.status) == [.added])
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))
        let again = try AssetPack.add([addition(bowl, id: "bowl")], to: dir)
        #expect(again.map(\.status) == [.rejected] && again[0].messages[0].contains("--replace"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json")) == before)
        let temple = try quietBell("temple-bell", in: work)
        #expect(try AssetPack.add([addition(temple, id: "bowl")], to: dir, replace: true).map(\.status) == [.added])
        let pack = try AssetPack.load(directory: dir)
        #expect(pack.entries.count == 1 && pack.entries[0].command.contains("temple-bell"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/bells") == ["bowl.flac"])
    }

    @Test func aSoundscapeKeepsItsLoopAndIsNormalisedByGain() throws {
        let work = ToolRunner.temporaryDirectory("pack-add")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let loop = LoopSignals.periodicNoise(
            period: 48_000 * 4, frames: 48_000 * 8, amplitude: 0.05, smoothingHz: 2_000, seed: 3)
        let source = work + "/soft rain.wav"
        try AudioFileEncoder.write(
            loop, to: source, options: EncodeOptions(format: .wav24, loops: [LoopRegion(start: 0, end: 48_000 * 4)]))
        let results = try AssetPack.add([addition(source, .soundscape)], to: work + "/pack")
        #expect(results.map(\.status) == [.added], "\(results.flatMap(\.messages))")
        let e = try #require(try AssetPack.load(directory: work + "/pack").entry(id: "soft-rain"))
        #expect(e.kind == .soundscape && e.file == "soundscapes/soft-rain.flac")
        #expect(e.loop == LoopRegion(start: 0, end: 48_000 * 4))
        #expect(abs(e.loudness.integrated + 30) <= 0.1)
    }

    /// A strike whose crack is far louder than its ring cannot reach the pack's −22 LUFS under −1 dBTP: rejected,
    /// and the message names the file and the pack's target (not a `bells normalize` option it cannot use here).
    @Test func aBellTooPeakyForThePackTargetIsRejectedNamingTheFile() throws {
        let work = ToolRunner.temporaryDirectory("pack-add")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let crack = BellSignals.bell([.init(310, 0.02, t60: 6), .init(3_100, 0.9, t60: 0.02)], seconds: 8)
        let source = work + "/cracked bell.wav"
        try AudioFileEncoder.write(crack, to: source, options: EncodeOptions(format: .wav24))
        let results = try AssetPack.add([addition(source)], to: work + "/pack")
        #expect(results.map(\.status) == [.rejected])
        let message = try #require(results.first?.messages.first)
        #expect(message.hasPrefix(source + ": cannot be normalised to the pack's -22 LUFS: "), "\(message)")
        #expect(message.contains("dBTP") && !message.contains("--"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: work + "/pack"))
    }

    @Test func unreadableFilesLeaveNoTrace() throws {
        let work = ToolRunner.temporaryDirectory("pack-add")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let garbage = work + "/garbage.wav"
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: garbage))
        let results = try AssetPack.add([addition(work + "/missing.wav"), addition(garbage)], to: work + "/pack")
        #expect(results.map(\.status) == [.error, .error])
        #expect(results[0].messages[0].contains("missing.wav") && results[1].messages[0].contains("garbage.wav"))
        #expect(!FileManager.default.fileExists(atPath: work + "/pack"))
        // A broken manifest is an error before anything is touched.
        try FileManager.default.createDirectory(atPath: work + "/broken", withIntermediateDirectories: true)
        try Data("{".utf8).write(to: URL(fileURLWithPath: work + "/broken/manifest.json"))
        #expect(throws: EnsoError.self) { try AssetPack.add([addition(garbage)], to: work + "/broken") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: work + "/broken") == ["manifest.json"])
    }
}
