import AudioTestSupport
import Foundation
import Testing

/// A folder that holds no audio (one named `x.wav`, say) is named with an error row and exit 2, never an empty
/// selection that passes (issue 18, item 13).
@Suite struct EmptySelectionTests {
    @Test func loopsVerifyNamesAFolderWithNoAudio() throws {
        let dir = try LoopsCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let empty = dir + "/x.wav"
        try FileManager.default.createDirectory(atPath: empty + "/notes", withIntermediateDirectories: true)
        let alone = try ToolRunner.run("enso", ["loops", "verify", empty])
        #expect(alone.exitCode == 2, "\(alone.stdout) \(alone.stderr)")
        #expect(alone.stderr.contains("Error: \(empty): is a directory"), "\(alone.stderr)")
        let mixed = try ToolRunner.run("enso", ["loops", "verify", dir + "/good.wav", empty])
        #expect(mixed.exitCode == 2)
        #expect(mixed.stdout.contains("2 files: 1 pass, 0 warn, 0 fail, 1 error"), "\(mixed.stdout)")
    }

    @Test func bellsAuditionNamesAFolderWithNoAudio() throws {
        let dir = ToolRunner.temporaryDirectory("empty-bells")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let empty = dir + "/x.wav"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let r = try ToolRunner.run("enso", ["bells", "audition", empty])
        #expect(r.exitCode == 2, "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains(empty), "\(r.stderr)")
    }
}
