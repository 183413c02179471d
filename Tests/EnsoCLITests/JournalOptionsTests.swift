import AudioTestSupport
import Foundation
import Testing

/// `--journal FILE` means one thing for every command that takes it (`Tools/enso/JournalOptions.swift`): a file in a
/// folder that does not exist is a mistyped path, refused before anything is read or written (exit 2, `not-found`,
/// naming the file and the folder). `serve` and `play` made the missing folders (0700) and journaled there, and
/// `mark-synced` made them too, while `sessions list` refused the same path. Only the default location is made.
@Suite struct JournalOptionsTests {
    let fixture = CLIFixture("journal-option")
    var dir: String { fixture.dir }

    @Test("a --journal in a missing folder is refused by serve, play and sessions; no folder is made")
    func aMissingFolderIsRefusedEverywhere() throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let missing = dir + "/typo/sessions.jsonl"
        let runs: [[String]] = [
            ["serve", "--stdio", "--output", "null"],
            ["play", "--output", "null", "--bell", bell, "--sit", "1", "--strikes", "1", "--fade-in", "0"],
            ["sessions", "list"], ["sessions", "export", "--json"], ["sessions", "stats"],
            ["sessions", "mark-synced", "some-id"],
        ]
        for arguments in runs {
            let r = try ToolRunner.run("enso", arguments + ["--journal", missing], stdin: "")
            let label = arguments.prefix(2).joined(separator: " ")
            #expect(r.exitCode == 2, "\(label): \(r.stderr)")
            #expect(
                r.stderr.hasPrefix(
                    "Error: \(missing): the journal's folder '\(dir)/typo' does not exist (a mistyped path is not a new "
                        + "journal: create the folder first)"), "\(label): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/typo"), "\(label) made the folder")
        }
    }

    /// The default location is the tool's own: its folders are made on the first sitting, also when `--journal`
    /// names it.
    @Test("the default journal's folders are made, named or not")
    func theDefaultLocationIsMade() throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let play = ["play", "--output", "null", "--bell", bell, "--sit", "1", "--strikes", "1", "--fade-in", "0"]
        for (i, named) in [false, true].enumerated() {
            let data = dir + "/data\(i)"
            let journal = data + "/enso/sessions.jsonl"
            let r = try ToolRunner.run(
                "enso", play + (named ? ["--journal", journal] : []), stdin: "", environment: ["XDG_DATA_HOME": data])
            #expect(r.exitCode == 0, "\(r.stderr)")
            #expect(FileManager.default.fileExists(atPath: journal), "named: \(named)")
        }
    }
}
