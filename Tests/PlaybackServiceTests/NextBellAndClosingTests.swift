import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// What a timer front end shows between bells: the next bell is the next one heard, interval bells included, in
/// `status` and in observation; `state` is `stopping` while the last cycle's closing group rings and fades; and a
/// crash during that ring loses nothing (the sitting was sat in full).
///
/// In process on the manual clock (``ManualServer``), except the crash, which needs a real `enso serve` to kill.
@Suite(.serialized) struct NextBellAndClosingTests {
    @Test func theNextBellIsTheIntervalBellDueBeforeTheClosingOne() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        t.send(#"{"id":"o","command":"observe","properties":["nextBellGroup","nextBellAt"]}"#)
        #expect(t.reply("o")?["ok"] == true)
        t.send(
            #"{"id":1,"command":"start","sitting":20,"interval":5,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0}"#
        )
        #expect(t.reply(1)?["ok"] == true)
        #expect(t.event("bell") != nil)
        // Observers are told the interval bell at 5 s, not the closing bell at 20 s.
        let observed = try #require(t.next { $0["event"] == "state.changed" && $0["nextBellGroup"] == "interval" })
        let at = try #require(observed["nextBellAt"]?.stringValue.flatMap(ProtocolTime.parse))
        #expect(abs(at.timeIntervalSince(ManualServer.start) - 5) < 0.01, "\(observed)")
        t.send(#"{"id":2,"command":"status"}"#)
        let s = try #require(t.reply(2)?["data"])
        #expect(s["nextBellFrame"] == 240_000)
        #expect(s["nextBellGroup"] == "interval")
        #expect(s["nextEvent"]?["kind"] == "strike")
        #expect(s["nextEvent"]?["frame"] == 240_000)
        #expect(s["nextEvent"]?["group"] == "interval")
        // The first interval bell's event comes when it is rendered, a buffer before it is heard: until then it is
        // still the next bell heard (the status said the one at 10 s, and `endsAt` and `state` followed the frame
        // heard); once heard, the next is the one at 10 s.
        #expect(t.next { $0["event"] == "bell" && $0["group"] == "interval" }?["frame"] == 240_000)
        if let heard = t.output.clock.frameHeardNow, heard < 240_000 {
            t.send(#"{"id":"before","command":"status"}"#)
            #expect(t.reply("before")?["data"]?["nextBellFrame"] == 240_000, "heard \(heard)")
        }
        for _ in 0..<8 where (t.output.clock.frameHeardNow ?? 0) < 240_000 { t.step() }
        t.send(#"{"id":3,"command":"status"}"#)
        #expect(t.reply(3)?["data"]?["nextBellFrame"] == 480_000)
        t.send(#"{"id":4,"command":"stop","bell":false}"#)
        #expect(t.event("session.ended") != nil)
    }

    @Test func theStateIsStoppingWhileTheClosingGroupRingsAndFades() throws {
        let assets = ClosingBellOutcomeTests.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        t.send(#"{"id":"o","command":"observe","properties":["state"]}"#)
        #expect(t.reply("o")?["ok"] == true)
        t.send(
            #"{"id":1,"command":"start","sitting":1,"bell":"\#(assets)/long-bell.wav","strikes":1,"fadeIn":0,"fadeOut":2}"#
        )
        #expect(t.reply(1)?["ok"] == true)
        t.send(#"{"id":2,"command":"status"}"#)
        #expect(t.reply(2)?["data"]?["state"] == "playing")
        #expect(t.next { $0["event"] == "bell" && $0["group"] == "closing" } != nil)
        // Heard a buffer (4 periods) after its event, the closing bell rings (6 s) and the ambient fades: no stop was
        // sent, and the sitting is closing.
        t.advance(periods: 4)
        t.send(#"{"id":3,"command":"status"}"#)
        #expect(t.reply(3)?["data"]?["state"] == "stopping")
        #expect(t.next { $0["event"] == "state.changed" && $0["state"] == "stopping" } != nil)
        #expect(t.event("session.ended")?["record"]?["outcome"] == "completed")
    }

    @Test func aKillNineDuringTheClosingBellIsRecoveredAsCompleted() throws {
        let assets = ClosingBellOutcomeTests.assets()
        let journal = assets + "/data/sessions.jsonl"
        try FileManager.default.createDirectory(
            atPath: assets + "/data", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let server = try ServerProcess(["--stdio", "--output", "null", "--journal", journal])
        server.send(#"{"id":"o","command":"observe","properties":["state"]}"#)
        server.send(
            #"{"id":1,"command":"start","sitting":1,"bell":"\#(assets)/long-bell.wav","strikes":1,"fadeIn":0}"#)
        let id = try #require(server.lines.reply(1)?["data"]?["sessionId"]?.stringValue)
        // The state turns `stopping` when the closing bell is heard, in the poll that writes the checkpoint saying
        // so, before the change is sent; the bell then rings for 6 s. (Its `bell` event comes a buffer earlier, when
        // it is rendered: a kill then, before it sounds, is `interrupted`.)
        #expect(server.lines.next(timeout: 20) { $0["event"] == "state.changed" && $0["state"] == "stopping" } != nil)
        server.kill9()
        let list = try ToolRunner.run("enso", ["sessions", "list", "--json", "--journal", journal])
        #expect(list.exitCode == 0, "\(list.stderr)")
        let records = try SessionJournal(path: journal).read().records
        #expect(records.map(\.id) == [id])
        #expect(records.first?.outcome == .completed)
        #expect(records.first?.satSeconds == 1)
        #expect(records.first?.cyclesCompleted == 1)
    }
}

/// `preview`'s reply on the manual clock: its `endsAt` is when its last frame is heard, and a theme whose seam is
/// fixed in memory says so in `warnings`, as `start` and `set` do.
@Suite(.serialized) struct PreviewReplyTests {
    @Test func endsAtIsWhenTheLastFrameIsHeardAndASeamFixIsAWarning() throws {
        let dir = ServerFixtures.assets()
        let hum = try EngineAssetLoaderTests.writeFailingDrone(in: dir)
        let t = try ManualServer(journal: dir + "/j.jsonl")
        t.send(#"{"id":1,"command":"preview","theme":"\#(hum)","seconds":2}"#)
        let reply = try #require(t.reply(1)?["data"])
        let warnings = reply["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(warnings.count == 1, "\(reply)")
        #expect(warnings.first?.hasPrefix("theme: " + hum + ": the loop's seam is not seamless (") == true)
        let startsAt = try #require(reply["startsAt"]?.stringValue.flatMap(ProtocolTime.parse))
        let endsAt = try #require(reply["endsAt"]?.stringValue.flatMap(ProtocolTime.parse))
        #expect(abs(endsAt.timeIntervalSince(startsAt) - 2) < 0.002, "\(reply)")
        // Every frame written, then time passes 5 ms at a time: the preview ends as its last frame is heard.
        t.advance(periods: 100)
        var ended: JSONValue?
        for _ in 0..<400 where ended == nil {
            t.wait(seconds: 0.005)
            ended = t.next(within: 0) { $0["event"] == "preview.ended" }
        }
        let at = try #require(ended?["at"]?.stringValue.flatMap(ProtocolTime.parse))
        #expect(ended?["reason"] == "finished")
        // Within one period (what a write advances the clock by) and one 5 ms wait of the announced end.
        #expect(
            abs(at.timeIntervalSince(endsAt)) <= ManualServer.periodSeconds + 0.006, "ended \(at), endsAt \(endsAt)")
        // A bell preview has no seam to fix: no warnings.
        t.send(#"{"id":2,"command":"preview","bell":"\#(dir)/bell.wav"}"#)
        #expect(t.reply(2)?["data"]?["warnings"] == nil)
    }
}
