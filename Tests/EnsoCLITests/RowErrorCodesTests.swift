import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// A file that cannot be read gets the same error object in every command's rows (docs/cli.md, "The error object"):
/// the `ErrorDetail`'s word (`not-found`, `empty`), never the coarser kind (`unavailable`, `invalid-input`) one
/// command gave and the others did not, and a message that names the file.
@Suite struct RowErrorCodesTests {
    @Test func everyBatchCommandNamesAnUnreadableFileAlike() throws {
        let dir = ToolRunner.temporaryDirectory("row-error-codes")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = dir + "/nope.wav"
        let empty = dir + "/empty.wav"
        FileManager.default.createFile(atPath: empty, contents: Data())
        let reference = try ConvertCommandTests.source(in: dir)
        let commands = [
            ["info"], ["loops", "verify"], ["bells", "audition", "--no-pack"], ["bells", "similar", reference],
        ]
        for command in commands {
            let r = try ToolRunner.run("enso", command + ["--json", missing, empty])
            #expect(r.exitCode == 2, "\(command): \(r.stderr)")
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], "\(command)")
            var codes: [String: String] = [:]
            for row in rows {
                let error = try #require(row["error"] as? [String: Any], "\(command): \(row)")
                let file = try #require(error["file"] as? String)
                codes[file] = error["code"] as? String
                let message = try #require(error["message"] as? String)
                #expect(message.hasPrefix(file + ": "), "\(command): \(message)")
            }
            #expect(codes == [missing: "not-found", empty: "empty"], "\(command): \(codes)")
        }
    }

    /// A file that decodes but cannot be auditioned (silent) keeps its reason in the table's column and names the
    /// file in its error object, as an unreadable one does.
    @Test func aSilentBellsRowNamesItsFile() throws {
        let dir = ToolRunner.temporaryDirectory("row-error-silent")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let silent = dir + "/silent.wav"
        try AudioFileEncoder.write(
            AudioBuffer(channelData: [[Float](repeating: 0, count: 44_100)], sampleRate: SampleRate(checked: 44_100)),
            to: silent, options: EncodeOptions(format: .wav16))
        let r = try ToolRunner.run("enso", ["bells", "audition", "--no-pack", "--json", silent])
        #expect(r.exitCode == 2, "\(r.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let error = try #require(rows.first?["error"] as? [String: Any])
        #expect(error["message"] as? String == "\(silent): silent: no sample above −60 dBFS")
        #expect((rows.first?["reasons"] as? [String]) == ["silent: no sample above −60 dBFS"])
    }
}
