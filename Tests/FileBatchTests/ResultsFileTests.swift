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
                == #"{"command":"bells audition","enso":"0.2.0","file":"bells/a.wav","identity":{"hash":"00000000000000ab","modified":"2026-01-01T00:00:00.000000000Z","size":10},"relativePath":"a.wav","root":"bells","settings":{"profile":"temple"},"verdict":"keep"}"#
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
        #expect(summary.rows == 2 && summary.skipped == 4 && summary.endsInsideLine)
        #expect(warnings.count == 4)
        #expect(warnings[0].hasPrefix("\(path):2: not a result row of `enso bells audition --jsonl` (not JSON)"))
        #expect(warnings[1] == "\(path):4: a row of `enso loops verify`, not of `enso bells audition`: skipped")
        #expect(warnings[2].hasPrefix("\(path):5: not a result row") && warnings[2].contains("\"verdict\""))
        #expect(warnings[3] == "\(path):7: an incomplete last line (a run stopped while writing it): skipped")
    }

    @Test func resumeKnowsTheRowsAndWhetherTheFileEndsInsideALine() throws {
        let path = dir + "/r.jsonl"
        try Data((try line("a.wav") + line("b.wav").prefix(30)).utf8).write(to: URL(fileURLWithPath: path))
        let index = try ResumeIndex(
            reading: path, command: "bells audition", enso: "0.2.0", settings: ["profile": "temple"],
            decoder: { JSONDecoder() }, warn: { _ in })
        let identity = ContentIdentity(size: 10, modified: "2026-01-01T00:00:00.000000000Z", hash: "00000000000000ab")
        let a = BatchFile(path: "bells/a.wav", root: "bells", relativePath: "a.wav")
        #expect(index.contains(a, identity: identity))
        #expect(
            !index.contains(a, identity: ContentIdentity(size: 11, modified: identity.modified, hash: identity.hash)))
        #expect(!index.contains(BatchFile(path: "x/a.wav", root: "x", relativePath: "a.wav"), identity: identity))
        #expect(index.endsInsideLine)
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
