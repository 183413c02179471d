import ControlProtocol
import Foundation
import Testing

/// The protocol's JSON parser (issue 18, item 2): the same values as `JSONDecoder`, in linear time, nesting capped.
@Suite struct JSONParserTests {
    private func parse(_ text: String) -> Result<JSONValue, JSONParser.Failure> {
        do throws(JSONParser.Failure) { return .success(try JSONParser.parse(Array(text.utf8))) } catch {
            return .failure(error)
        }
    }

    private func nestedObjects(_ depth: Int) -> String {
        String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    }

    @Test func agreesWithJSONDecoderOnValidLines() throws {
        let lines = [
            #"{"id":7,"command":"status","futureField":{"x":[1,2]}}"#,
            #" { "a" : [ true , false , null , -0.5e-3 , 1E2 , 0 ] , "b" : "\u00e9\ud83d\ude00\n\"\\\/" } "#,
            #"{"command":"start","sitting":600,"bell":"/tmp/b.wav","strikes":3,"repeat":"until 06:30"}"#,
            #"[]"#, #"{}"#, #"[[],{},[{}]]"#, #""caf\u00E9""#, "12345678901234567890", "-1.5",
            #"{"k":1,"k":2}"#,
        ]
        for line in lines {
            let expected = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            let got = try parse(line).get()
            #expect(got == expected, "\(line): \(expected) vs \(got)")
        }
    }

    @Test func refusesWhatIsNotJSON() {
        for text in [
            "", " ", "{", "[1,]", #"{"a":1,}"#, "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", #""\x""#,
            #""\ud800""#, #""\udc00x""#, "\"a\u{1}b\"", #"{"a" 1}"#, "[1 2]", "1e400", "NaN", "[1]x", #"{'a':1}"#,
        ] {
            guard case .failure(.invalid) = parse(text) else {
                Issue.record("\(text.debugDescription) must be invalid, got \(parse(text))")
                continue
            }
        }
    }

    @Test func nestingIsCappedAtThirtyTwoLevels() throws {
        let deepest = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(try parse(deepest).get().arrayValue != nil)
        #expect(try parse(nestedObjects(31)).get()["a"] != nil)
        guard case .failure(.tooDeep) = parse("[" + deepest + "]") else {
            Issue.record("33 levels must be too deep"); return
        }
        guard case .failure(.tooDeep) = parse(nestedObjects(33)) else {
            Issue.record("33 objects must be too deep"); return
        }
    }

    /// `1e400` is valid JSON no Double holds: the line is refused as before, but its reply now carries its id and
    /// says which number (it was "not valid JSON", without the id), wherever the number is.
    @Test func aNumberOutOfRangeIsRefusedWithTheLinesID() {
        // (`Optional.none` spelt out: JSONValue is ExpressibleByNilLiteral, so a bare `nil` is `.null`.)
        let cases: [(String, JSONValue?)] = [
            (#"{"id":20,"command":"start","sitting":1e400}"#, .number(20)),
            (#"{"command":"start","plan":{"x":[-1e309]},"id":"late"}"#, .string("late")),
            (#"{"id":1e400,"command":"status"}"#, JSONValue?.none),
        ]
        for (line, id) in cases {
            do throws(Request.Failure) {
                _ = try Request.parse(Array(line.utf8))
                Issue.record("\(line) must be refused")
            } catch {
                #expect(error.error.code == .invalidRequest)
                #expect(error.error.message.contains("is out of range: numbers must be finite"), "\(error.error)")
                #expect(error.id == id, "\(line)")
            }
        }
    }

    @Test func aDeeplyNestedRequestIsRefusedAsNestedTooDeeply() {
        let line = Array((#"{"id":1,"command":"status","x":"# + nestedObjects(511) + "}").utf8)
        do throws(Request.Failure) {
            _ = try Request.parse(line)
            Issue.record("a 511-deep line must be refused")
        } catch {
            #expect(error.error.code == .invalidRequest)
            #expect(error.error.message.contains("nested too deeply"), "\(error.error.message)")
            #expect(error.id == 1, "the id is still echoed")
        }
        // Deep inside a string, brackets are not nesting; an id after the deep value is found too.
        // The JSON string "]]]\"[" (an escaped quote inside) at the bottom of 40 arrays.
        let tricky = #""]]]\"[""#
        let after = Array(
            (#"{"x":"# + String(repeating: "[", count: 40) + tricky + String(repeating: "]", count: 40)
                + #","id":"late","command":"status"}"#).utf8)
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(after))) != nil, "the line is JSON")
        do throws(Request.Failure) {
            _ = try Request.parse(after)
            Issue.record("40 levels must be refused")
        } catch {
            #expect(error.id == "late")
        }
    }

    /// A hostile client's attack: 3 KB lines of 511 nested objects cost JSONDecoder over a second each. Fifty of them, and a
    /// 64 KiB line of brackets, now cost a few milliseconds. Measured in this thread's CPU time, which other
    /// processes' load does not stretch as it does the wall clock; the bound is loose (a thousand times the cost).
    @Test func hostileNestingIsCheap() {
        let deep = Array(nestedObjects(511).utf8)
        let brackets = [UInt8](repeating: UInt8(ascii: "["), count: 65_536)
        let seconds = Self.cpuSeconds {
            for _ in 0..<50 { _ = try? JSONParser.parse(deep) }
            _ = try? JSONParser.parse(brackets)
            for _ in 0..<50 { _ = try? Request.parse(deep) }
        }
        #expect(seconds < 3, "\(seconds) s")
        // A long flat line is linear too: 64 KiB of numbers.
        let flat = Array(("[" + Array(repeating: "1", count: 32_000).joined(separator: ",") + "]").utf8)
        #expect(Self.cpuSeconds { _ = try? JSONParser.parse(flat) } < 1)
    }

    /// The CPU time the calling thread spends in `work`, in seconds (`CLOCK_THREAD_CPUTIME_ID`).
    static func cpuSeconds(_ work: () -> Void) -> Double {
        func now() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        let start = now()
        work()
        return now() - start
    }

    @Test func anIdOfTwoToThe53IsEchoedAsAnInteger() throws {
        let request = try Request.parse(Array(#"{"id":9007199254740992,"command":"status"}"#.utf8))
        let line = String(decoding: Reply.failure(request.id, ProtocolError(.notPlaying, "x")).line, as: UTF8.self)
        #expect(line.contains(#""id":9007199254740992,"#), "\(line)")
        #expect(MessageEncoder.encode(.number(Double("-9007199254740993")!)) == "-9007199254740992")
        #expect(MessageEncoder.encode(.number(1e20)) == "1e+20")
        #expect(MessageEncoder.encode(.number(0.5)) == "0.5")
    }
}
