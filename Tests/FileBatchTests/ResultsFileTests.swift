import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import FileBatch

/// ``ResultsFile`` and ``ResumeIndex``: rows read back whole, torn and foreign lines named and skipped, resumes
/// refused for rows of another version or other settings.
@Suite struct ResultsFileTests {
    struct Row: Codable, Sendable, Equatable {
        var file: String
        var verdict: String
    }

    let dir = ToolRunner.temporaryDirectory("results")

    func line(_ file: String, settings: [String: String] = ["profile": "temple"], enso: String = "0.2.0") throws
        -> String
    {
        let envelope = ResultEnvelope(
            command: "bells audition", enso: enso, settings: settings, root: "bells", relativePath: file,
            identity: ContentIdentity(size: 10, modified: "2026-01-01T00:00:00.000000000Z", hash: "00000000000000ab"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(
            decoding: try ResultLine(envelope: envelope, row: Row(file: "bells/" + file, verdict: "keep"))
                .bytes(using: encoder), as: UTF8.self)
    }

    @Test func aLineIsOneFlatObject() throws {
        let text = try line("a.wav")
        #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1)
        #expect(
            text
                == #"{"command":"bells audition","enso":"0.2.0","file":"bells/a.wav","identity":{"hash":"00000000000000ab","modified":"2026-01-01T00:00:00.000000000Z","size":10},"realPath":null,"relativePath":"a.wav","root":"bells","settings":{"profile":"temple"},"verdict":"keep"}"#
                + "\n")
    }

    @Test func tornAndForeignLinesAreNamedAndSkipped() throws {
        let path = dir + "/r.jsonl"
        let torn = String(try line("c.wav").prefix(40))
        let text =
            try line("a.wav") + "not json\n" + "\n" + #"{"command":"loops verify","enso":"0.2.0"}"# + "\n"
            + line("b.wav").replacingOccurrences(of: #""verdict":"keep""#, with: #""verdict":3"#) + line("d.wav")
            + torn
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var warnings: [String] = []
        var rows: [(Row, Int)] = []
        let summary = try ResultsFile.read(
            path, command: "bells audition", as: Row.self, decoder: { JSONDecoder() }, warn: { warnings.append($0) }
        ) { line, number in rows.append((line.row, number)) }
        #expect(rows.map(\.0.file) == ["bells/a.wav", "bells/d.wav"] && rows.map(\.1) == [1, 6])
        #expect(summary.rows == 2 && summary.skipped == 4 && summary.endsInsideLine && summary.notRows == 2)
        #expect(warnings.count == 3)
        #expect(warnings[0].hasPrefix("\(path):2: not a result row of `enso bells audition --jsonl` (not JSON)"))
        #expect(warnings[1].hasPrefix("\(path):5: not a result row") && warnings[1].contains("\"verdict\""))
        #expect(warnings[2] == "\(path):7: an incomplete last line (a run stopped while writing it): skipped")
        // Another command's rows are counted, for the reader to say once, not named one by one.
        #expect(summary.otherCommands == ["loops verify": .init(count: 1, firstLine: 4, lastLine: 4)])
        #expect(summary.otherCommandsNote(lines: true) == "1 line is a loops verify row, line 4")
    }

    /// A file of another command's rows (a `bells audition --jsonl` output given to `loops report`) is one note,
    /// not a warning a line; a file that is no results file has its first lines that are not rows named, then a
    /// count.
    @Test func anotherCommandsRowsAreCountedAndLinesNotRowsNamedAFewAtATime() throws {
        let path = dir + "/r.jsonl"
        try Data((try (0..<300).map { try line("\($0).wav") }.joined() + "x\n").utf8).write(
            to: URL(fileURLWithPath: path))
        var warnings: [String] = []
        let summary = try ResultsFile.read(
            path, command: "loops verify", as: Row.self, decoder: { JSONDecoder() }, warn: { warnings.append($0) }
        ) { _, _ in Issue.record("a row of another command read as a row") }
        #expect(summary.rows == 0 && summary.skipped == 301 && summary.notRows == 1)
        #expect(warnings == ["\(path):301: not a result row of `enso loops verify --jsonl` (not JSON): skipped"])
        #expect(
            summary.otherCommandsNote(lines: false) { $0 == "bells audition" ? "enso bells rank" : nil }
                == "300 lines are bells audition rows: use enso bells rank")
        #expect(summary.otherCommandsNote(lines: true) == "300 lines are bells audition rows, lines 1-300")

        let garbage = dir + "/g.jsonl"
        try Data(String(repeating: "RIFF\n", count: 8).utf8).write(to: URL(fileURLWithPath: garbage))
        warnings = []
        let junk = try ResultsFile.read(
            garbage, command: "bells audition", as: Row.self, decoder: { JSONDecoder() },
            warn: { warnings.append($0) }
        ) { _, _ in }
        #expect(junk.notRows == 8 && warnings.count == ResultsFile.namedLines + 1)
        #expect(
            warnings.last
                == "\(garbage): 3 more lines that are not result rows of `enso bells audition --jsonl`: skipped")
    }

