import AudioTestSupport
import Foundation
import Testing

/// A folder that holds no audio (empty, text files only, one named `x.wav`) is an input problem that a batch
/// refuses before it reads a file: exit 2, the folder named with what it holds, no row. It had been a row "is a
/// directory, not an audio file", counted as a file (and, before issue 18 item 13, an empty selection that passed).
@Suite struct EmptySelectionTests {
    /// What every batch command says of a folder in which no audio file is found.
    static func message(_ folder: String, files: Int) -> String {
        let what =
            files == 0
            ? "it holds no files"
            : "none of its \(files) file\(files == 1 ? "" : "s") ends in .wav, .wave, .aif, .aiff, .aifc, .au, .flac, .ogg, .oga, .opus, .mp3, .m1a, .w64, .rf64 or .caf"
        return "Error: \(folder): the folder holds no audio files (\(what); folders are searched recursively)\n"
    }

    @Test func loopsVerifyNamesAFolderWithNoAudio() throws {
        let dir = try LoopsCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let empty = dir + "/x.wav"
        try FileManager.default.createDirectory(atPath: empty + "/notes", withIntermediateDirectories: true)
        let alone = try ToolRunner.run("enso", ["loops", "verify", empty])
        #expect(alone.exitCode == 2 && alone.stdout.isEmpty, "\(alone.stdout)")
        #expect(alone.stderr == Self.message(empty, files: 0))
        // Beside a good file, a batch of shards or rows: refused before any file is read, no row written.
        for options in [[], ["--jsonl"], ["--jsonl", "--shard", "1/2"]] {
            let mixed = try ToolRunner.run("enso", ["loops", "verify"] + options + [dir + "/good.wav", empty])
            #expect(mixed.exitCode == 2 && mixed.stdout.isEmpty, "\(options): \(mixed.stdout)")
            #expect(mixed.stderr == Self.message(empty, files: 0), "\(options)")
        }
        let json = try ToolRunner.run("enso", ["loops", "verify", "--json", empty])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: [String: String]]
        #expect(json.exitCode == 2 && object?["error"]?["code"] == "no-audio-files", "\(json.stdout)")
        #expect(object?["error"]?["file"] == empty)
        // Text files only, however deep: counted, and the endings looked for named.
        for file in ["notes/readme.txt", "list.csv"] {
            #expect(FileManager.default.createFile(atPath: empty + "/" + file, contents: Data("x".utf8)))
        }
        #expect(try ToolRunner.run("enso", ["loops", "verify", empty]).stderr == Self.message(empty, files: 2))
        let find = try ToolRunner.run("enso", ["loops", "find", empty])
        #expect(find.exitCode == 2 && find.stderr == Self.message(empty, files: 2), "\(find.stderr)")
    }

    @Test func bellsAuditionNamesAFolderWithNoAudio() throws {
        let dir = ToolRunner.temporaryDirectory("empty-bells")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let empty = dir + "/x.wav"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let r = try ToolRunner.run("enso", ["bells", "audition", "--no-pack", empty])
        #expect(r.exitCode == 2 && r.stdout.isEmpty, "\(r.stdout)")
        #expect(r.stderr == Self.message(empty, files: 0))
        #expect(FileManager.default.createFile(atPath: empty + "/notes.txt", contents: Data("x".utf8)))
        let text = try ToolRunner.run("enso", ["bells", "audition", "--no-pack", "--jsonl", empty])
        #expect(text.exitCode == 2 && text.stdout.isEmpty && text.stderr == Self.message(empty, files: 1))
    }
}
