import AudioTestSupport
import Foundation
import Testing

/// `enso convert` writes the audio and its loop sidecar both or neither, and removes temporaries a killed run left
/// (issue 18, item 11).
@Suite struct ConvertCommitTests {
    private func hidden(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.contains(".tmp-") }
    }

    @Test func aSidecarThatCannotBeWrittenLeavesNoAudio() throws {
        let dir = ToolRunner.temporaryDirectory("convert-both")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try InfoCommandTests.makeLoopedWAV(in: dir)
        let out = dir + "/out.flac"
        // The sidecar's name is taken by a folder, so it cannot be written.
        try FileManager.default.createDirectory(atPath: out + ".loop.json", withIntermediateDirectories: true)
        let r = try ToolRunner.run("enso", ["convert", input, out])
        #expect(r.exitCode == 1, "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("loop sidecar") && r.stderr.contains("\(out) was not written"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "the audio must not be left without its sidecar")
        #expect(hidden(dir).isEmpty, "\(hidden(dir))")
        // With the sidecar writable, both are written.
        try FileManager.default.removeItem(atPath: out + ".loop.json")
        let ok = try ToolRunner.run("enso", ["convert", input, out])
        #expect(ok.exitCode == 0, "\(ok.stderr)")
        #expect(
            FileManager.default.fileExists(atPath: out) && FileManager.default.fileExists(atPath: out + ".loop.json"))
    }

    @Test func temporariesOfAKilledRunAreRemoved() throws {
        let dir = ToolRunner.temporaryDirectory("convert-stale")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try InfoCommandTests.makeLoopedWAV(in: dir)
        let stale = dir + "/.out.wav.tmp-999999999-1234"
        writeTestFile(stale, Data(count: 4096))
        let r = try ToolRunner.run("enso", ["convert", input, dir + "/out.wav"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(hidden(dir).isEmpty, "\(hidden(dir))")
    }
}
