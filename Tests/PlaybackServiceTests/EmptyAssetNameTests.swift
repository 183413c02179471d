import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// An empty name names no asset, wherever a bell or a theme is named (`AssetName`, AudioEngine): `invalid-field`
/// naming the field, as `strike`, `preview` and the plan's `bell` answered already. An empty ambient or `themeAt`
/// theme played silence, an empty `set` theme silenced the session and `prefetch` of `""` replied ok with nothing
/// prefetched. `none`, and a left-out or `null` `ambient`, still say silence.
@Suite struct EmptyAssetNameTests {
    static let silence = "is empty: an empty id names no asset; give an asset id, a sound file or none for silence"

    @Test func everyRequestThatNamesAThemeRefusesAnEmptyOne() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        let bell = #""bell":"\#(assets)/bell.wav""#
        let cases: [(line: String, field: String, message: String)] = [
            (#"{"id":1,"command":"plan","sitting":10,\#(bell),"ambient":""}"#, "ambient", "ambient " + Self.silence),
            (#"{"id":2,"command":"start","sitting":10,\#(bell),"ambient":""}"#, "ambient", "ambient " + Self.silence),
            (
                #"{"id":3,"command":"plan","sitting":10,\#(bell),"themeAt":[{"at":2,"theme":""}]}"#, "themeAt",
                "themeAt[0].theme " + Self.silence
            ),
            (#"{"id":4,"command":"prefetch","themes":[""]}"#, "themes[0]", "themes[0] " + Self.silence),
        ]
        for c in cases {
            t.send(c.line)
            let id = try Request.parse(Array(c.line.utf8)).id ?? .null
            let error = t.reply(id)?["error"]
            #expect(error?["code"] == "invalid-field", "\(c.line): \(String(describing: error))")
            #expect(error?["field"]?.stringValue == c.field && error?["message"]?.stringValue == c.message)
        }
        // Silence is still said the documented ways.
        for (i, ambient) in [#","ambient":"none""#, #","ambient":null"#, ""].enumerated() {
            t.send(#"{"id":"p\#(i)","command":"plan","sitting":10,\#(bell)\#(ambient)}"#)
            #expect(t.reply(.string("p\(i)"))?["ok"] == true, "\(ambient)")
        }
    }

    /// `set {"theme":""}` during a session is refused and changes nothing: the theme plays on.
    @Test func anEmptySetThemeLeavesTheSessionsTheme() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        t.send(
            #"{"id":1,"command":"start","sitting":60,"strikes":1,"bell":"\#(assets)/bell.wav","ambient":"\#(assets)/rain.wav","fadeIn":0}"#
        )
        #expect(t.reply(1)?["ok"] == true)
        t.send(#"{"id":2,"command":"set","theme":""}"#)
        let error = t.reply(2)?["error"]
        #expect(error?["code"] == "invalid-field" && error?["field"] == "theme", "\(String(describing: error))")
        #expect(error?["message"]?.stringValue == "theme " + Self.silence)
        t.advance(periods: 10)
        t.send(#"{"id":3,"command":"status"}"#)
        #expect(t.reply(3)?["data"]?["theme"]?.stringValue == assets + "/rain.wav")
        #expect(!t.all.contains { $0["event"] == "theme.changed" })
        t.send(#"{"id":4,"command":"set","theme":"none","crossfade":0.1}"#)
        #expect(t.reply(4)?["ok"] == true)
        #expect(t.event("theme.changed")?["theme"] == .null)
        t.send(#"{"id":5,"command":"stop","bell":false}"#)
        #expect(t.event("session.ended") != nil)
    }
}
