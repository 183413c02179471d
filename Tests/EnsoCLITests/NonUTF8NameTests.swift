import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// A file whose name is not UTF-8 (a Latin-1 `ß`, byte 0xDF, from an old archive) was left out of a folder's batch
/// without a word: Foundation's walk gives its name with U+FFFD, which no file has. It is now a row of its own that
/// says why it cannot be read (exit 2), beside the files that can.
@Suite struct NonUTF8NameTests {
    /// A folder holding `good.wav` and the same sound under a Latin-1 name; the name as Enso shows it.
    static func folder() throws -> (dir: String, shown: String) {
        let dir = try LoopsCommandTests.makeFolder()
        try? FileManager.default.removeItem(atPath: dir + "/broken.wav")
        try? FileManager.default.removeItem(atPath: dir + "/sub")
        try FileManager.default.copyItem(atPath: dir + "/good.wav", toPath: dir + "/copy.wav")
        let latin1 = Array("\(dir)/gro".utf8) + [0xDF] + Array(".wav".utf8) + [0]
        let renamed = latin1.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { rename(dir + "/copy.wav", $0.baseAddress!) }
        }
        #expect(renamed == 0)
        return (dir, dir + "/gro\u{FFFD}.wav")
    }

    @Test func aFolderBatchGivesTheNameItsOwnRow() throws {
        let (dir, shown) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for command in [["loops", "verify"], ["bells", "audition", "--no-pack"]] {
            let r = try ToolRunner.run("enso", command + ["--json", dir])
            #expect(r.exitCode == 2, "\(command): \(r.stderr)")
            let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(rows.count == 2, "\(command): \(r.stdout)")
            let error = rows.first { ($0["file"] as? String) == shown }?["error"] as? [String: String]
            #expect(error?["code"] == "not-found", "\(command): \(r.stdout)")
            let said = "\(shown): no file by that name: its name on disk, or a folder's on its path, is not UTF-8"
            #expect(error?["message"]?.hasPrefix(said) == true, "\(command): \(error?["message"] ?? "")")
            #expect(rows.contains { ($0["file"] as? String) == dir + "/good.wav" && $0["error"] is NSNull })
        }
    }
}
