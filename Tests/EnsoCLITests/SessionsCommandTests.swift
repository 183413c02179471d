import AudioTestSupport
import Foundation
import Testing

@Suite struct SessionsCommandTests {
    let fixture = CLIFixture("sessions-cli")

    /// A journal with two records (one synced) and a torn last line.
    private func journal() throws -> String {
        let dir = ToolRunner.temporaryDirectory("sessions-cli")
        let path = dir + "/sessions.jsonl"
        let lines = [
            #"{"bell":"singing-bowl","cyclesCompleted":2,"end":"2026-11-28T07:41:00.000Z","id":"s-1","outcome":"completed","plannedSeconds":2404,"satSeconds":2404,"start":"2026-11-28T07:00:00.000Z","syncedToHealth":false,"theme":"rain"}"#,
            #"{"bell":"temple-bell","cyclesCompleted":0,"end":"2026-11-29T07:05:00.000Z","id":"s-2","outcome":"stopped","plannedSeconds":1200,"satSeconds":300.5,"start":"2026-11-29T07:00:00.000Z","syncedToHealth":true,"theme":null}"#,
            #"{"bell":"temple"#,
        ]
        try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test func listShowsEveryRecordAndWarnsAboutTheTornLine() throws {
        let path = try journal()
        let r = try ToolRunner.run("enso", ["sessions", "list", "--journal", path])
        #expect(r.exitCode == 0)
        #expect(r.stdout.contains("s-1") && r.stdout.contains("s-2"))
        #expect(r.stdout.contains("40m04s") && r.stdout.contains("completed") && r.stdout.contains("stopped"))
        #expect(r.stderr.contains("Warning:") && r.stderr.contains("torn last line"))
        let json = try ToolRunner.run("enso", ["sessions", "list", "--json", "--journal", path])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 2)
        #expect(objects[1]["satSeconds"] as? Double == 300.5)
        #expect(objects[1]["syncedToHealth"] as? Bool == true)
    }

