import AudioTestSupport
import Foundation
import Testing

/// `enso play` journals its sittings exactly as `enso serve` does: one runner (`PlaybackService.RunningSession`)
/// keeps both.
@Suite("enso play journal", .serialized)
struct PlayJournalTests {
    /// This test's folder (``CLIFixture``): `dir`.
    let fixture = CLIFixture("play-journal")
    var dir: String { fixture.dir }

    /// The journal's records as JSON objects, in file order.
    static func records(_ journal: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Runs `enso serve --stdio` on `arguments`, sends `request`, and returns its output lines once a
    /// `session.ended` event came (then ends the input), or after `seconds`.
    static func serve(_ arguments: [String], request: String, seconds: Double = 30) throws -> [String] {
        BrokenPipes.ignore()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.executablePath("enso"))
        process.arguments = ["serve", "--stdio"] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        try? input.fileHandleForWriting.write(contentsOf: Data((request + "\n").utf8))
        nonisolated(unsafe) var text = ""
        let ended = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var signalled = false
            while true {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                if !signalled && text.contains(#""event":"session.ended""#) {
                    signalled = true
                    ended.signal()
                }
            }
            if !signalled { ended.signal() }
            done.signal()
        }
        _ = ended.wait(timeout: .now() + seconds)
        // End of input ends the server (and shuts down a sitting still playing after `seconds`).
        try? input.fileHandleForWriting.close()
        // A server that does not exit within `seconds` more is killed (the test then finds what it wrote so far).
        let exitBy = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < exitBy { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        _ = done.wait(timeout: .now() + seconds)
        return text.split(separator: "\n").map(String.init)
    }

    @Test("a play sitting leaves the record a served one leaves")
    func playRecordsAsServeDoes() throws {
        let bell = try PlayCommandTests.bell(in: dir)
        let play = try CLIFixture.succeeds(
            ["play"] + PlayCommandTests.plan(bell) + [
                "--output", "file:\(dir)/play.raw", "--journal", dir + "/play.jsonl",
            ])
        // The same plan served to the same kind of output (a file: unpaced, so the sitting takes milliseconds).
        let start = """
            {"id":1,"command":"start","sitting":1,"strikes":2,"strikeSpacing":0.5,"breath":0,"fadeIn":0.1,\
            "fadeOut":0.1,"bell":"\(bell)"}
            """
        let lines = try Self.serve(
            ["--output", "file:\(dir)/serve.raw", "--journal", dir + "/serve.jsonl"], request: start)
        #expect(lines.contains { $0.contains(#""event":"session.ended""#) }, "\(lines)")
        let played = try Self.records(dir + "/play.jsonl")
        let served = try Self.records(dir + "/serve.jsonl")
        try #require(played.count == 1 && served.count == 1, "play \(played), serve \(served)")
        let p = played[0]
        let s = served[0]
        #expect(Set(p.keys) == Set(s.keys))
        // Everything but the sitting's own id and times is the same.
        func json(_ value: Any?) throws -> String {
            let data = try JSONSerialization.data(
                withJSONObject: value ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
            return String(decoding: data, as: UTF8.self)
        }
        for key in p.keys.sorted() where !["id", "start", "end"].contains(key) {
            #expect(try json(p[key]) == json(s[key]), "\(key)")
        }
        #expect(
            p["outcome"] as? String == "completed" && p["satSeconds"] as? Double == 1
                && p["plannedSeconds"] as? Double == 1)
        #expect((p["id"] as? String)?.count == 36 && p["id"] as? String != s["id"] as? String)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/play.jsonl.inprogress").filter {
                $0.hasSuffix(".json")
            }.isEmpty)
        // The file is the sitting, as without a journal.
        #expect(play.stderr.contains("Session over: 0:00:01.000 sat, written to \(dir)/play.raw"), "\(play.stderr)")
    }

    /// A file written unpaced is no sitting: the default journal is left alone (a 1 s sitting written to a file in
    /// milliseconds was recorded as sat), and stderr says how to record it; a --journal named records it (above).
    @Test("a sitting written to a file is not recorded in the default journal")
    func aFileIsNotSatInTheDefaultJournal() throws {
        let bell = try PlayCommandTests.bell(in: dir)
        let home = dir + "/home"
        let r = try ToolRunner.run(
            "enso", ["play"] + PlayCommandTests.plan(bell) + ["--output", "file:\(dir)/x.raw"],
            environment: ["XDG_DATA_HOME": home, "HOME": home])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains("nothing is recorded in the journal (--journal FILE records it there)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/enso/sessions.jsonl"))
        #expect(FileManager.default.fileExists(atPath: dir + "/x.raw"))
    }

    @Test("pack themes are named by their ids, in the events and the journal, as serve names them")
    func packThemesAreNamedByTheirIDs() throws {
        let bell = try PlayCommandTests.bell(in: dir)
        let play = try CLIFixture.succeeds(
            ["play"] + PlayCommandTests.plan(bell) + [
                "--ambient", "rain", "--theme-at", "0.5=hearth", "--assets", bundledAssets,
                "--output", "file:\(dir)/play.raw", "--journal", dir + "/play.jsonl",
            ])
        #expect(play.stdout.contains("theme hearth  (frame 24000)"), "\(play.stdout)")
        let start = """
            {"id":1,"command":"start","sitting":1,"strikes":2,"strikeSpacing":0.5,"breath":0,"fadeIn":0.1,\
            "fadeOut":0.1,"bell":"\(bell)","ambient":"rain","themeAt":[{"at":0.5,"theme":"hearth"}]}
            """
        let lines = try Self.serve(
            ["--output", "file:\(dir)/serve.raw", "--journal", dir + "/serve.jsonl", "--assets", bundledAssets],
            request: start)
        #expect(lines.contains { $0.contains(#""event":"theme.changed""#) && $0.contains(#""theme":"hearth""#) })
        let played = try #require(try Self.records(dir + "/play.jsonl").first)
        let served = try #require(try Self.records(dir + "/serve.jsonl").first)
        let themes = [["frame": 0, "theme": "rain"], ["frame": 24000, "theme": "hearth"]] as NSArray
        #expect(played["themes"] as? NSArray == themes, "\(String(describing: played["themes"]))")
        #expect(served["themes"] as? NSArray == themes, "\(String(describing: served["themes"]))")
    }

    @Test("a journal that cannot be written stops the sitting before it starts")
    func unwritableJournalIsRefused() throws {
        let bell = try PlayCommandTests.bell(in: dir)
        #expect(writeTestFile(dir + "/file", Data()))
        let r = try ToolRunner.run(
            "enso",
            ["play"] + PlayCommandTests.plan(bell) + [
                "--output", "file:\(dir)/x.raw", "--journal", dir + "/file/j.jsonl",
            ])
        #expect(r.exitCode == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(dir)/file") && r.stderr.contains("--no-journal"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.raw"))
    }
}
