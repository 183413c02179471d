import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

/// `start`'s `themeAt`: frame-exact, pause-aware, listed by `plan`, reported when it happens.
@Suite struct ScheduledThemeTests {
    /// In process on the manual clock (``ManualServer``).
    @Test func aPauseBeforeAScheduledChangeMovesItOnTheOutputNotInSessionFrames() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        t.send(
            #"{"id":1,"command":"start","sitting":60,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0,"themeAt":[{"at":1.5,"theme":"\#(assets)/rain.wav","crossfade":0.2},{"at":1,"theme":"none"}]}"#
        )
        let started = try #require(t.reply(1)?["data"])
        // The echo lists the changes resolved, in order of time.
        #expect(
            started["plan"]?["themeAt"] == [
                ["at": 1, "theme": "none", "crossfade": 3],
                ["at": 1.5, "theme": .string(assets + "/rain.wav"), "crossfade": 0.2],
            ])
        #expect(t.event("bell") != nil)
        // Paused before the first change at 1 s of sat time: on the manual clock no time passes between the bell's
        // event and the pause (through a paced child, a loaded machine could delay the pause past the change).
        t.send(#"{"id":2,"command":"pause"}"#)
        #expect(t.reply(2)?["ok"] == true)
        let paused = try #require(t.event("session.paused"))
        try #require((paused["frame"]?.numberValue ?? .infinity) < 48_000, "the pause came after the change")
        t.advance(periods: 10)
        t.send(#"{"id":3,"command":"resume"}"#)
        let resumed = try #require(t.event("session.resumed"))
        let pausedFrames = try #require(resumed["outputFrame"]?.numberValue) - (resumed["frame"]?.numberValue ?? 0)
        #expect(pausedFrames > 0)
        let silence = try #require(t.event("theme.changed"))
        let rain = try #require(t.event("theme.changed"))
        // Each on exactly its session frame; on the output, later by the frames paused.
        #expect(silence["theme"] == .null)
        #expect(silence["frame"] == 48_000)
        #expect(silence["outputFrame"]?.numberValue == 48_000 + pausedFrames)
        #expect(rain["theme"]?.stringValue == assets + "/rain.wav")
        #expect(rain["frame"] == 72_000)
        #expect(rain["outputFrame"]?.numberValue == 72_000 + pausedFrames)
        #expect(rain["endsAt"]?.stringValue != nil)
        t.send(#"{"id":4,"command":"status"}"#)
        #expect(t.reply(4)?["data"]?["theme"]?.stringValue == assets + "/rain.wav")
        t.send(#"{"id":5,"command":"stop","bell":false}"#)
        let record = try #require(t.event("session.ended")?["record"])
        #expect(record["themes"]?.arrayValue?.map { $0["frame"] } == [0, 48_000, 72_000])
    }

    @Test func planListsTheChangesAndBadChangesNameThemselves() throws {
        let assets = ServerFixtures.assets()
        let server = try ServerProcess(["--stdio", "--output", "null", "--journal", assets + "/j.jsonl"])
        let t = server.lines
        let plan =
            #""sitting":10,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0,"fadeOut":0"#
        server.send(#"{"id":1,"command":"plan",\#(plan),"themeAt":[{"at":4,"theme":"rain"}]}"#)
        let events = try #require(t.reply(1)?["data"]?["events"]?.arrayValue)
        let change = try #require(events.first { $0["kind"] == "theme-change" })
        #expect(change["frame"] == 192_000)
        #expect(change["theme"] == "rain")
        let cases: [(String, String)] = [
            (#""themeAt":{"at":1}"#, "must be an array"),
            (#""themeAt":[{"theme":"rain"}]"#, "needs \"at\""),
            (#""themeAt":[{"at":1}]"#, "needs \"theme\""),
            (#""themeAt":[{"at":-1,"theme":"rain"}]"#, "themeAt[0].at -1 s is outside 0..."),
            (
                #""themeAt":[{"at":1,"theme":"rain","crossfade":90}]"#,
                "themeAt[0].crossfade 90 s is outside 0.05...60 s"
            ),
            (#""themeAt":[{"at":20,"theme":"rain"}]"#, "at 20 s is at or after the session's end ("),
        ]
        for (i, (field, message)) in cases.enumerated() {
            server.send(#"{"id":\#(i + 10),"command":"start",\#(plan),\#(field)}"#)
            let error = try #require(t.reply(.number(Double(i + 10)))?["error"])
            #expect(error["field"] == "themeAt")
            #expect(error["message"]?.stringValue?.contains(message) == true, "\(error)")
        }
        server.send(#"{"id":2,"command":"status"}"#)
        #expect(t.reply(2)?["data"]?["state"] == "idle")
        server.closeInput()
        #expect(server.wait() == 0)
    }
}
