import AudioCore
import AudioFile
import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

@Suite("enso plan")
struct PlanCommandTests {
    /// This test's folder (``CLIFixture``): `dir`.
    let fixture = CLIFixture("plan")
    var dir: String { fixture.dir }

    /// A mono 8 kHz "bell" in `dir/name`: one impulse of `amplitude` (it has decayed one frame after the strike).
    static func makeImpulseBell(
        in dir: String, rate: Int = 8000, amplitude: Float = 0.5, name: String = "impulse.wav"
    ) throws -> String {
        let path = dir + "/" + name
        try AudioFileEncoder.write(
            SignalGenerator.buffer(SignalGenerator.impulse(frames: 400, amplitude: amplitude), sampleRate: rate),
            to: path, options: EncodeOptions(format: .wavf))
        return path
    }

    /// A pack folder with one bell, `test-bell`, for id lookups.
    static func makePack(in dir: String) throws -> String {
        let pack = dir + "/pack"
        try FileManager.default.createDirectory(atPath: pack, withIntermediateDirectories: true)
        _ = try makeImpulseBell(in: pack)
        let manifest = """
            {"schema": 1, "name": "test", "assets": [{"id": "test-bell", "displayName": "Test Bell", "kind": "bell",
             "file": "impulse.wav", "loop": null, "gainDB": 0, "loudness": {"integrated": -20, "target": -20},
             "licence": "CC0", "command": "test"}]}
            """
        try manifest.write(toFile: pack + "/manifest.json", atomically: false, encoding: .utf8)
        return pack
    }

    /// What `plan --json` prints: the protocol's ``PlanReport`` (one schema for the CLI and the `plan` command), so
    /// a field the CLI drops or renames fails to decode here.
    typealias Report = PlanReport

