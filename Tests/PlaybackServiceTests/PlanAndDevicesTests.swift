import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

/// `plan` and `devices` answer what the CLI's `enso plan --json` and `enso devices --json` print, without a session.
@Suite(.serialized) struct PlanAndDevicesTests {
    @Test func planRepliesTheTimelineEnsoPlanPrintsAndStartsNothing() throws {
        let assets = ServerFixtures.assets()
        let cli = try ToolRunner.run(
            ToolRunner.executablePath("enso"),
            [
                "plan", "--sit", "10", "--bell", assets + "/bell.wav", "--strikes", "2", "--spacing", "0.5", "--breath",
                "1",
                "--repeat", "2", "--fade-in", "0", "--fade-out", "0", "--json",
            ])
        #expect(cli.exitCode == 0, "\(cli.stderr)")
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(cli.stdout.utf8))
        let server = try ServerProcess(["--stdio", "--output", "null", "--journal", assets + "/j.jsonl"])
        let t = server.lines
        server.send(
            #"{"id":1,"command":"plan","sitting":10,"bell":"\#(assets)/bell.wav","strikes":2,"strikeSpacing":0.5,"breath":1,"repeat":2,"fadeIn":0,"fadeOut":0}"#
        )
        let data = try #require(t.reply(1)?["data"])
        // The same report; only the clock column depends on when each was made.
        func withoutClock(_ v: JSONValue) -> JSONValue {
            guard case .object(var o) = v, case .array(let events)? = o["events"] else { return v }
            o["events"] = .array(
                events.map { e in
                    guard case .object(var f) = e else { return e }
                    f["clock"] = nil
                    return .object(f)
                })
            return .object(o)
        }
        #expect(withoutClock(data) == withoutClock(expected))
        #expect(data["endFrame"] != nil && data["endFrame"] != .null)
        #expect((data["events"]?.arrayValue?.count ?? 0) > 5)
        server.send(#"{"id":2,"command":"status"}"#)
        #expect(t.reply(2)?["data"]?["state"] == "idle")
        server.send(#"{"id":3,"command":"plan","sitting":10,"strikes":4}"#)
        #expect(t.reply(3)?["error"]?["field"] == "strikes")
        server.closeInput()
        #expect(server.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: assets + "/j.jsonl"))
    }

    /// A reference `start` would refuse is refused by `plan` too, and by `enso plan`: a front end that shows the plan
    /// first learns of it there. Themes are found but not decoded; the interval bell is loaded as the bell is.
    @Test func planRefusesEveryReferenceStartWouldRefuse() throws {
        let assets = ServerFixtures.assets()
        let bell = assets + "/bell.wav"
        let missing = assets + "/none.wav"
        let server = try ServerProcess(["--stdio", "--output", "null", "--journal", assets + "/j.jsonl"])
        let t = server.lines
        let cases: [(fields: String, field: String, options: [String])] = [
            (#""ambient":"no-such-theme""#, "ambient", ["--ambient", "no-such-theme"]),
            (#""ambient":"\#(missing)""#, "ambient", ["--ambient", missing]),
            (#""themeAt":[{"at":2,"theme":"no-such-theme"}]"#, "themeAt", ["--theme-at", "2=no-such-theme"]),
            (#""themeAt":[{"at":2,"theme":"\#(missing)"}]"#, "themeAt", ["--theme-at", "2=" + missing]),
            (
                #""interval":5,"intervalBell":"\#(missing)""#, "intervalBell",
                ["--interval", "5", "--interval-bell", missing]
            ),
        ]
        for (i, c) in cases.enumerated() {
            server.send(#"{"id":\#(i),"command":"plan","sitting":20,"bell":"\#(bell)",\#(c.fields)}"#)
            let error = t.reply(.number(Double(i)))?["error"]
            #expect(
                error?["code"] == "unavailable" && error?["field"] == .string(c.field),
                "\(c.fields): \(String(describing: error))")
            let cli = try ToolRunner.run(
                ToolRunner.executablePath("enso"), ["plan", "--sit", "20", "--bell", bell] + c.options)
            let option = c.options[c.options.count - 2]
            #expect(cli.exitCode != 0 && cli.stderr.hasPrefix("Error: \(option):"), "\(option): \(cli.stderr)")
        }
        // "none" is silence, not a reference.
        server.send(
            #"{"id":"none","command":"plan","sitting":20,"bell":"\#(bell)","ambient":"none","themeAt":[{"at":2,"theme":"none"}]}"#
        )
        #expect(t.reply("none")?["ok"] == true)
        server.closeInput()
        #expect(server.wait() == 0)
    }

    /// A plan with more events than one reply may list is refused before it is listed: a day-long sitting with a
    /// bell every 5 s (17 280 events a cycle), repeated, was listed whole (0.6 s and 75 MB a cycle, the server held
    /// meanwhile; at `repeat` 1 000, minutes and gigabytes) only to be found too long for a reply.
    @Test func aPlanTooLongForAReplyIsRefusedBeforeItIsListed() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        t.send(#"{"id":1,"command":"plan","sitting":86400,"repeat":3,"interval":5,"bell":"\#(assets)/bell.wav"}"#)
        let error = try #require(t.reply(1)?["error"])
        #expect(error["code"] == "unsupported")
        let message = error["message"]?.stringValue ?? ""
        #expect(message.contains("more than 8192 events") && message.contains("fewer cycles"), "\(message)")
        // A plan that fits is listed.
        t.send(#"{"id":2,"command":"plan","sitting":3600,"repeat":3,"interval":60,"bell":"\#(assets)/bell.wav"}"#)
        #expect(t.reply(2)?["data"]?["events"]?.arrayValue?.count ?? 0 > 170)
    }

    @Test func devicesRepliesWhatEnsoDevicesLists() throws {
        let cli = try ToolRunner.run(ToolRunner.executablePath("enso"), ["devices", "--json"])
        try #require(cli.exitCode == 0, "\(cli.stderr)")
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(cli.stdout.utf8))
        let assets = ServerFixtures.assets()
        let server = try ServerProcess(["--stdio", "--output", "null", "--journal", assets + "/j.jsonl"])
        server.send(#"{"id":1,"command":"devices"}"#)
        let data = try #require(server.lines.reply(1)?["data"])
        #expect(data["devices"] == expected)
        #expect(data["devices"]?.arrayValue?.isEmpty == false)
        server.closeInput()
        #expect(server.wait() == 0)
    }
}
