import ControlProtocol
import Testing

/// Request lines and the exact reply lines the protocol layer makes for them: pins codes, fields and
/// message wording that front ends may show. Commands that reach the service are answered here with
/// their decoded fields, so the decoding itself is what the transcript checks.
@Suite struct GoldenTranscriptTests {
    private func reply(_ line: String) -> String {
        var framer = LineFramer(limit: 96)
        var frames = framer.append(Array((line + "\n").utf8))
        if frames.isEmpty, let last = framer.finish() { frames = [last] }
        guard let frame = frames.first else { return "" }
        switch frame {
        case .oversized:
            return MessageEncoder.encode(Reply.failure(nil, ProtocolError(.lineTooLong, "line dropped")).json)
        case .line(let bytes):
            let parsed = Result(catching: { () throws(Request.Failure) in try Request.parse(bytes) })
            guard case .success(let request) = parsed else {
                if case .failure(let f) = parsed { return MessageEncoder.encode(Reply.failure(f.id, f.error).json) }
                return ""
            }
            switch Result(catching: { () throws(ProtocolError) in try ControlCommand(request) }) {
            case .failure(let e):
                return MessageEncoder.encode(Reply.failure(request.id, e).json)
            case .success(let command):
                let data: JSONValue =
                    switch command {
                    case .start(let plan): plan.json
                    case .set(let f): ["volume": f.volume.map { .number($0) } ?? .null]
                    case .sessionsMarkSynced(let ids): ["ids": .array(ids.map { .string($0) })]
                    default: ["command": .string(request.command)]
                    }
                return MessageEncoder.encode(Reply.ok(request.id, data).json)
            }
        }
    }

    @Test func transcript() {
        let golden: [(String, String)] = [
            (#"{"id":1,"command":"status"}"#, #"{"data":{"command":"status"},"id":1,"ok":true}"#),
            (#"{"command":"pause","extra":[1,2,3]}"#, #"{"data":{"command":"pause"},"ok":true}"#),
            (
                #"{"id":"s","command":"start","sitting":1200,"strikes":2,"repeat":"until=06:30","fadeIn":0}"#,
                #"{"data":{"fadeIn":0,"repeat":"until=06:30:00","sitting":1200,"strikes":2},"id":"s","ok":true}"#
            ),
            (
                #"{"id":2,"command":"start"}"#,
                #"{"error":{"code":"invalid-field","field":"sitting","message":"sitting: is required (seconds per cycle)"},"id":2,"ok":false}"#
            ),
            (
                #"{"id":3,"command":"set","volume":1.5}"#,
                #"{"error":{"code":"invalid-field","field":"volume","message":"volume: 1.5 is out of range (0...1)"},"id":3,"ok":false}"#
            ),
            (#"{"id":4,"command":"set","volume":0.25}"#, #"{"data":{"volume":0.25},"id":4,"ok":true}"#),
            (
                #"{"id":5,"command":"sessions.markSynced","ids":["a"]}"#,
                #"{"data":{"ids":["a"]},"id":5,"ok":true}"#
            ),
            (
                #"{"id":6,"command":"fly"}"#,
                #"{"error":{"code":"unknown-command","message":"unknown command 'fly' (known: start, pause, resume, stop, set, strike, status, assets, plan, devices, sessions.list, sessions.markSynced, subscribe, unsubscribe, shutdown)"},"id":6,"ok":false}"#
            ),
            (#"{"id":7}"#, #"{"error":{"code":"invalid-request","message":"the request has no \"command\" field"},"id":7,"ok":false}"#),
            ("[]", #"{"error":{"code":"invalid-request","message":"a request must be a JSON object, not array"},"ok":false}"#),
            ("{oops", #"{"error":{"code":"invalid-request","message":"the line is not valid JSON"},"ok":false}"#),
            (String(repeating: "x", count: 120), #"{"error":{"code":"line-too-long","message":"line dropped"},"ok":false}"#),
        ]
        for (request, expected) in golden {
            #expect(reply(request) == expected, "\(request)")
        }
    }
}
