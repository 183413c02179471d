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
}
