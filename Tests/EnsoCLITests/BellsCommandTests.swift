import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `enso bells audition|trim|normalize` end to end on synthesised bells written to a temporary folder.
@Suite struct BellsCommandTests {
    /// Writes the standard candidates in a new temporary folder named after `label` and returns the folder: two
    /// bell-like ones, a notification-like chime and, when `clipped`, a clipped bell.
    static func makeCandidates(_ label: String = "bells", clipped: Bool = true) throws -> String {
        let dir = ToolRunner.temporaryDirectory(label)
        let w = { (b: AudioBuffer, name: String) in
            try AudioFileEncoder.write(b, to: "\(dir)/\(name)", options: EncodeOptions(format: .wav24))
        }
        try w(BellSignals.bell(seconds: 8, channels: 2), "temple.wav")
        try w(BellSignals.bell(seconds: 8, beat: 1.2), "bowl.wav")
        try w(BellSignals.twoNoteChime(), "ding-dong.wav")
        if clipped { try w(BellSignals.clipped(BellSignals.bell(seconds: 6), gain: 12), "clipped.wav") }
        return dir
    }

    static func makeBadInputs(in dir: String) throws {
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: "\(dir)/broken.wav"))
        let silent = AudioBuffer(channels: .mono, frameCount: 48_000, sampleRate: .hz48000)
        try AudioFileEncoder.write(silent, to: "\(dir)/silent.wav", options: EncodeOptions(format: .wav16))
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 0.005), to: "\(dir)/short.wav", options: EncodeOptions(format: .wav16))
        var nan = BellSignals.bell(seconds: 2)
        nan[0, 100] = .nan
        try AudioFileEncoder.write(nan, to: "\(dir)/nan.wav", options: EncodeOptions(format: .wavf))
        let eight = AudioBuffer(
            channelData: Array(repeating: Array(BellSignals.bell(seconds: 2).channel(0)), count: 8),
            sampleRate: .hz48000)
        try AudioFileEncoder.write(eight, to: "\(dir)/eight.wav", options: EncodeOptions(format: .wav16))
    }

    struct Row: Decodable {
        var file: String
        var `class`: String?
        var verdict: String
        var defects: [String]
        var score: Double?
        var reasons: [String]
        var rank: Int
    }

    /// A folder is walked with the one table of audio endings (`AudioFileExtensions`), the one `loops verify DIR`
    /// uses: `.wave`, `.aifc` and `.au` files were skipped by `bells audition DIR` alone.
    @Test func aFolderWalkReadsEveryAudioEnding() throws {
        let dir = ToolRunner.temporaryDirectory("bells-endings")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // libsndfile reads a file by its header, whatever its name: WAV bytes stand in for each container here.
        for name in ["a.wav", "b.wave", "c.AIFC", "d.au"] {
            try AudioFileEncoder.write(
                BellSignals.bell(seconds: 2), to: "\(dir)/\(name)", options: EncodeOptions(format: .wav16))
        }
        let r = try ToolRunner.run("enso", ["bells", "audition", "--json", dir])
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        #expect(
            Set(rows.map { ($0.file as NSString).lastPathComponent }) == ["a.wav", "b.wave", "c.AIFC", "d.au"],
            "\(r.stderr)")
    }

    @Test func auditionRanksAndExplainsInJSON() throws {
        let dir = try Self.makeCandidates()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("enso", ["bells", "audition", "--json", dir])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        #expect(rows.count == 4)
        #expect(rows.map(\.rank) == [1, 2, 3, 4])
        let byName = Dictionary(uniqueKeysWithValues: rows.map { (($0.file as NSString).lastPathComponent, $0) })
        #expect(byName["temple.wav"]?.verdict == "keep" && byName["temple.wav"]?.class == "bell-like")
        #expect(byName["bowl.wav"]?.verdict == "keep")
        #expect(byName["ding-dong.wav"]?.verdict == "reject" && byName["ding-dong.wav"]?.class == "notification-like")
        #expect(byName["clipped.wav"]?.verdict == "reject" && byName["clipped.wav"]?.class == "bell-like")
        #expect(byName["clipped.wav"]?.defects.contains("clipping") == true && byName["clipped.wav"]?.score == nil)
        #expect(r.stdout.contains("\"score\": null"))
        #expect(rows[0].verdict == "keep" && rows[3].verdict == "reject")
        #expect(byName["ding-dong.wav"]?.reasons.first?.contains("falls 40 dB") == true)
    }

    @Test func tableCSVTopAndProfiles() throws {
        let dir = try Self.makeCandidates()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let table = try ToolRunner.run("enso", ["bells", "audition", dir])
        #expect(table.exitCode == 0)
        #expect(
            table.stdout.contains("VERDICT") && table.stdout.contains("CLASS")
                && table.stdout.contains("4 files: 2 keep, 0 fix, 0 listen, 2 reject, 0 error"))
        // Every file here holds a 400 ms block: no `-` in the LUFS column, and the line under the table says nothing
        // of one; a 0.2 s blip has none, and the line says why.
        #expect(!table.stdout.contains("none (-)"))
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 0.2), to: "\(dir)/blip.wav", options: EncodeOptions(format: .wav16))
        let short = try ToolRunner.run("enso", ["bells", "audition", "\(dir)/blip.wav", "\(dir)/bowl.wav"])
        let why = "; none (-) for a file shorter than one 400 ms block, or under the -70 LUFS gate throughout"
        #expect(short.stdout.contains(why), "\(short.stdout)")
        let csv = try ToolRunner.run("enso", ["bells", "audition", "--csv", "--top", "2", "--profile", "bowl", dir])
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines[0].hasPrefix("rank,file,verdict,class,score"))
        let profile = "\(dir)/mine.json"
        try Data(#"{"base": "chime", "weights": {"beating": 5}}"#.utf8).write(to: URL(fileURLWithPath: profile))
        let custom = try ToolRunner.run(
            "enso", ["bells", "audition", "--json", "--profile-file", profile, "\(dir)/bowl.wav"])
        #expect(custom.exitCode == 0)
        let bad = "\(dir)/bad.json"
        try Data(#"{"weights": {"decay": -1}}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let rejected = try ToolRunner.run("enso", ["bells", "audition", "--profile-file", bad, dir])
        #expect(rejected.exitCode == 64 && rejected.stderr.contains("weights.decay"))
        let usage = try ToolRunner.run("enso", ["bells", "audition", "--profile", "gong", dir])
        #expect(usage.exitCode == 64 && usage.stderr.contains("--profile"))
    }

    @Test func nothingPassingExitsOne() throws {
        let dir = try Self.makeCandidates()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("enso", ["bells", "audition", "\(dir)/ding-dong.wav", "\(dir)/clipped.wav"])
        #expect(r.exitCode == 1)
    }

    @Test func badInputsGetErrorRowsAndTheBatchCompletes() throws {
        let dir = try Self.makeCandidates()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.makeBadInputs(in: dir)
        let r = try ToolRunner.run("enso", ["bells", "audition", "--json", dir, "\(dir)/missing.wav"])
        #expect(r.exitCode == 2)
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        #expect(rows.count == 10)
        let byName = Dictionary(uniqueKeysWithValues: rows.map { (($0.file as NSString).lastPathComponent, $0) })
        let errors = byName.filter { $0.value.verdict == "error" }
        #expect(Set(errors.keys) == ["broken.wav", "silent.wav", "eight.wav", "missing.wav"])
        #expect(errors.values.allSatisfy { $0.class == nil })
        // A 5 ms sound is a notification, not an error; NaN samples are a reject defect of a measured sound.
        #expect(
            byName["short.wav"]?.class == "notification-like"
                && byName["short.wav"]?.reasons.first?.contains("5 ms") == true)
        #expect(byName["nan.wav"]?.verdict == "reject" && byName["nan.wav"]?.defects.contains("non-finite") == true)
        #expect(errors["eight.wav"]?.reasons.first?.contains("8 channels") == true)
        #expect(rows.filter { $0.verdict == "keep" }.count == 2)
        #expect(r.stderr.contains("broken.wav"))
    }

    @Test func trimAndNormalizeWriteAtomically() throws {
        let dir = ToolRunner.temporaryDirectory("bells-trim")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let raw = BellSignals.dcOffset(BellSignals.preRoll(BellSignals.bell(seconds: 6), seconds: 1.5), 0.02)
        try AudioFileEncoder.write(raw, to: "\(dir)/raw.wav", options: EncodeOptions(format: .wavf))
        let t = try ToolRunner.run("enso", ["bells", "trim", "\(dir)/raw.wav", "\(dir)/trimmed.wav"])
        #expect(t.exitCode == 0, "\(t.stderr)")
        // The line says what was cut and how large the offset was (2 % of full scale: −34 dBFS).
        #expect(t.stdout.contains("removed 1.490 s of pre-roll and a DC offset at -34 dBFS"), "\(t.stdout)")
        let trimmed = try AudioFileDecoder.decode(path: "\(dir)/trimmed.wav").buffer
        // 1.5 s of pre-roll cut to 10 ms: 1.49 s shorter, within one 24-bit rounding of a frame.
        #expect(abs(raw.duration - trimmed.duration - 1.49) < 0.001)
        let mean = trimmed.samples.reduce(0.0) { $0 + Double($1) } / Double(trimmed.samples.count)
        #expect(abs(mean) < 0.0005)
        let n = try ToolRunner.run(
            "enso", ["bells", "normalize", "--json", "--target", "-23", "\(dir)/raw.wav", "\(dir)/norm.flac"])
        #expect(n.exitCode == 0, "\(n.stderr)")
        let norm = try AudioFileDecoder.decode(path: "\(dir)/norm.flac").buffer
        let audition = try ToolRunner.run("enso", ["bells", "audition", "--json", "\(dir)/norm.flac"])
        let rows = try JSONDecoder().decode([Row].self, from: Data(audition.stdout.utf8))
        #expect(rows.first?.defects == [], "\(audition.stdout)")
        #expect(norm.frameCount == trimmed.frameCount)
        // Too loud a target: refused, nothing written.
        let loud = try ToolRunner.run(
            "enso", ["bells", "normalize", "--target", "-3", "\(dir)/raw.wav", "\(dir)/loud.wav"])
        #expect(loud.exitCode == 1 && loud.stderr.contains("dBTP"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/loud.wav"))
        // The error names the loudest target under the limit, and that target works.
        let suggested = try #require(
            loud.stderr.range(of: "the loudest it can be is about ").map {
                loud.stderr[$0.upperBound...].prefix { $0 != " " }
            })
        let retry = try ToolRunner.run(
            "enso", ["bells", "normalize", "--target", String(suggested), "\(dir)/raw.wav", "\(dir)/loudest.wav"])
        #expect(retry.exitCode == 0, "--target \(suggested): \(retry.stderr)")
        let missing = try ToolRunner.run("enso", ["bells", "trim", "\(dir)/nope.wav", "\(dir)/x.wav"])
        #expect(missing.exitCode == 2)
        // A format that cannot hold the bell's channels is bad usage, with advice that fits this command (it was
        // exit 1 and said "add --channels 2", an option only convert has).
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 2, channels: 3), to: "\(dir)/three.wav", options: EncodeOptions(format: .wav16))
        let mp3 = try ToolRunner.run("enso", ["bells", "trim", "\(dir)/three.wav", "\(dir)/three.mp3"])
        #expect(mp3.exitCode == 64 && mp3.stderr.contains("MP3 holds mono or stereo, not 3 channels"), "\(mp3.stderr)")
        #expect(mp3.stderr.contains("enso convert \(dir)/three.wav OUT --channels 2"), "\(mp3.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/three.mp3"))
        // Digital silence before a bell that carries the offset itself: the offset must not hide the pre-roll
        // (it did: removing the mean first turned the silence into a −34 dBFS step, and nothing was cut).
        let offsetBell = BellSignals.preRoll(BellSignals.dcOffset(BellSignals.bell(seconds: 6), 0.02), seconds: 1.5)
        try AudioFileEncoder.write(offsetBell, to: "\(dir)/offset.wav", options: EncodeOptions(format: .wavf))
        #expect(
            try ToolRunner.run("enso", ["bells", "trim", "\(dir)/offset.wav", "\(dir)/offset-t.wav"]).exitCode == 0)
        let cut = try AudioFileDecoder.decode(path: "\(dir)/offset-t.wav").buffer
        #expect(abs(offsetBell.duration - cut.duration - 1.49) < 0.001, "\(cut.duration)")
        let check = try ToolRunner.run("enso", ["bells", "audition", "--json", "\(dir)/offset-t.wav"])
        let checked = try JSONDecoder().decode([Row].self, from: Data(check.stdout.utf8))
        #expect(checked.first?.defects.contains("leading-silence") == false, "\(check.stdout)")
        #expect(checked.first?.defects.contains("dc-offset") == false, "\(check.stdout)")
    }

    /// `normalize` sets BS.1770-4 integrated loudness by default (what the audition reports as `integrated`);
    /// `--measure padded` and `--measure max-momentary` set the others.
    @Test func normalizeSetsTheChosenMeasure() throws {
        struct Loudness: Decodable { var integrated: Double?; var integratedPadded: Double?; var maxMomentary: Double? }
        struct Metrics: Decodable { var loudness: Loudness }
        struct Audited: Decodable { var metrics: Metrics }
        let dir = ToolRunner.temporaryDirectory("bells-measure")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 6), to: "\(dir)/raw.wav", options: EncodeOptions(format: .wavf))
        for (measure, read) in [
            (nil, \Loudness.integrated), ("padded", \Loudness.integratedPadded),
            ("max-momentary", \Loudness.maxMomentary),
        ] as [(String?, KeyPath<Loudness, Double?>)] {
            let out = "\(dir)/\(measure ?? "default").wav"
            let n = try ToolRunner.run(
                "enso",
                ["bells", "normalize", "--json", "--target", "-24"] + (measure.map { ["--measure", $0] } ?? []) + [
                    "\(dir)/raw.wav", out,
                ])
            #expect(n.exitCode == 0, "\(n.stderr)")
            #expect(n.stdout.contains("\"measure\": \"\(measure ?? "integrated")\""), "\(n.stdout)")
            let a = try ToolRunner.run("enso", ["bells", "audition", "--json", out])
            let row = try #require(try JSONDecoder().decode([Audited].self, from: Data(a.stdout.utf8)).first)
            let v = try #require(row.metrics.loudness[keyPath: read])
            #expect(abs(v + 24) <= 0.1, "\(measure ?? "integrated"): \(v)")
        }
        let bad = try ToolRunner.run(
            "enso", ["bells", "normalize", "--measure", "peak", "\(dir)/raw.wav", "\(dir)/x.wav"])
        #expect(bad.exitCode == 64 && bad.stderr.contains("--measure"))
    }

    /// An Ogg cut inside its last page (no end of stream) is measured, not refused: `info` says `truncated`, the audition flags
    /// `damaged-stream` (a reject) and still classes the sound.
    @Test func aDamagedStreamIsMeasuredAndFlagged() throws {
        let dir = ToolRunner.temporaryDirectory("bells-damaged")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AudioFileEncoder.write(
            BellSignals.bell(seconds: 4), to: "\(dir)/full.ogg", options: EncodeOptions(format: .ogg))
        let full = Array(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/full.ogg")))
        let magic = Array("OggS".utf8)
        let last = try #require((0..<(full.count - 4)).last { Array(full[$0..<($0 + 4)]) == magic })
        try Data(full[..<(last + 60)]).write(to: URL(fileURLWithPath: "\(dir)/cut.ogg"))
        let info = try ToolRunner.run("enso", ["info", "--json", "\(dir)/cut.ogg"])
        #expect(info.exitCode == 0 && info.stdout.contains("\"truncated\": true"), "\(info.stdout) \(info.stderr)")
        #expect(info.stderr.contains("truncated"))
        let text = try ToolRunner.run("enso", ["info", "\(dir)/cut.ogg"])
        #expect(text.stdout.contains("damaged   truncated"), "\(text.stdout)")
        let ok = try ToolRunner.run("enso", ["info", "--json", "\(dir)/full.ogg"])
        #expect(ok.stdout.contains("\"truncated\": false"))
        let a = try ToolRunner.run("enso", ["bells", "audition", "--json", "\(dir)/cut.ogg"])
        #expect(a.exitCode == 1, "\(a.stderr)")
        let row = try #require(try JSONDecoder().decode([Row].self, from: Data(a.stdout.utf8)).first)
        #expect(row.verdict == "reject" && row.defects.contains("damaged-stream") && row.class == "bell-like", "\(row)")
    }
}
