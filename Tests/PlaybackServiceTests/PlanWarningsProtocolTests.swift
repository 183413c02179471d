import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

/// The protocol says what a plan asks for and will not get (an interval time that never rings) in `plan` and
/// `start`, shows an open end as `null`, and answers a request whose `command` is not a string as the envelope
/// error docs/protocol.md names.
@Suite(.serialized) struct PlanWarningsProtocolTests {
    @Test func planAndStartWarnOfIntervalTimesThatNeverRing() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        let fields = #""sitting":20,"strikes":1,"fadeIn":0,"bell":"\#(assets)/bell.wav","intervalAt":[25,10]"#
        t.send(#"{"id":1,"command":"plan",\#(fields)}"#)
        let plan = try #require(t.reply(1)?["data"])
        #expect(plan["warnings"] == ["intervalAt 25 s never rings: it is past the end of the sitting (20 s)"])
        t.send(#"{"id":2,"command":"start",\#(fields)}"#)
        let start = try #require(t.reply(2)?["data"])
        #expect(start["warnings"] == ["intervalAt 25 s never rings: it is past the end of the sitting (20 s)"])
        t.send(#"{"id":3,"command":"stop","bell":false}"#)
        #expect(t.event("session.ended") != nil)
        // A plan whose times all ring has none; one that repeats forever has a null end.
        t.send(#"{"id":4,"command":"plan","sitting":20,"bell":"\#(assets)/bell.wav","repeat":"forever","interval":5}"#)
        let forever = try #require(t.reply(4)?["data"])
        #expect(forever["warnings"] == nil)
        #expect(forever["endFrame"] == .null && forever["duration"] == .null && forever["cycles"] == .null)
    }

    @Test func aCommandThatIsNotAStringIsAnInvalidRequest() throws {
        let t = try ManualServer(journal: ServerFixtures.assets() + "/j.jsonl")
        for (i, command) in ["5", "true", "[\"start\"]", "{}"].enumerated() {
            t.send(#"{"id":\#(i),"command":\#(command)}"#)
            let reply = try #require(t.reply(.number(Double(i))))
            #expect(reply["error"]?["code"] == "invalid-request", "\(command): \(reply)")
        }
    }
}