    /// Two servers sharing a journal append each sitting when it ends: the hour-long one begun first comes after
    /// the short one begun later. `list` (and `export`) show them by start, oldest first, not by append.
    @Test func listIsByStartNotByAppend() throws {
        let dir = ToolRunner.temporaryDirectory("sessions-cli")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/sessions.jsonl"
        func line(_ id: String, _ start: String) -> String {
            #"{"bell":"b","cyclesCompleted":1,"end":"2026-11-29T09:00:00.000Z","id":"\#(id)","outcome":"completed","#
                + #""plannedSeconds":60,"satSeconds":60,"start":"\#(start)","syncedToHealth":false,"theme":null}"#
        }
        let lines = [
            line("later", "2026-11-29T08:10:00.000Z"), line("first", "2026-11-29T08:00:00.000Z"),
            line("last", "2026-11-29T08:20:00.000Z"),
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let r = try ToolRunner.run("enso", ["sessions", "list", "--journal", path])
        #expect(r.exitCode == 0)
        let order = ["first", "later", "last"].map { r.stdout.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order[0]! < order[1]! && order[1]! < order[2]!, "\(r.stdout)")
        let json = try ToolRunner.run("enso", ["sessions", "list", "--json", "--journal", path])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["id"] as? String } == ["first", "later", "last"])
        let export = try ToolRunner.run("enso", ["sessions", "export", "--csv", "--journal", path])
        #expect(
            export.stdout.split(separator: "\n").dropFirst().map { $0.prefix { $0 != "," } } == [
                "first", "later", "last",
            ])
    }

    @Test func exportCSVAndJSON() throws {
        let path = try journal()
        let csv = try ToolRunner.run("enso", ["sessions", "export", "--csv", "--journal", path])
        #expect(csv.exitCode == 0)
        let rows = csv.stdout.split(separator: "\n")
        #expect(rows.count == 3)
        #expect(
            rows[2] == "s-2,2026-11-29T07:00:00.000Z,2026-11-29T07:05:00.000Z,1200,300.5,0,stopped,temple-bell,,,true")
        let json = try ToolRunner.run("enso", ["sessions", "export", "--json", "--journal", path])
        let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        #expect(array.map { $0["id"] as! String } == ["s-1", "s-2"])
        let both = try ToolRunner.run("enso", ["sessions", "export", "--csv", "--json", "--journal", path])
        #expect(both.exitCode == 64)
    }

    @Test func markSyncedMarksAndReportsUnknownIds() throws {
        let path = try journal()
        let r = try ToolRunner.run("enso", ["sessions", "mark-synced", "s-1", "nope", "--journal", path])
        #expect(r.exitCode == 1)
        #expect(r.stdout.contains("marked s-1"))
        #expect(r.stderr.contains("no session nope"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains(#""syncedToHealth":false"#))
        // The torn line is kept verbatim, never destroyed.
        #expect(text.contains(#"{"bell":"temple"#))
        #expect(try ToolRunner.run("enso", ["sessions", "mark-synced", "--journal", path]).exitCode == 64)
    }

    @Test func statsArePlainFigures() throws {
        let path = try journal()
        let r = try ToolRunner.run("enso", ["sessions", "stats", "--journal", path], environment: ["TZ": "UTC"])
        #expect(r.exitCode == 0)
        #expect(r.stdout.contains("sessions  2"))
        #expect(r.stdout.contains("total     45m05s"))
        #expect(r.stdout.contains("2026-11-28  40m04s  1 session"))
        #expect(r.stdout.contains("2026-W48"))
        let j = try ToolRunner.run(
            "enso", ["sessions", "stats", "--json", "--journal", path], environment: ["TZ": "UTC"])
        let o = try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as! [String: Any]
        #expect(o["totalSatSeconds"] as? Double == 2704.5)
        #expect(o["longestId"] as? String == "s-1")
    }

    /// Totals read as the records do, to the millisecond: `"totalSatSeconds": 21.575`, not 21.575000000000003.
    @Test func statsTotalsHaveNoFloatNoise() throws {
        let dir = fixture.dir
        let path = dir + "/sessions.jsonl"
        func line(_ id: String, _ sat: String, _ start: String) -> String {
            #"{"bell":"b","cyclesCompleted":0,"end":"\#(start)","id":"\#(id)","outcome":"stopped","#
                + #""plannedSeconds":60,"satSeconds":\#(sat),"start":"\#(start)","syncedToHealth":false,"theme":null}"#
        }
        let lines = [line("a", "10.121", "2026-11-29T07:00:00.000Z"), line("b", "11.454", "2026-11-29T08:00:00.000Z")]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let r = try ToolRunner.run(
            "enso", ["sessions", "stats", "--json", "--journal", path], environment: ["TZ": "UTC"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains(#""totalSatSeconds": 21.575,"#), "\(r.stdout)")
        #expect(r.stdout.components(separatedBy: #""satSeconds": 21.575"#).count == 3, "\(r.stdout)")
        #expect(!r.stdout.contains("0000000"), "\(r.stdout)")
    }

    /// No journal yet (a fresh install, or a mistyped `--journal`): `list` and `stats` say where they looked.
    @Test func anAbsentJournalIsNamed() throws {
        let path = ToolRunner.temporaryDirectory("sessions-cli") + "/none.jsonl"
        for command in ["list", "stats"] {
            let r = try ToolRunner.run("enso", ["sessions", command, "--journal", path])
            #expect(r.exitCode == 0 && r.stdout == "No sessions recorded in \(path).\n", "\(command): \(r.stdout)")
        }
        let json = try ToolRunner.run("enso", ["sessions", "stats", "--json", "--journal", path])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["sessions"] as? Int == 0, "\(json.stdout)")
    }

    @Test func unreadableJournalFailsWithExitCode1() throws {
        let dir = ToolRunner.temporaryDirectory("sessions-cli-bad")
        let r = try ToolRunner.run("enso", ["sessions", "list", "--journal", dir])
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("Error:") && r.stderr.contains(dir))
    }
}
