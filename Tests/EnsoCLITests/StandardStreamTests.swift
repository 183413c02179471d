import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `-` as standard input or output (`info -`, `convert - OUT`, `convert IN - --format F`, `render -o -`), through
/// real pipes, and the one output-format rule of `render` and `convert`.
@Suite("standard streams and output formats")
struct StandardStreamTests {
    static let enso = ToolRunner.executablePath("enso")

    /// Runs `script` in bash with `$ENSO` set; pipes are the point.
    static func shell(_ script: String, in dir: String) throws -> ToolRunner.Result {
        try ToolRunner.run(
            "/bin/bash", ["-o", "pipefail", "-c", script], environment: ["ENSO": enso], currentDirectory: dir)
    }

    @Test func infoReadsStandardInput() throws {
        let dir = ToolRunner.temporaryDirectory("stdio")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try ConvertCommandTests.source(in: dir)
        let r = try Self.shell("cat '\(input)' | \"$ENSO\" info --json -", in: dir)
        #expect(r.exitCode == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(json.first?["file"] as? String == "-" && json.first?["frames"] as? Int == 44_100)
        #expect(json.first?["loops"] as? [[String: Int]] == [["start": 11_025, "end": 33_075]])
        // Twice is refused; nothing in is an unreadable input, and the message names '-', not a temporary file.
        #expect(try Self.shell("cat '\(input)' | \"$ENSO\" info - -", in: dir).exitCode == 64)
        let empty = try Self.shell("\"$ENSO\" info - </dev/null", in: dir)
        #expect(empty.exitCode == 2 && empty.stderr.contains("Error: -: standard input is empty"), "\(empty.stderr)")
        let notAudio = try Self.shell("echo hello | \"$ENSO\" info -", in: dir)
        #expect(
            notAudio.exitCode == 2 && notAudio.stderr.contains("Error: -") && !notAudio.stderr.contains("enso-stdin"),
            "\(notAudio.stderr)")
    }

    @Test func convertRoundTripsThroughPipes() throws {
        let dir = ToolRunner.temporaryDirectory("stdio")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try ConvertCommandTests.source(in: dir)
        // WAV in on stdin, FLAC through a pipe, WAV out on stdout, into a file: lossless all the way.
        let r = try Self.shell(
            "\"$ENSO\" convert - - --format flac < '\(input)' | \"$ENSO\" convert - - --format wav16 > back.wav",
            in: dir)
        #expect(r.exitCode == 0, "\(r.stderr)")
        // The result lines went to stderr: stdout carried the audio alone.
        #expect(r.stderr.contains("-: flac, 44100 Hz") && r.stderr.contains("-: wav16, 44100 Hz"), "\(r.stderr)")
        let back = try AudioFileDecoder.decode(path: dir + "/back.wav")
        #expect(back.buffer.samples == (try AudioFileDecoder.decode(path: input)).buffer.samples)
        // FLAC on a pipe has no sidecar for the loop: said, not silently lost. WAV carries it in its smpl chunk.
        #expect(back.info.loops.isEmpty && r.stderr.contains("the loop is dropped"), "\(r.stderr)")
        let wav = try Self.shell("\"$ENSO\" convert - - --format wav16 < '\(input)' > loop.wav", in: dir)
        #expect(wav.exitCode == 0, "\(wav.stderr)")
        #expect(try AudioFileDecoder.info(path: dir + "/loop.wav").loops == [LoopRegion(start: 11_025, end: 33_075)])
        try FileManager.default.removeItem(atPath: dir + "/loop.wav")
        // No file named '-' anywhere, no temporary left behind.
        #expect(!FileManager.default.fileExists(atPath: dir + "/-"))
        // Standard output without --format is bad usage, and writes nothing.
        let noFormat = try Self.shell("\"$ENSO\" convert '\(input)' -", in: dir)
        #expect(noFormat.exitCode == 64 && noFormat.stdout.isEmpty && noFormat.stderr.contains("needs --format"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["back.wav", "source.wav"])
    }

    @Test func renderWritesStandardOutput() throws {
        let dir = ToolRunner.temporaryDirectory("stdio")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let plan = "--bell '\(bell)' --sit 2s --strikes 1 --rate 8000 --ambient none"
        let r = try Self.shell("\"$ENSO\" render -o - --format flac \(plan) | \"$ENSO\" info --json -", in: dir)
        #expect(r.exitCode == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let file = try ToolRunner.run(
            "enso",
            ["render", "-o", dir + "/s.flac"] + [
                "--bell", bell, "--sit", "2s", "--strikes", "1", "--rate", "8000", "--ambient", "none",
            ])
        #expect(file.exitCode == 0, "\(file.stderr)")
        #expect(json.first?["format"] as? String == "FLAC")
        #expect(json.first?["frames"] as? Int64 == (try AudioFileDecoder.info(path: dir + "/s.flac")).frames)
        // A reader that stops early: enso ends quietly (exit 141, as sox) and leaves no temporary file behind.
        let tmp = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let cut = try ToolRunner.run(
            "/bin/bash",
            [
                "-c",
                "\"$ENSO\" render -o - --format wav16 \(plan.replacingOccurrences(of: "--sit 2s", with: "--sit 60s")) | head -c 100 >/dev/null; echo \"${PIPESTATUS[0]}\" >&2",
            ],
            environment: ["ENSO": Self.enso, "TMPDIR": tmp], currentDirectory: dir)
        #expect(cut.stderr == "141\n", "\(cut.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
    }

    @Test func oneOutputFormatRuleForRenderAndConvert() throws {
        let dir = ToolRunner.temporaryDirectory("formats")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let input = try ConvertCommandTests.source(in: dir)
        let plan = ["--bell", bell, "--sit", "2s", "--strikes", "1", "--ambient", "none"]
        func render(_ args: [String]) throws -> ToolRunner.Result {
            try ToolRunner.run("enso", ["render"] + args + plan)
        }
        func convert(_ args: [String]) throws -> ToolRunner.Result {
            try ToolRunner.run("enso", ["convert", input] + args)
        }
        // The extension picks the format, for both; mp3 included (libsndfile writes it).
        for (name, format) in [("r.mp3", "MPEG"), ("r.ogg", "OGG"), ("r.flac", "FLAC"), ("r.wav", "WAV")] {
            let r = try render(["-o", dir + "/" + name])
            #expect(r.exitCode == 0, "\(r.stderr)")
            #expect(try AudioFileDecoder.info(path: dir + "/" + name).format.uppercased().hasPrefix(format), "\(name)")
            let c = try convert([dir + "/c-" + name])
            #expect(c.exitCode == 0, "\(c.stderr)")
            #expect(
                try AudioFileDecoder.info(path: dir + "/c-" + name).format.uppercased().hasPrefix(format), "c-\(name)")
        }
        // Unknown or no extension: exit 64 for both (render used to write a WAV into it).
        for name in ["x.xyz", "noext"] {
            let r = try render(["-o", dir + "/" + name])
            #expect(r.exitCode == 64 && r.stderr.contains("cannot tell the format from"), "\(r.stderr)")
            #expect(try convert([dir + "/" + name]).exitCode == 64)
        }
        // A name that contradicts --format is refused; --format names the format of a name without one.
        #expect(try render(["-o", dir + "/y.flac", "--format", "wav16"]).exitCode == 64)
        #expect(try render(["-o", dir + "/y.audio", "--format", "flac24"]).exitCode == 0)
        #expect(try AudioFileDecoder.info(path: dir + "/y.audio").subtype == "PCM_24")
        // Opus at 44.1 kHz: exit 64 before any work, for both.
        let opus = try render(["-o", dir + "/z.opus", "--rate", "44100"])
        #expect(opus.exitCode == 64 && opus.stderr.contains("Opus holds 8, 12, 16, 24 or 48 kHz"), "\(opus.stderr)")
        #expect(try convert([dir + "/z.opus"]).exitCode == 64)
        #expect(try convert([dir + "/z.opus", "--rate", "48000"]).exitCode == 0)
        for name in ["x.xyz", "noext", "y.flac", "-"] {
            #expect(!FileManager.default.fileExists(atPath: dir + "/" + name), "\(name) was written")
        }
    }
}