    @Test func resumeKnowsTheRowsAndWhetherTheFileEndsInsideALine() throws {
        let path = dir + "/r.jsonl"
        try Data((try line("a.wav") + line("b.wav").prefix(30)).utf8).write(to: URL(fileURLWithPath: path))
        let index = try ResumeIndex(
            reading: path, command: "bells audition", enso: "0.2.0", settings: ["profile": "temple"],
            decoder: { JSONDecoder() }, warn: { _ in })
        let identity = ContentIdentity(size: 10, modified: "2026-01-01T00:00:00.000000000Z", hash: "00000000000000ab")
        // Rows without a real path (and files whose folder is not there) are located from the working directory.
        let a = BatchFile(path: "bells/a.wav", root: "bells", relativePath: "a.wav")
        #expect(index.contains(a, realPath: a.realPath(), identity: identity))
        let other = ContentIdentity(size: 11, modified: identity.modified, hash: identity.hash)
        #expect(!index.contains(a, realPath: a.realPath(), identity: other))
        #expect(
            !index.contains(
                BatchFile(path: "x/a.wav", root: "x", relativePath: "a.wav"), realPath: nil, identity: identity))
        #expect(index.contains(BatchFile.given("./bells//a.wav"), realPath: nil, identity: identity))
        #expect(index.endsInsideLine)
    }

    /// A file's real path is one however its path is spelled (`.`, `..`, `//`, a folder's link, the file given
    /// itself or found in its folder), and `--resume` knows a file done by it (it knew the root as spelled: a run
    /// over `./big` measured again every file `big` had).
    @Test func aFileIsOneFileHoweverItsPathIsSpelled() throws {
        try FileManager.default.createDirectory(atPath: dir + "/big/sub", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dir + "/big/sub/a.wav", contents: Data([1])))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/big")
        let found = try #require(BatchFile.expand([dir + "/big"]).first)
        let real = try #require(found.realPath())
        #expect(real.hasPrefix("/") && real.hasSuffix("/big/sub/a.wav") && !real.contains("//"))
        let spellings =
            BatchFile.expand([dir + "/big/", dir + "//big/./", dir + "/big/sub/../", dir + "/link"])
            + [dir + "/big/sub/a.wav", dir + "/big/./sub//a.wav", dir + "/link/../big/sub/a.wav"].map(BatchFile.given)
        #expect(spellings.count == 7)
        for file in spellings { #expect(file.realPath() == real, "\(file.path)") }
        // A link to a file is a file of its own name; a folder that is not there has no real path.
        try FileManager.default.createSymbolicLink(atPath: dir + "/big/b.wav", withDestinationPath: "sub/a.wav")
        #expect(BatchFile.given(dir + "/big/b.wav").realPath()?.hasSuffix("/big/b.wav") == true)
        #expect(BatchFile.given(dir + "/gone/a.wav").realPath() == nil)

        // --resume: a row written from `big` is the row of every spelling.
        let identity = try ContentIdentity.of(path: found.path)
        let envelope = ResultEnvelope(
            command: "bells audition", enso: "0.2.0", settings: [:], root: found.root,
            relativePath: found.relativePath, identity: identity, realPath: real)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let results = dir + "/r.jsonl"
        try Data(
            try ResultLine(envelope: envelope, row: Row(file: found.path, verdict: "keep")).bytes(using: encoder)
        ).write(to: URL(fileURLWithPath: results))
        let index = try ResumeIndex(
            reading: results, command: "bells audition", enso: "0.2.0", settings: [:], decoder: { JSONDecoder() },
            warn: { Issue.record("\($0)") })
        for file in spellings {
            #expect(index.contains(file, realPath: file.realPath(), identity: identity), "\(file.path)")
        }
    }

    /// Where no real path is known (a row written before rows had one), a path is made absolute from a folder
    /// without reading the disk: `.`, `..` and repeated `/` taken out.
    @Test func aPathMadeAbsoluteWithoutTheDisk() {
        #expect(BatchFile.absolute("a/../x.wav", from: "/w") == "/w/x.wav")
        #expect(BatchFile.absolute("./b//x.wav", from: "/w/") == "/w/b/x.wav")
        #expect(BatchFile.absolute("/x/../../y.wav", from: "/w") == "/y.wav")
        #expect(BatchFile.absolute("x.wav", from: "/") == "/x.wav")
        let old = ResultEnvelope(
            command: "loops verify", enso: "0.2.0", settings: [:], root: "./big/", relativePath: "sub/a.wav",
            identity: nil)
        #expect(old.location(from: "/w") == "/w/big/sub/a.wav")
        var new = old
        new.realPath = "/data/big/sub/a.wav"
        #expect(new.location(from: "/w") == "/data/big/sub/a.wav")
    }

    /// The folders a batch refuses: empty, of files without an audio ending (counted), or holding only a folder
    /// named like an audio file; not a folder with an audio file however deep, a file, or a path not there.
    @Test func foldersWithoutAudioAreFoundAndTheirFilesCounted() throws {
        for folder in ["empty", "text/deeper", "x.wav/notes", "deep/a/b"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["text/readme.txt", "text/deeper/list.csv", "deep/a/b/take.FLAC", "loose.wav"] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + file, contents: Data()))
        }
        // A folder given as a link is searched where it points (it had been taken for a folder of no audio).
        try FileManager.default.createSymbolicLink(atPath: dir + "/linked", withDestinationPath: "deep")
        #expect(BatchFile.expand([dir + "/linked"]).map(\.path) == [dir + "/linked/a/b/take.FLAC"])
        let inputs = ["empty", "text", "x.wav", "deep", "linked", "loose.wav", "missing"].map { dir + "/" + $0 }
        #expect(
            BatchFile.foldersWithoutAudio(inputs) == [
                .init(folder: dir + "/empty", otherFiles: 0, readError: nil),
                .init(folder: dir + "/text", otherFiles: 2, readError: nil),
                .init(folder: dir + "/x.wav", otherFiles: 0, readError: nil),
            ])
    }

    @Test func resumeRefusesRowsOfAnotherVersionOrOtherSettings() throws {
        let path = dir + "/r.jsonl"
        try Data((try line("a.wav") + line("b.wav", settings: ["profile": "bowl"])).utf8).write(
            to: URL(fileURLWithPath: path))
        #expect {
            _ = try ResumeIndex(
                reading: path, command: "bells audition", enso: "0.2.0", settings: ["profile": "temple"],
                decoder: { JSONDecoder() }, warn: { _ in })
        } throws: { error in
            (error as? ResumeIndex.Refusal)?.message
                == "\(path):2: a row made with profile=bowl, not profile=temple: resume with the same options or into a new results file"
        }
        #expect {
            _ = try ResumeIndex(
                reading: path, command: "bells audition", enso: "0.3.0", settings: ["profile": "temple"],
                decoder: { JSONDecoder() }, warn: { _ in })
        } throws: { error in
            (error as? ResumeIndex.Refusal)?.message.hasPrefix("\(path):1: a row made by enso 0.2.0, not 0.3.0") == true
        }
    }

    @Test func identityNamesSizeTimeAndHash() throws {
        let path = dir + "/x.bin"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let id = try ContentIdentity.of(path: path)
        #expect(id.size == 3 && id.hash == ContentHash.hex(ContentHash.of([UInt8]([1, 2, 3]))))
        #expect(id.modified.count == 30 && id.modified.hasSuffix("Z"))
        #expect(ContentIdentity.iso8601(seconds: 86_400 + 3661, nanoseconds: 5) == "1970-01-02T01:01:01.000000005Z")
        #expect(throws: (any Error).self) { try ContentIdentity.of(path: dir + "/missing.wav") }
    }

    @Test func aFolderKeepsItsRootAndAFileItsFolder() throws {
        try FileManager.default.createDirectory(atPath: dir + "/b/takes", withIntermediateDirectories: true)
        for name in ["b/2.wav", "b/takes/1.WAV", "b/notes.txt"] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data()))
        }
        let files = BatchFile.expand([dir + "/b/", dir + "/b/2.wav", "loose.wav", dir + "/missing"])
        #expect(files.map(\.relativePath) == ["2.wav", "takes/1.WAV", "2.wav", "loose.wav", "missing"])
        #expect(files.map(\.root) == [dir + "/b", dir + "/b", dir + "/b", ".", dir])
        #expect(files[1].path == dir + "/b/takes/1.WAV")
    }

    /// A link inside a folder to a file that is gone stays in the batch, so its row names it (before, a folder's
    /// dangling `.wav` link was dropped without a word and the count left it out); a link to a folder is no file.
    @Test func aDanglingLinkInAFolderStaysInTheBatch() throws {
        try FileManager.default.createDirectory(atPath: dir + "/c/sub", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dir + "/c/1.wav", contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: dir + "/c/2.wav", withDestinationPath: "gone.wav")
        try FileManager.default.createSymbolicLink(atPath: dir + "/c/3.wav", withDestinationPath: "sub")
        #expect(BatchFile.expand([dir + "/c"]).map(\.relativePath) == ["1.wav", "2.wav"])
    }

    /// Each row comes with where its line is, and the line read again from there is the row's line byte for byte:
    /// what `bells rank` prints `--json` from, holding only small rows.
    @Test func aRowsLineIsReadAgainFromItsPlace() throws {
        let path = dir + "/places.jsonl"
        let lines = try [line("a.wav"), "not json\n", "\n", line("b.wav"), line("c.wav")]
        try Data((lines.joined() + String(try line("d.wav").prefix(20))).utf8).write(to: URL(fileURLWithPath: path))
        let file = try OpenResultsFile(path)
        var places: [ResultsFile.Place] = []
        let summary = try file.read(command: "bells audition", as: Row.self, decoder: { JSONDecoder() }, warn: { _ in })
        {
            _, place in places.append(place)
        }
        #expect(summary.rows == 3 && summary.endsInsideLine)
        #expect(places.map(\.line) == [1, 4, 5])
        for (place, expected) in zip(places, [lines[0], lines[3], lines[4]]) {
            #expect(try file.line(at: place) + [UInt8(ascii: "\n")] == Array(expected.utf8))
        }
        // A place past the end of the file (it was cut since) is an error naming the file and line.
        let past = ResultsFile.Place(offset: 1 << 20, length: 10, line: 9)
        #expect(throws: EnsoError.self) { try file.line(at: past) }
    }
}