    @Test("--json lists every event on its frame, rounded once")
    func json() throws {
        let bell = try Self.makeImpulseBell(in: dir)
        let r = try CLIFixture.succeeds([
            "plan", "--bell", bell, "--sit", "10s", "--strikes", "2", "--spacing", "1000ms", "--breath", "1s",
            "--repeat", "2", "--fade-out", "1", "--rate", "48000", "--start", "06:00", "--json",
        ])
        let report = try JSONDecoder().decode(Report.self, from: Data(r.stdout.utf8))
        #expect(report.sampleRate == 48_000)
        // D = 480 000, s = 48 000, P = 48 000: S_2 = 576 000, E_2 = 1 056 000; end = last strike + 1 s fade.
        #expect(
            report.events.filter { $0.kind == "strike" }.map(\.frame) == [
                0, 48_000, 480_000, 528_000, 1_056_000, 1_104_000,
            ])
        #expect(report.events.filter { $0.kind == "cycle-start" }.map(\.frame) == [0, 576_000])
        #expect(report.endFrame == 1_152_000)
        #expect(report.events.last?.kind == "end")
        #expect(report.events.last?.clock == "06:00:24")
    }

    @Test("until= is the next occurrence of the clock time, up to 24 h ahead (13 h ahead was 'in the past')")
    func untilHorizon() throws {
        let bell = try Self.makeImpulseBell(in: dir)
        for (until, ahead) in [("09:00", 23 * 3600), ("23:30", 13 * 3600 + 1800)] {
            let r = try CLIFixture.succeeds([
                "plan", "--bell", bell, "--sit", "1h", "--rate", "8000", "--start", "10:00", "--repeat",
                "until=" + until, "--json",
            ])
            let report = try JSONDecoder().decode(Report.self, from: Data(r.stdout.utf8))
            let closing = report.events.last { $0.kind == "cycle-end" }
            #expect(closing?.frame == Int64(ahead * 8000), "until=\(until)")
            #expect(closing?.clock == until + ":00")
        }
    }

    @Test("text output is a table with a total")
    func text() throws {
        let pack = try Self.makePack(in: dir)
        let r = try CLIFixture.succeeds([
            "plan", "--assets", pack, "--bell", "test-bell", "--sit", "1m", "--start", "07:30",
        ])
        for text in [
            "1 cycle of 1m00s, 3 strikes 3 s apart", "cycle-start", "fade-out", "0:01:06.000", "ends at 07:31:11",
        ] {
            #expect(r.stdout.contains(text), "missing \"\(text)\" in:\n\(r.stdout)")
        }
    }

    @Test("an until-plan's header gives its last cycle's own length (it said every cycle was the full sitting)")
    func untilHeader() throws {
        let pack = try Self.makePack(in: dir)
        let base = ["plan", "--assets", pack, "--bell", "test-bell", "--sit", "10m", "--start", "07:00", "--repeat"]
        let one = try CLIFixture.succeeds(base + ["until=07:00:20"])
        #expect(one.stdout.hasPrefix("1 cycle of 20s (10m00s cut by until), "), "\(one.stdout)")
        let three = try CLIFixture.succeeds(base + ["until=07:25"])
        #expect(three.stdout.hasPrefix("3 cycles of 10m00s, the last 4m44s, "), "\(three.stdout)")
        let whole = try CLIFixture.succeeds(base + ["2"])
        #expect(whole.stdout.hasPrefix("2 cycles of 10m00s, 3 strikes"), "\(whole.stdout)")
    }

    @Test("a plan of more than 8192 events lists the first 8192 and says so; --json refuses it (it listed 17 million)")
    func tooManyEvents() throws {
        let bell = try Self.makeImpulseBell(in: dir)
        // 4 h with a bell every 5 s, three times: 8 640 events, a little over the bound.
        let base = ["plan", "--bell", bell, "--sit", "4h", "--interval", "5s", "--repeat", "3"]
        let r = try CLIFixture.succeeds(base)
        // Event rows: those with an offset (`H:MM:SS.mmm`), the total aside.
        let rows = r.stdout.split(separator: "\n").filter {
            !$0.hasPrefix("Total") && $0.contains(/\d:\d\d:\d\d\.\d\d\d/)
        }
        #expect(rows.count == 8192, "\(rows.count) rows")
        #expect(r.stdout.contains("… more events not listed: the plan holds more than 8192; the first 8192 are shown"))
        // The total is still given: it needs no listing.
        #expect(r.stdout.contains("Total: 12:0"), "\(r.stdout.suffix(300))")
        let json = try ToolRunner.run("enso", base + ["--json"])
        // The error object of docs/cli.md on stdout, no timeline cut short.
        #expect(json.exitCode == 1 && !json.stdout.contains("events\""), "\(json.stdout.prefix(300))")
        #expect(
            json.stderr.contains("the plan holds more than 8192 events, too many to print as JSON"), "\(json.stderr)")
        // A day-long sitting with a bell every 5 s, repeated 1000 times, answers at once instead of for minutes.
        let huge = try ToolRunner.run(
            "enso", ["plan", "--bell", bell, "--sit", "24h", "--interval", "5s", "--repeat", "1000"], timeout: 60)
        #expect(huge.exitCode == 0 && huge.stdout.contains("… more events not listed"))
    }

    @Test("forever shows two cycles and no end")
    func forever() throws {
        let bell = try Self.makeImpulseBell(in: dir)
        let r = try CLIFixture.succeeds(["plan", "--bell", bell, "--repeat", "forever", "--json"])
        let report = try JSONDecoder().decode(Report.self, from: Data(r.stdout.utf8))
        #expect(report.endFrame == nil)
        #expect(report.events.filter { $0.kind == "cycle-start" }.count == 2)
    }

    @Test(
        "bad plans exit 64 naming the option, the field and its range",
        arguments: [
            (["--sit", "0"], "--sit 0 s is outside 1 s ... 24 h (86400 s)"),
            (["--sit", "-5m"], "--sit: '-5m' is not a duration"),
            (["--strikes", "0"], "--strikes 0 is outside 1...3"),
            (["--strikes", "4"], "--strikes 4 is outside 1...3"),
            (["--spacing", "20"], "--spacing 20 s is outside 0.5...15 s"),
            (["--spacing", "20s"], "--spacing 20 s is outside 0.5...15 s"),
            (["--spacing", "3x"], "--spacing: '3x' is not a number of seconds (try 3, 2.5s or 500ms)"),
            (["--breath", "-1"], "--breath -1 s is outside 0...60 s"),
            (["--volume", "2"], "--volume 2 is outside 0...1"),
            (["--repeat", "0"], "--repeat 0 is outside 1...1000"),
            (["--repeat", "until=25:00"], "--repeat '25:00' is not a clock time"),
            (
                ["--sit", "5", "--strikes", "3", "--spacing", "3"],
                "--sit 5 s is shorter than its strike group (3 strikes 3 s apart span 6 s); "
                    + "the shortest sitting those strikes allow is 9 s"
            ),
            (["--start", "10:00", "--repeat", "until=10:00:05"], "it must be at least one strike group plus 10 s"),
        ])
    func badPlans(extra: [String], message: String) throws {
        try Self.expectRefused(extra, saying: message)
    }

    /// Runs `enso plan --bell <an impulse bell> extra` and expects a usage error (exit 64) whose message contains
    /// `message`, and nothing on stdout.
    static func expectRefused(
        _ extra: [String], saying message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let dir = ToolRunner.temporaryDirectory("plan-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = try makeImpulseBell(in: dir)
        let r = try ToolRunner.run("enso", ["plan", "--bell", bell] + extra)
        #expect(r.exitCode == 64, sourceLocation: sourceLocation)
        #expect(r.stderr.contains(message), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    @Test("an unknown asset id exits 64 and lists the known ids; an unreadable file exits 1")
    func assets() throws {
        let pack = try Self.makePack(in: dir)
        let unknown = try ToolRunner.run("enso", ["plan", "--assets", pack, "--bell", "gong"])
        #expect(unknown.exitCode == 64)
        #expect(unknown.stderr.contains("--bell: no bell with id 'gong'"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("known: test-bell"), "\(unknown.stderr)")
        let missing = try ToolRunner.run("enso", ["plan", "--bell", dir + "/missing.wav"])
        #expect(missing.exitCode == 1)
        #expect(missing.stderr.contains("missing.wav"), "\(missing.stderr)")
        let noPack = try ToolRunner.run("enso", ["plan", "--assets", dir + "/nowhere", "--bell", "test-bell"])
        #expect(noPack.exitCode == 1)
        #expect(noPack.stderr.contains("nowhere"), "\(noPack.stderr)")
    }
}
