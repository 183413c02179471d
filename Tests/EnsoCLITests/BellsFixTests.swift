import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `enso bells fix PATH... --out DIR` (issue #48 §1): each candidate's own mends in one run, each row with its own
/// command; the fixed files then audition `keep`.
@Suite struct BellsFixTests {
    struct Row: Decodable {
        var file: String
        var output: String?
        var status: String
        var verdict: String
        var mends: [String]
        var command: String?
    }

    struct AuditionRow: Decodable {
        struct Defect: Decodable { var fix: String? }
        var file: String
        var verdict: String
        var defectDetails: [Defect]
    }

    @Test func eachCandidateGetsItsOwnMendsAndThenAuditionsKeep() throws {
        let dir = ToolRunner.temporaryDirectory("bells-fix")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = BellSignals.bell(seconds: 8)
        let w = { (b: AudioBuffer, name: String) in
            try AudioFileEncoder.write(b, to: "\(dir)/in/\(name)", options: EncodeOptions(format: .wav24))
        }
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try w(BellSignals.dcOffset(BellSignals.preRoll(bell, seconds: 1), 0.02), "late dc.wav")
        try w(BellSignals.scaled(bell, decibels: -30), "quiet.wav")
        try w(bell, "clean.wav")
        try w(BellSignals.clipped(bell, gain: 12), "clipped.wav")
        // The audition's rows name each file in their commands.
        let audition = try ToolRunner.run("enso", ["bells", "audition", "--json", "--no-pack", dir + "/in"])
        let before = try JSONDecoder().decode([AuditionRow].self, from: Data(audition.stdout.utf8))
        let fixes = before.flatMap { $0.defectDetails.compactMap(\.fix) }
        #expect(!fixes.isEmpty && fixes.allSatisfy { !$0.contains("IN OUT") }, "\(fixes)")
        #expect(
            fixes.contains("mkdir -p fixed && enso bells trim '\(dir)/in/late dc.wav' 'fixed/late dc.wav'"), "\(fixes)")

        let r = try ToolRunner.run(
            "enso", ["bells", "fix", "--json", "--no-pack", "--out", dir + "/out", dir + "/in"])
        #expect(r.exitCode == 1, "a reject is not fixed: \(r.stderr)")
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        let byName = Dictionary(uniqueKeysWithValues: rows.map { (($0.file as NSString).lastPathComponent, $0) })
        #expect(byName["late dc.wav"]?.status == "fixed" && byName["late dc.wav"]?.mends == ["trim"])
        #expect(
            byName["late dc.wav"]?.command == "enso bells trim '\(dir)/in/late dc.wav' '\(dir)/out/late dc.wav'")
        #expect(byName["quiet.wav"]?.status == "fixed" && byName["quiet.wav"]?.mends == ["trim", "normalize"])
        #expect(byName["quiet.wav"]?.command?.hasPrefix("enso bells normalize --target -20 ") == true)
        #expect(byName["clean.wav"]?.status == "unchanged" && byName["clean.wav"]?.output == nil)
        #expect(byName["clipped.wav"]?.status == "not-fixed")
        let written = try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted()
        #expect(written == ["late dc.wav", "quiet.wav"])
        // The fixed files are kept.
        let after = try ToolRunner.run("enso", ["bells", "audition", "--json", "--no-pack", dir + "/out"])
        let kept = try JSONDecoder().decode([AuditionRow].self, from: Data(after.stdout.utf8))
        #expect(kept.count == 2 && kept.allSatisfy { $0.verdict == "keep" }, "\(after.stdout.prefix(600))")
        // Usage: no --out, standard input (no name to write it under), or two inputs of one name.
        #expect(try ToolRunner.run("enso", ["bells", "fix", dir + "/in"]).exitCode == 64)
        let stdin = try ToolRunner.run("enso", ["bells", "fix", "--out", dir + "/o3", "-"])
        #expect(stdin.exitCode == 64 && stdin.stderr.contains("standard input"), "\(stdin.stderr)")
        try FileManager.default.createDirectory(atPath: dir + "/other", withIntermediateDirectories: true)
        try AudioFileEncoder.write(bell, to: "\(dir)/other/quiet.wav", options: EncodeOptions(format: .wav24))
        let twice = try ToolRunner.run(
            "enso", ["bells", "fix", "--out", dir + "/o2", dir + "/in/quiet.wav", dir + "/other/quiet.wav"])
        #expect(twice.exitCode == 64 && twice.stderr.contains("quiet.wav"))
        // The table's words: what a trim took off (the DC it found, never "0.000 s of pre-roll"), a reject's reason
        // said once, and `--out DIR/` written with one slash.
        let table = try ToolRunner.run("enso", ["bells", "fix", "--no-pack", "--out", dir + "/o4/", dir + "/in"])
        #expect(table.stdout.contains("removed 0.990 s of pre-roll and a DC offset at -34 dBFS"), "\(table.stdout)")
        #expect(!table.stdout.contains("0.000 s of pre-roll") && !table.stdout.contains("reject: reject"))
        #expect(table.stdout.contains("written to \(dir)/o4\n") || table.stdout.hasSuffix("written to \(dir)/o4"))
        let json = try ToolRunner.run(
            "enso", ["bells", "fix", "--json", "--no-pack", "--out", dir + "/o5/", dir + "/in"])
        #expect(!json.stdout.contains("o5//"), "\(json.stdout)")
    }

    /// Every command the audition prints runs as printed, pasted in a fresh folder (issue: they wrote into a
    /// `fixed/` nothing made, "the folder fixed does not exist"; a peaky bell's normalize was refused at the default
    /// target, which `bells fix` knew to lower; a file with NaN samples was offered a normalize that refuses it).
    @Test func theAuditionsFixCommandsRunAsPrintedInAFreshFolder() throws {
        let dir = ToolRunner.temporaryDirectory("bells-fix-pasted")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let bell = BellSignals.bell(seconds: 8)
        let w = { (b: AudioBuffer, name: String, format: EncodeFormat) in
            try AudioFileEncoder.write(b, to: "\(dir)/in/\(name)", options: EncodeOptions(format: format))
        }
        try w(BellSignals.dcOffset(BellSignals.preRoll(bell, seconds: 1), 0.02), "late dc.wav", .wav24)
        // A quiet bell with a sharp strike: its true peak over −1 dBTP, and over it again at −20 LUFS.
        var samples = Array(BellSignals.scaled(bell, decibels: -20).channel(0))
        let crest = samples.indices.max { samples[$0] < samples[$1] }!
        for k in 0..<48 { samples[crest - 24 + k] += 0.9 * Float(sin(Double.pi * Double(k) / 48)) }
        try w(AudioBuffer(channelData: [samples], sampleRate: .hz48000), "peaky.wav", .wav24)
        var nan = Array(BellSignals.scaled(bell, decibels: 6).channel(0))
        nan[5000] = .nan
        try w(AudioBuffer(channelData: [nan], sampleRate: .hz48000), "nan.wav", .wavf)
        let audition = try ToolRunner.run("enso", ["bells", "audition", "--json", "--no-pack", dir + "/in"])
        let rows = try JSONDecoder().decode([AuditionRow].self, from: Data(audition.stdout.utf8))
        let byName = Dictionary(uniqueKeysWithValues: rows.map { (($0.file as NSString).lastPathComponent, $0) })
        #expect(byName["nan.wav"]?.verdict == "reject" && byName["nan.wav"]?.defectDetails.count == 2)
        #expect(byName["nan.wav"]?.defectDetails.allSatisfy { $0.fix == nil } == true, "\(audition.stdout)")
        let peaky = try #require(byName["peaky.wav"], "\(audition.stdout)").defectDetails.compactMap(\.fix)
        #expect(peaky.count == 2, "\(peaky)")
        for fix in peaky {
            #expect(fix.contains("enso bells normalize --target -") && !fix.contains("--target -20 "), "\(fix)")
        }
        let enso = ToolRunner.executablePath("enso")
        let path =
            (enso as NSString).deletingLastPathComponent + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        var ran = 0
        for row in rows {
            for fix in row.defectDetails.compactMap(\.fix) {
                let fresh = dir + "/run\(ran)"
                try FileManager.default.createDirectory(atPath: fresh, withIntermediateDirectories: false)
                let r = try ToolRunner.run(
                    "/bin/sh", ["-c", fix], environment: ["PATH": path], currentDirectory: fresh)
                #expect(r.exitCode == 0, "\(fix): \(r.stderr)")
                let out = fresh + "/fixed/" + (row.file as NSString).lastPathComponent
                #expect(FileManager.default.fileExists(atPath: out), "\(fix)")
                ran += 1
            }
        }
        #expect(ran == 4, "late dc.wav's two (trim), peaky.wav's two (true-peak, too-quiet: normalize)")
    }

    /// A channel defect is mended as its own `fix` says (issue #43 §4): an inverted channel inverted back, a dead one
    /// replaced by the live one; the mended files then audition `keep`.
    @Test func channelDefectsAreMendedAsTheirFixSays() throws {
        let dir = ToolRunner.temporaryDirectory("bells-fix-channels")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let mono = Array(BellSignals.bell(seconds: 8).channel(0))
        let stereo = { (right: [Float], name: String) in
            try AudioFileEncoder.write(
                AudioBuffer(channelData: [mono, right], sampleRate: SampleRate(checked: 48_000)),
                to: "\(dir)/in/\(name)",
                options: EncodeOptions(format: .wav24))
        }
        try stereo(mono.map { -$0 }, "inverted.wav")
        try stereo([Float](repeating: 0, count: mono.count), "dead.wav")
        let r = try ToolRunner.run("enso", ["bells", "fix", "--json", "--no-pack", "--out", dir + "/out", dir + "/in"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        let byName = Dictionary(uniqueKeysWithValues: rows.map { (($0.file as NSString).lastPathComponent, $0) })
        #expect(byName["inverted.wav"]?.mends.first == "invert-channel", "\(r.stdout)")
        #expect(byName["inverted.wav"]?.command?.hasPrefix("enso convert ") == true)
        #expect(byName["inverted.wav"]?.command?.contains("--invert-channel 2") == true)
        #expect(byName["dead.wav"]?.mends.first == "use-channel", "\(r.stdout)")
        #expect(byName["dead.wav"]?.command?.contains("--use-channel 1") == true)
        let after = try ToolRunner.run("enso", ["bells", "audition", "--json", "--no-pack", dir + "/out"])
        let kept = try JSONDecoder().decode([AuditionRow].self, from: Data(after.stdout.utf8))
        #expect(kept.count == 2 && kept.allSatisfy { $0.verdict == "keep" }, "\(after.stdout.prefix(800))")
    }

    /// Removing a DC offset can raise the true peak over the −1 dBTP limit: the offset held the loud side of a
    /// lopsided waveform down. What the mended sound then asks for (normalize) is done too, and says why, so the
    /// file is kept; before, it came back `fix` ("true peak -0.96 dBTP").
    @Test func aTruePeakThatRemovingTheDCRevealsIsMendedToo() throws {
        let dir = ToolRunner.temporaryDirectory("bells-fix-revealed")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        // A bell whose strike dips further than it rises (a 1 ms pulse on its deepest trough), its trough at −0.9
        // (−0.9 dBFS), then raised by an offset of 0.05: the trough reads −0.85, the crest lower still.
        var samples = Array(BellSignals.bell(seconds: 8).channel(0))
        let trough = samples.indices.min { samples[$0] < samples[$1] }!
        for k in 0..<48 where trough - 24 + k >= 0 {
            samples[trough - 24 + k] -= 0.3 * Float(sin(Double.pi * Double(k) / 48))
        }
        let scale = 0.9 / -samples.min()!
        let lopsided = AudioBuffer(channelData: [samples.map { $0 * scale }], sampleRate: SampleRate(checked: 48_000))
        try AudioFileEncoder.write(
            BellSignals.dcOffset(lopsided, 0.05), to: dir + "/in/offset.wav", options: EncodeOptions(format: .wav24))
        let audition = try ToolRunner.run("enso", ["bells", "audition", "--json", "--no-pack", dir + "/in"])
        let before = try JSONDecoder().decode([AuditionRow].self, from: Data(audition.stdout.utf8))
        #expect(
            before.map(\.defectDetails.count) == [1] && audition.stdout.contains("\"dc-offset\""), "\(audition.stdout)")
        let r = try ToolRunner.run("enso", ["bells", "fix", "--json", "--no-pack", "--out", dir + "/out", dir + "/in"])
        #expect(r.exitCode == 0, "\(r.stdout) \(r.stderr)")
        let row = try #require(try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8)).first)
        #expect(row.mends == ["trim", "normalize"], "\(r.stdout)")
        #expect(r.stdout.contains("true-peak once trimmed (DC removed)"), "\(r.stdout)")
        let after = try ToolRunner.run("enso", ["bells", "audition", "--json", "--no-pack", dir + "/out"])
        let kept = try JSONDecoder().decode([AuditionRow].self, from: Data(after.stdout.utf8))
        #expect(kept.map(\.verdict) == ["keep"], "\(after.stdout.prefix(600))")
    }

    /// A bell too peaky for the target (a quiet recording of a sharp strike) is made as loud as it can be under the
    /// true-peak limit, says so, and is then kept: `bells fix` mends every `fix` candidate, not one in five.
    @Test(.enabled(if: LoopCorpus.path != nil, "needs the corpus (ENSO_CORPUS)"))
    func aPeakyBellIsMadeAsLoudAsItsPeakAllows() throws {
        let corpus = try #require(LoopCorpus.path)
        let dir = ToolRunner.temporaryDirectory("bells-fix-peaky")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = corpus + "/bells/defects/defect-quiet40-gu.flac"
        let r = try ToolRunner.run("enso", ["bells", "fix", "--json", "--no-pack", "--out", dir, file])
        #expect(r.exitCode == 0, "\(r.stdout) \(r.stderr)")
        let row = try #require(try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8)).first)
        #expect(row.status == "fixed" && row.mends == ["trim", "normalize"], "\(r.stdout)")
        // The command gives the level reached, not the target it could not reach.
        let command = try #require(row.command)
        #expect(
            command.hasPrefix("enso bells normalize --target -2") && !command.contains("--target -20 "), "\(command)")
        let after = try ToolRunner.run("enso", ["bells", "audition", "--json", "--no-pack", dir])
        let kept = try JSONDecoder().decode([AuditionRow].self, from: Data(after.stdout.utf8))
        #expect(kept.map(\.verdict) == ["keep"], "\(after.stdout.prefix(600))")
    }

    /// `bells normalize` without `--target` uses the pack's target inside a pack's folder, and says why not outside.
    @Test func normalizeDefaultsToThePacksTargetOrSaysWhyNot() throws {
        let dir = ToolRunner.temporaryDirectory("bells-normalize-pack")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = BellSignals.bell(seconds: 8)
        try AudioFileEncoder.write(bell, to: "\(dir)/b.wav", options: EncodeOptions(format: .wav24))
        let alone = try ToolRunner.run(
            "enso", ["bells", "normalize", "--json", "\(dir)/b.wav", "\(dir)/b-20.wav"], currentDirectory: dir)
        #expect(alone.exitCode == 0 && alone.stderr.contains("no pack here"), "\(alone.stderr)")
        let pack = dir + "/pack"
        // A pack of one bell that rings long enough for it (falls 20 dB in 4 s).
        let long = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude, t60: 12) }
        try AudioFileEncoder.write(
            BellSignals.bell(long, seconds: 16), to: "\(dir)/long.wav", options: EncodeOptions(format: .wav24))
        let made = try ToolRunner.run("enso", ["assets", "add", "--assets", pack, "\(dir)/long.wav"])
        #expect(made.exitCode == 0, "\(made.stdout)\(made.stderr)")
        let inside = try ToolRunner.run(
            "enso", ["bells", "normalize", "--json", "\(dir)/b.wav", "\(dir)/b-22.wav"], currentDirectory: pack)
        #expect(inside.exitCode == 0 && inside.stderr.contains("the pack's"), "\(inside.stderr)")
        struct Report: Decodable { var loudness: Double? }
        let loudness = try JSONDecoder().decode(Report.self, from: Data(inside.stdout.utf8)).loudness
        #expect(abs((loudness ?? 0) - -22) < 0.2, "\(inside.stdout)")
    }
}
