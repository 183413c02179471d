import AudioCore
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// `start`'s times on the manual clock (``ManualServer``): its reply and `session.started` say when the first frame
/// and the closing bell's first strike are heard, with no output buffer added (the output starts on an empty
/// buffer, as `preview`'s reply has it: ``OutputStart``), and `status` and observation say the same before the
/// first write, before the clock settles and after.
@Suite(.serialized) struct StartTimesTests {
    /// Two times each rounded to the millisecond by the ISO text differ by 1 ms at most (and a hair).
    static let ms = 0.0011

    static func time(_ v: JSONValue?) -> Date? { v?.stringValue.flatMap(ProtocolTime.parse) }

    /// When `frame` is heard, by the manual output's own clock.
    static func heard(_ t: ManualServer, _ frame: FramePosition) throws -> Date {
        let at = try #require(t.output.clock.audibleTime(ofFrame: frame))
        return Date(timeIntervalSince1970: Double(at.realtimeNanoseconds) / 1e9)
    }

    @Test func theReplysTimesAreWhenTheFirstAndTheClosingFrameAreHeard() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        t.send(#"{"id":"o","command":"observe","properties":["endsAt","clockSettled"]}"#)
        #expect(t.reply("o")?["ok"] == true)
        t.send(
            #"{"id":1,"command":"start","sitting":3,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0,"fadeOut":0}"#
        )
        let started = try #require(t.reply(1)?["data"])
        let startsAt = try #require(Self.time(started["startsAt"]))
        let endsAt = try #require(Self.time(started["endsAt"]))
        let endFrame = try #require(started["endFrame"]?.numberValue.map { FramePosition($0) })
        #expect(endFrame == 144_000)
        #expect(abs(endsAt.timeIntervalSince(startsAt) - 3) <= Self.ms, "\(started)")

        // Before the first write, status has only the start to go by: the same end as the reply.
        t.send(#"{"id":2,"command":"status"}"#)
        let before = try #require(t.reply(2)?["data"])
        #expect(before["clockSettled"] == false)
        #expect(before["endsAt"] == started["endsAt"], "\(before)")

        // session.started says what the reply says.
        let ev = try #require(t.event("session.started"))
        #expect(ev["startsAt"] == started["startsAt"] && ev["endsAt"] == started["endsAt"], "\(ev)")

        // The output has written: its first frame is heard at startsAt, as the opening bell says.
        #expect(abs(try Self.heard(t, 0).timeIntervalSince(startsAt)) <= Self.ms)
        let opening = try #require(t.event("bell"))
        #expect(opening["frame"] == 0 && opening["audibleAt"] == started["startsAt"], "\(opening)")

        // Once the clock has settled, status still says the reply's end.
        while t.output.clock.isSettled == false { #expect(t.step()) }
        t.send(#"{"id":3,"command":"status"}"#)
        let settled = try #require(t.reply(3)?["data"])
        #expect(settled["clockSettled"] == true)
        #expect(abs(try #require(Self.time(settled["endsAt"])).timeIntervalSince(endsAt)) <= Self.ms, "\(settled)")

        // The closing bell is heard at endsAt: by its event, by the output's clock, and by the time the output is
        // heard past that frame (within the period a step moves the clock by).
        let closing = try #require(t.next { $0["event"] == "bell" && $0["group"] == "closing" })
        #expect(closing["frame"] == .number(Double(endFrame)))
        #expect(abs(try #require(Self.time(closing["audibleAt"])).timeIntervalSince(endsAt)) <= Self.ms, "\(closing)")
        #expect(abs(try Self.heard(t, endFrame).timeIntervalSince(endsAt)) <= Self.ms)
        while (t.output.clock.frameHeardNow ?? 0) < endFrame { #expect(t.step()) }
        let late = t.now.timeIntervalSince(endsAt)
        #expect(late >= -Self.ms && late <= ManualServer.periodSeconds + Self.ms, "heard \(late) s after endsAt")

        // Observers were never told another end: no move of a buffer's length, before or after the clock settled.
        let observed = t.all.filter { $0["event"] == "state.changed" }.compactMap { Self.time($0["endsAt"]) }
        #expect(!observed.isEmpty)
        for at in observed { #expect(abs(at.timeIntervalSince(endsAt)) <= Self.ms, "observed \(at), endsAt \(endsAt)") }
        t.send(#"{"id":4,"command":"stop","bell":false}"#)
        #expect(t.event("session.ended") != nil)
    }
}
