import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// Where commands write. `convert`, `bells trim|normalize` and `loops bake` write a copy; given their own input as
/// OUT (the same path, a path spelled differently, a hard link) they refuse with exit 64 and leave the input byte for
/// byte as it was. Reports written after a batch go to a folder checked before the batch runs.
@Suite struct OutputPathsTests {
    @Test func commandsNeverWriteOverTheirInput() throws {
        let dir = ToolRunner.temporaryDirectory("distinct-out")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try ConvertCommandTests.source(in: dir)
        let original = try #require(FileManager.default.contents(atPath: input))
        try FileManager.default.linkItem(atPath: input, toPath: dir + "/hardlink.wav")
        let spellings = [input, dir + "/./source.wav", dir + "/hardlink.wav"]
        for command in [["convert"], ["bells", "trim"], ["bells", "normalize"], ["loops", "bake"]] {
            for output in spellings {
                let r = try ToolRunner.run("enso", command + [input, output])
                #expect(r.exitCode == 64, "\(command) → \(output): \(r.stderr)")
                #expect(
                    r.stderr.contains("\(output) is the input file \(input): OUT must be another file"), "\(r.stderr)")
                #expect(FileManager.default.contents(atPath: input) == original, "\(command) changed its input")
            }
        }
        // A distinct OUT is written as before.
        let copy = try ToolRunner.run("enso", ["convert", input, dir + "/copy.flac"])
        #expect(copy.exitCode == 0, "\(copy.stderr)")
    }

    @Test func reportsIntoAMissingFolderAreRefusedBeforeTheWork() throws {
        let dir = ToolRunner.temporaryDirectory("report-folder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try ConvertCommandTests.source(in: dir)
        let report = dir + "/missing/report.html"
        for command in [["loops", "verify"], ["bells", "audition"], ["assets", "check"]] {
            let target = command[0] == "assets" ? bundledAssets : input
            let r = try ToolRunner.run("enso", command + ["--html", report, target])
            #expect(r.exitCode == 64, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("--html \(report): the folder \(dir)/missing does not exist"), "\(r.stderr)")
            #expect(r.stdout.isEmpty, "\(command) ran before refusing: \(r.stdout)")
        }
    }

    /// A page or a selection written after the work never lands on what the command reads (an input named as the
    /// report, the pack's manifest, a results file), on any audio file, or on a folder: each is refused with exit 64
    /// before the work, naming the option, and the file is left byte for byte.
    @Test func reportsAndSelectionsNeverWriteOverAnInputOrAFolder() throws {
        let dir = ToolRunner.temporaryDirectory("report-over-input")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try ConvertCommandTests.source(in: dir)
        let other = dir + "/other.wav"
        try FileManager.default.copyItem(atPath: input, toPath: other)
        let results = dir + "/rows.jsonl"
        let rows = try ToolRunner.run("enso", ["loops", "verify", "--jsonl", input])
        try rows.stdout.write(toFile: results, atomically: true, encoding: .utf8)
        let pack = dir + "/pack"
        try FileManager.default.copyItem(atPath: bundledAssets, toPath: pack)
        let manifest = pack + "/manifest.json"
        let cases: [(args: [String], target: String, says: String)] = [
            (["bells", "audition", "--no-pack", input, "--html", input], input, "is the input file \(input)"),
            (["loops", "verify", input, "--html", dir + "/./source.wav"], input, "is the input file \(input)"),
            (["bells", "audition", "--no-pack", input, "--html", other], other, "is an audio file"),
            (["loops", "report", results, "--html", results], results, "is the input file \(results)"),
            (["assets", "check", pack, "--html", manifest], manifest, "is the input file \(manifest)"),
            (
                ["bells", "audition", "--no-pack", "--listen", "--output", "null", "--selection", input, input],
                input, "--selection \(input): is the input file"
            ),
        ]
        for c in cases {
            let before = try #require(FileManager.default.contents(atPath: c.target))
            let r = try ToolRunner.run("enso", c.args, stdin: "")
            #expect(r.exitCode == 64, "\(c.args): \(r.stderr)")
            #expect(r.stderr.contains(c.says), "\(c.args): \(r.stderr)")
            #expect(FileManager.default.contents(atPath: c.target) == before, "\(c.args) wrote over \(c.target)")
        }
        // A folder is refused before the work, with a file to name in it.
        let folder = try ToolRunner.run("enso", ["bells", "audition", "--no-pack", input, "--html", dir + "/"])
        #expect(folder.exitCode == 64, "\(folder.stderr)")
        #expect(folder.stderr.contains("is a folder; name the file to write in it (for example \(dir)/report.html)"))
        #expect(folder.stdout.isEmpty, "ran before refusing: \(folder.stdout)")
        // A report beside the inputs, written twice, is written both times.
        for _ in 0..<2 {
            let r = try ToolRunner.run("enso", ["loops", "verify", input, "--html", dir + "/report.html"])
            #expect(r.exitCode != 64, "\(r.stderr)")
        }
    }
}
