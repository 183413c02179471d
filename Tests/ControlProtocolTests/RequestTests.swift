import ControlProtocol
import Foundation
import Testing

@Suite struct RequestTests {
    private func parse(_ text: String) -> Result<Request, Request.Failure> {
        do throws(Request.Failure) { return .success(try Request.parse(Array(text.utf8))) } catch {
            return .failure(error)
        }
    }

    private func failure(_ text: String) -> Request.Failure? {
        if case .failure(let f) = parse(text) { return f }
        return nil
    }

    @Test func envelopeIsReadAndUnknownFieldsAreKept() throws {
        let r = try Request.parse(Array(#"{"id":7,"command":"status","futureField":{"x":[1,2]}}"#.utf8))
        #expect(r.id == 7)
        #expect(r.command == "status")
        #expect(r.fields["futureField"]?["x"] == [1, 2])
        #expect(try ControlCommand(r) == .status)
        let s = try Request.parse(Array(#"{"id":"abc","command":"pause","id2":null}"#.utf8))
        #expect(s.id == "abc")
    }

    /// `"id": null` is no id: the reply has none, as docs/protocol.md says, also when the line is refused.
    @Test func aNullIdIsNoId() throws {
        let r = try Request.parse(Array(#"{"id":null,"command":"status"}"#.utf8))
        #expect(r.id == nil)
        #expect(Reply.ok(r.id).json["id"] == nil)
        let f = try #require(failure(#"{"id":null,"command":3}"#))
        #expect(f.id == nil)
        #expect(Reply.failure(f.id, f.error).json["id"] == nil)
    }

    /// `start` (and `plan`) list the fields they ignore, as `set` does: a misspelt `ambientVolme` shows, while the
    /// plan fields, the switches and `themeAt` are known.
    @Test func planFieldsListTheFieldsTheyIgnore() throws {
        let line =
            #"{"id":1,"command":"start","sitting":60,"ambientVolme":0.2,"stopBell":false,"seamFix":true,"#
            + #""themeAt":[],"intervalAt":[30],"bellVolume":0.5,"zz":null}"#
        guard case .start(let plan) = try ControlCommand(try Request.parse(Array(line.utf8))) else {
            Issue.record("not a start")
            return
        }
        #expect(plan.ignoredFields == ["ambientVolme", "zz"])
        #expect(plan.values["ambientVolme"] != nil)
    }

    /// Inside `themeAt` too, by path: a misspelt `crosfade` took the default crossfade unsaid.
    @Test func planFieldsListTheThemeAtMembersTheyIgnore() throws {
        let line =
            #"{"command":"start","sitting":60,"themeAt":[{"at":10,"theme":"rain","crosfade":2},"#
            + #"{"at":20,"theme":"none","crossfade":1,"foo":null},5],"zz":1}"#
        guard case .start(let plan) = try ControlCommand(try Request.parse(Array(line.utf8))) else {
            Issue.record("not a start")
            return
        }
        #expect(plan.ignoredFields == ["themeAt[0].crosfade", "themeAt[1].foo", "zz"])
    }

    @Test func malformedLinesGetInvalidRequest() {
        for text in ["{", "not json", "[1,2]", "42", "\"status\"", "{\"command\":", "{}"] {
            let f = failure(text)
            #expect(f?.error.code == .invalidRequest, "\(text)")
            #expect(f?.id == nil)
        }
        let binary: [UInt8] = [0xFF, 0xFE, 0x00, 0x01, 0x7B, 0x80]
        #expect(throws: Request.Failure.self) { try Request.parse(binary) }
    }

    @Test func missingOrWrongCommandKeepsTheId() {
        let f = failure(#"{"id":3}"#)
        #expect(f?.id == 3)
        #expect(f?.error.code == .invalidRequest)
        let g = failure(#"{"id":"x","command":5}"#)
        #expect(g?.id == "x")
        // Not a request: the envelope's error, as docs/protocol.md says (it was `invalid-field` before 2026-12-04).
        #expect(g?.error.code == .invalidRequest)
        #expect(g?.error.field == nil)
        let h = failure(#"{"id":[1],"command":"status"}"#)
        #expect(h?.error.field == "id")
    }

    @Test func anIdIsAStringOrANumberAndNothingElse() {
        // A Boolean id is refused like an object or an array: a client matching replies by id compares strings
        // and numbers, and `true` would echo as an id nobody sent.
        for (text, kind) in [
            (#"{"id":true,"command":"status"}"#, "boolean"), (#"{"id":false,"command":"status"}"#, "boolean"),
            (#"{"id":{"a":1},"command":"status"}"#, "object"), (#"{"id":[1],"command":"status"}"#, "array"),
        ] {
            let f = failure(text)
            #expect(f?.error.code == .invalidField, "\(text)")
            #expect(f?.error.field == "id", "\(text)")
            #expect(f?.error.message.contains("must be a string or a number, not \(kind)") == true, "\(text)")
            #expect(f?.id == nil, "\(text)")
        }
        // `null` is no id at all; strings and numbers are echoed.
        #expect((try? parse(#"{"id":null,"command":"status"}"#).get())?.id == nil)
        #expect((try? parse(#"{"id":-2.5,"command":"status"}"#).get())?.id == -2.5)
        #expect((try? parse(#"{"id":"","command":"status"}"#).get())?.id == "")
    }

    @Test func typedAccessorsNameTheFieldAndRange() throws {
        let r = Request(command: "x", fields: ["a": 1.5, "b": "s", "c": true, "d": ["p", 2], "e": 2.5, "n": nil])
        #expect(try r.number("a", in: 0...2) == 1.5)
        #expect(try r.number("n", in: 0...2) == nil)
        #expect(try r.number("missing", in: 0...2) == nil)
        #expect(throws: ProtocolError(.invalidField, "a 1.5 s is outside 0...1 s", field: "a")) {
            try r.number("a", in: 0...1, unit: "s")
        }
        #expect(throws: ProtocolError.invalidField("b", "must be a number, not string")) {
            try r.number("b", in: 0...1)
        }
        #expect(throws: ProtocolError.invalidField("a", "must be true or false, not number")) { try r.bool("a") }
        #expect(throws: ProtocolError.invalidField("e", "must be a whole number, not a fraction")) {
            try r.integer("e", in: 0...5)
        }
        // The element by its index, as docs/protocol.md names `bells[i]`.
        #expect(throws: ProtocolError.invalidField("d[1]", "must be a string, not number")) {
            try r.strings("d")
        }
    }

    @Test func everyCommandDecodes() throws {
        func cmd(_ json: String) throws -> ControlCommand { try ControlCommand(try Request.parse(Array(json.utf8))) }
        let plan = PlanFields(values: ["sitting": 1200, "strikes": 3, "repeat": "until=06:30", "ambient": "none"])
        #expect(
            try cmd(#"{"command":"start","sitting":1200,"strikes":3,"repeat":"until=06:30","ambient":"none"}"#)
                == .start(plan))
        #expect(try cmd(#"{"command":"pause"}"#) == .pause)
        #expect(try cmd(#"{"command":"resume"}"#) == .resume)
        #expect(try cmd(#"{"command":"stop","bell":false}"#) == .stop(bell: false))
        #expect(try cmd(#"{"command":"set","volume":0.5}"#) == .set(SetFields(volume: 0.5)))
        // `ramp` is read; unknown fields are ignored but listed (sorted) so the reply can show a typo.
        var ramped = SetFields(bellVolume: 0.2, ramp: 2)
        ramped.ignoredFields = ["rampp", "voluem"]
        #expect(try cmd(#"{"id":9,"command":"set","bellVolume":0.2,"ramp":2,"voluem":1,"rampp":3}"#) == .set(ramped))
        #expect(try cmd(#"{"command":"strike"}"#) == .strike(bell: nil))
        #expect(try cmd(#"{"command":"status"}"#) == .status)
        #expect(try cmd(#"{"command":"assets"}"#) == .assets)
        #expect(try cmd(#"{"command":"devices"}"#) == .devices)
        #expect(
            try cmd(#"{"command":"plan","sitting":60}"#)
                == .plan(try PlanFields(Request(command: "plan", fields: ["sitting": 60]))))
        #expect(try cmd(#"{"command":"sessions.list","limit":5}"#) == .sessionsList(SessionsQuery(limit: 5)))
        #expect(
            try cmd(#"{"command":"sessions.list","after":"a","unsyncedOnly":true}"#)
                == .sessionsList(
                    SessionsQuery(limit: SessionsQuery.defaultLimit, anchor: .after("a"), unsyncedOnly: true)))
        #expect(
            try cmd(#"{"command":"sessions.list","before":"b"}"#) == .sessionsList(SessionsQuery(anchor: .before("b"))))
        #expect(try cmd(#"{"command":"sessions.markSynced","ids":["a","b"]}"#) == .sessionsMarkSynced(ids: ["a", "b"]))
        #expect(try cmd(#"{"command":"subscribe","events":["bell"]}"#) == .subscribe([.bell]))
        #expect(try cmd(#"{"command":"unsubscribe"}"#) == .unsubscribe(nil))
        #expect(try cmd(#"{"command":"shutdown"}"#) == .shutdown)
        #expect(
            try cmd(#"{"command":"preview","theme":"rain","seconds":5,"volume":0.4}"#)
                == .preview(PreviewFields(sound: .theme("rain", seconds: 5), volume: 0.4)))
        #expect(try cmd(#"{"command":"preview","bell":"b"}"#) == .preview(PreviewFields(sound: .bell("b"))))
        #expect(
            try cmd(#"{"command":"preview","theme":"rain"}"#)
                == .preview(PreviewFields(sound: .theme("rain", seconds: PreviewFields.defaultSeconds))))
        #expect(try cmd(#"{"command":"observe","properties":["volume","endsAt"]}"#) == .observe([.volume, .endsAt]))
        #expect(try cmd(#"{"command":"unobserve"}"#) == .unobserve(nil))
        #expect(
            try cmd(#"{"command":"prefetch","bells":["b"],"themes":["rain"],"seamFix":false}"#)
                == .prefetch(PrefetchFields(bells: ["b"], themes: ["rain"], seamFix: false)))
        #expect(ControlCommand.names.count == 19)
    }

    @Test func commandFieldErrors() {
        func err(_ json: String) -> ProtocolError? {
            do { _ = try ControlCommand(try Request.parse(Array(json.utf8))) } catch let e as ProtocolError {
                return e
            } catch { return nil }
            return nil
        }
        #expect(err(#"{"command":"dance"}"#)?.code == .unknownCommand)
        // The plan's own fields are read by the service through the table of plan fields (PlanFieldsTests there).
        #expect(err(#"{"command":"start","sitting":60,"stopBell":1}"#)?.field == "stopBell")
        #expect(err(#"{"command":"set"}"#)?.code == .invalidRequest)
        // An empty asset name is a bad field, not an asset looked up and missing ("no bell with id ''"), nor silence.
        let empty = ProtocolError(
            .invalidField, "bell is empty: an empty id names no asset; give an asset id or a sound file", field: "bell")
        #expect(err(#"{"command":"strike","bell":""}"#) == empty)
        #expect(err(#"{"command":"preview","bell":""}"#) == empty)
        #expect(err(#"{"command":"preview","theme":""}"#)?.field == "theme")
        let silence = "an empty id names no asset; give an asset id, a sound file or none for silence"
        #expect(
            err(#"{"command":"set","theme":""}"#)
                == ProtocolError(.invalidField, "theme is empty: " + silence, field: "theme"))
        #expect(
            err(#"{"command":"prefetch","themes":["rain",""]}"#)
                == ProtocolError(.invalidField, "themes[1] is empty: " + silence, field: "themes[1]"))
        #expect(err(#"{"command":"prefetch","bells":[""]}"#)?.field == "bells[0]")
        #expect(err(#"{"command":"set","theme":"none"}"#) == nil)
        #expect(err(#"{"command":"prefetch","themes":["none"]}"#) == nil)
        // Numbers past 10^15 are written one way, the exponent form, whatever their size.
        #expect(err(#"{"command":"set","volume":9e15}"#)?.message == "volume 9e+15 is outside 0...1")
        #expect(err(#"{"command":"set","volume":1e308}"#)?.message == "volume 1e+308 is outside 0...1")
        #expect(
            err(#"{"command":"set","volume":1.5}"#)
                == ProtocolError(.invalidField, "volume 1.5 is outside 0...1", field: "volume"))
        #expect(err(#"{"command":"set","theme":"rain","crossfade":0}"#)?.field == "crossfade")
        #expect(
            err(#"{"command":"set","volume":0.5,"ramp":-1}"#)
                == ProtocolError(.invalidField, "ramp -1 s is outside 0...60 s", field: "ramp"))
        #expect(err(#"{"command":"set","ramp":1}"#)?.code == .invalidRequest)
        #expect(err(#"{"command":"sessions.markSynced","ids":[]}"#)?.field == "ids")
        #expect(err(#"{"command":"sessions.list","limit":0}"#)?.field == "limit")
        #expect(err(#"{"command":"sessions.list","after":"a","before":"b"}"#)?.field == "before")
        #expect(err(#"{"command":"sessions.list","after":7}"#)?.field == "after")
        #expect(err(#"{"command":"subscribe","events":["nope"]}"#)?.field == "events")
    }

    @Test func planFieldsKeepThePlanAndReadTheProtocolSwitches() throws {
        let r = try Request.parse(
            Array(#"{"id":1,"command":"start","sitting":60,"repeat":"until=7:30","stopBell":false}"#.utf8))
        let plan = try PlanFields(r)
        #expect(plan.values == ["sitting": 60, "repeat": "until=7:30"])
        #expect(plan.stopBell == false && plan.seamFix == nil)
        #expect(MessageEncoder.encode(plan.json) == #"{"repeat":"until=7:30","sitting":60,"stopBell":false}"#)
        let bad = try Request.parse(Array(#"{"command":"start","sitting":60,"seamFix":"yes"}"#.utf8))
        #expect(throws: ProtocolError.self) { try PlanFields(bad) }
    }
}
