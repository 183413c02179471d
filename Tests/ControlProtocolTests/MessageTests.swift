import ControlProtocol
import Foundation
import Testing

@Suite struct MessageTests {
    @Test func encoderIsCompactSortedAndEscapes() {
        let v: JSONValue = ["b": [1, 2.5, nil, true], "a": "q\"\\\n\u{01}é", "c": .number(.infinity)]
        #expect(MessageEncoder.encode(v) == #"{"a":"q\"\\\n\u0001é","b":[1,2.5,null,true],"c":null}"#)
        #expect(MessageEncoder.line(["x": 1]) == Array("{\"x\":1}\n".utf8))
    }

    @Test func encodedValuesDecodeBackEqual() throws {
        let v: JSONValue = ["id": "r1", "n": -3, "f": 0.001, "big": 4_000_000_000, "nest": ["a": [["b": false]]]]
        let back = try JSONDecoder().decode(JSONValue.self, from: Data(MessageEncoder.encode(v).utf8))
        #expect(back == v)
    }

    @Test func repliesCarryTheIdOkAndDataOrError() {
        #expect(
            MessageEncoder.encode(Reply.ok(5, ["state": "idle"]).json) == #"{"data":{"state":"idle"},"id":5,"ok":true}"#
        )
        let e = Reply.failure("a", .invalidField("strikes", "4 is out of range (1...3)"))
        #expect(
            MessageEncoder.encode(e.json)
                == #"{"error":{"code":"invalid-field","field":"strikes","message":"strikes: 4 is out of range (1...3)"},"id":"a","ok":false}"#
        )
        #expect(Reply.ok(nil).json["id"] == nil)
    }

    @Test func eventsAndHello() {
        let e = ProtocolEvent.cycleStarted(
            CycleStarted(sessionId: "s", cycle: 1, time: EventTime(frame: 0, outputFrame: 0, at: "t", endsAt: "u")))
        #expect(
            MessageEncoder.encode(e.json)
                == #"{"at":"t","cycle":1,"endsAt":"u","event":"cycle.started","frame":0,"outputFrame":0,"sessionId":"s"}"#
        )
        #expect(e.kind == .cycleStarted)
        let h = Hello(server: "enso 0.1.0", output: "null", sampleRate: 48000).json
        #expect(h["event"] == "hello")
        #expect(h["protocol"] == .number(Double(ProtocolVersion.current)))
        #expect(h["commands"]?.arrayValue?.count == ControlCommand.names.count)
        #expect(h["events"]?.arrayValue?.count == EventKind.all.count)
        #expect(h["maxLineBytes"] == 65536)
        #expect(h["sampleRate"] == 48000)
    }

    @Test func timesAreISO8601WithMilliseconds() {
        let d = Date(timeIntervalSince1970: 1_795_973_485.123_9)
        #expect(ProtocolTime.format(d) == "2026-11-29T17:31:25.123Z")
        #expect(ProtocolTime.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        let back = ProtocolTime.parse("2026-11-29T17:31:25.123Z")!
        // Milliseconds survive the round trip exactly up to Double rounding of the epoch seconds (< 1 µs).
        #expect(abs(back.timeIntervalSince1970 - 1_795_973_485.123) < 1e-6)
        #expect(ProtocolTime.parse("2026-11-29T17:31:25Z") != nil)
        #expect(ProtocolTime.parse("2026-13-29T18:51:25Z") == nil)
        #expect(ProtocolTime.parse("yesterday") == nil)
    }
}
