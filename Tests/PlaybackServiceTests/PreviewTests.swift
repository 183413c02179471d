import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

/// `preview` through a real server: a bell and a theme without a session, ended by `stop`, replaced by `start`,
/// refused during a session; nothing journaled.
@Suite(.serialized) struct PreviewTests {
    @Test func aBellPreviewPlaysOutAndNothingIsJournaled() throws {
        let assets = ServerFixtures.assets()
        let server = try ServerProcess(["--stdio", "--output", "null", "--journal", assets + "/j.jsonl"])
        let t = server.lines
        server.send(#"{"id":1,"command":"preview","bell":"\#(assets)/bell.wav"}"#)
        let reply = try #require(t.reply(1)?["data"])
        #expect(reply["kind"] == "bell")
        #expect(reply["asset"]?.stringValue == assets + "/bell.wav")
        let seconds = try #require(reply["seconds"]?.numberValue)
        // The fixture bell decays as exp(-t / 0.1 s) from 0.5: below 0.001 after 0.1 * ln(500) = 0.62 s, but the
        // file is 0.5 s long, so it sounds to its end.
        #expect(abs(seconds - 0.5) < 0.01, "\(seconds)")
        let ended = try #require(t.event("preview.ended")?.json)
        #expect(ended["previewId"] == reply["previewId"])
        #expect(ended["reason"] == "finished")
        server.send(#"{"id":2,"command":"status"}"#)
        #expect(t.reply(2)?["data"]?["state"] == "idle")
        server.send(#"{"id":3,"command":"preview"}"#)
        #expect(t.reply(3)?["error"]?["code"] == "invalid-request")
        server.send(#"{"id":4,"command":"preview","bell":"\#(assets)/bell.wav","seconds":3}"#)
        #expect(t.reply(4)?["error"]?["field"] == "seconds")
        server.send(#"{"id":5,"command":"preview","theme":"\#(assets)/nope.wav"}"#)
        #expect(t.reply(5)?["error"]?["code"] == "unavailable")
        server.closeInput()
        #expect(server.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: assets + "/j.jsonl"))
    }

    @Test func aThemePreviewEndsOnStopAndOnStartAndIsRefusedDuringASession() throws {
        let assets = ServerFixtures.assets()
        let server = try ServerProcess(["--stdio", "--output", "null", "--journal", assets + "/j.jsonl"])
        let t = server.lines
        server.send(#"{"id":1,"command":"preview","theme":"\#(assets)/rain.wav","seconds":60,"volume":0.5}"#)
        let first = try #require(t.reply(1)?["data"])
        #expect(first["kind"] == "theme")
        #expect(first["seconds"] == 60)
        server.send(#"{"id":2,"command":"stop"}"#)
        #expect(t.reply(2)?["data"]?["previewId"] == first["previewId"])
        let stopped = try #require(t.event("preview.ended")?.json)
        #expect(stopped["reason"] == "stopped")
        #expect(stopped["previewId"] == first["previewId"])
        // A start takes the output from a preview, which ends first.
        server.send(#"{"id":3,"command":"preview","theme":"\#(assets)/rain.wav","seconds":60}"#)
        let second = try #require(t.reply(3)?["data"])
        server.send(#"{"id":4,"command":"start","sitting":60,"bell":"\#(assets)/bell.wav","strikes":1}"#)
        #expect(t.reply(4)?["ok"] == true)
        let replaced = try #require(t.event("preview.ended")?.json)
        #expect(replaced["reason"] == "replaced")
        #expect(replaced["previewId"] == second["previewId"])
        // During a session a preview would sound inside the sitting: refused.
        server.send(#"{"id":5,"command":"preview","bell":"\#(assets)/bell.wav"}"#)
        let refused = try #require(t.reply(5)?["error"])
        #expect(refused["code"] == "busy")
        #expect(refused["message"]?.stringValue?.contains("inside the sitting") == true)
        server.send(#"{"id":6,"command":"stop","bell":false}"#)
        #expect(t.reply(6)?["data"]?["previewId"] == nil)
        #expect(t.event("session.ended") != nil)
        server.send(#"{"id":7,"command":"stop"}"#)
        #expect(t.reply(7)?["error"]?["code"] == "not-playing")
        server.closeInput()
        #expect(server.wait() == 0)
    }

    /// A preview replacing another fades the first out without holding the server: a `status` another client sent
    /// just after is answered before the first preview has been heard through (`preview.ended`), and the second
    /// preview's reply comes after that event (the output is taken by one at a time).
    @Test func aPreviewReplacingAnotherHoldsUpNoOtherClient() throws {
        let (assets, path, server, a) = try ServerFixtures.socketServer()
        defer { server.kill9() }
        let b = try #require(SocketClient(path: path))
        defer {
            a.close()
            b.close()
        }
        // The bell once first, so its second preview finds it cached and acts at once (a load would park it).
        _ = a.send(#"{"id":0,"command":"preview","bell":"\#(assets)/bell.wav"}"# + "\n")
        #expect(a.lines.reply(0)?["ok"] == true)
        #expect(a.lines.event("preview.ended")?.json["reason"] == "finished")
        _ = b.lines.event("preview.ended")
        _ = a.send(#"{"id":1,"command":"preview","theme":"\#(assets)/rain.wav","seconds":60}"# + "\n")
        let first = try #require(a.lines.reply(1)?["data"])
        _ = a.send(#"{"id":2,"command":"preview","bell":"\#(assets)/bell.wav"}"# + "\n")
        _ = b.send(#"{"id":"s","command":"status"}"# + "\n")
        let status = try #require(b.lines.reply("s")?["data"])
        #expect(status["state"] == "idle")
        let ended = try #require(b.lines.event("preview.ended")?.json)
        #expect(ended["previewId"] == first["previewId"])
        #expect(ended["reason"] == "replaced")
        // By the server's own clock: the status was made while the first preview was still fading out (an
        // output buffer), not after the server had waited for it.
        let madeAt = try #require(status["now"]?.stringValue)
        let endedAt = try #require(ended["at"]?.stringValue)
        #expect(madeAt < endedAt, "status made at \(madeAt), the preview ended at \(endedAt)")
        let bLines = b.lines.all.map(\.json)
        let statusAt = try #require(bLines.firstIndex { $0["id"] == "s" })
        let endedLine = try #require(
            bLines.firstIndex { $0["event"] == "preview.ended" && $0["previewId"] == first["previewId"] })
        #expect(statusAt < endedLine, "\(bLines)")
        let second = try #require(a.lines.reply(2)?["data"])
        #expect(second["kind"] == "bell")
        let aLines = a.lines.all.map(\.json)
        let secondAt = try #require(aLines.firstIndex { $0["id"] == 2 })
        let aEndedAt = try #require(
            aLines.firstIndex { $0["event"] == "preview.ended" && $0["previewId"] == first["previewId"] })
        #expect(aEndedAt < secondAt, "\(aLines)")
    }
}
