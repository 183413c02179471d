import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

/// Events and records tell what was heard and sat, never what was planned: no strike reported during a
/// pause, closing strikes after a stop sent as `closing`, sat time without the ring-out after a stop, the themes
/// sat with in the journal, and an unpaced file whose times are its frame count and which ends with the session.
///
/// The server runs in process on a clock moved by hand (``ManualServer``): the same replies and events a client
/// reads, whatever the machine's load, and a minute of sitting in milliseconds. The unpaced file output is checked
/// through a real `enso serve` child, whose times are its frame count on any machine.
@Suite(.serialized) struct HonestEventsTests {
    static let rate = 48_000.0

    /// A server with a journal in `assets` (the fixtures of ``ClosingBellOutcomeTests/assets()``: bell, rain,
    /// long-bell) and a sitting started there (request 1) on `bell` with the plan's other `fields`.
    static func sitting(_ assets: String, bell: String = "bell.wav", _ fields: String) throws -> ManualServer {
        let t = try ManualServer(journal: assets + "/j.jsonl")
        t.send(#"{"id":1,"command":"start","bell":"\#(assets)/\#(bell)",\#(fields)}"#)
        try #require(t.reply(1)?["ok"] == true)
        return t
    }

    @Test func aStrikeWhilePausedIsRefusedAndNoBellIsReported() throws {
        let assets = ServerFixtures.assets()
        let t = try Self.sitting(assets, #""sitting":60,"strikes":1,"fadeIn":0"#)
        #expect(t.event("bell") != nil)
        // Sent back to back: the strike reaches the engine after the pause even if no block has rendered it yet.
        t.send(#"{"id":2,"command":"pause"}"#)
        t.send(#"{"id":3,"command":"strike"}"#)
        #expect(t.reply(2)?["ok"] == true)
        let refused = try #require(t.reply(3))
        #expect(refused["ok"] == false)
        #expect(refused["error"]?["code"] == "not-playing")
        #expect(refused["error"]?["message"]?.stringValue?.contains("paused") == true)
        t.send(#"{"id":4,"command":"status"}"#)
        #expect(t.reply(4)?["data"]?["paused"] == true)
        #expect(t.event("session.paused") != nil)
        t.send(#"{"id":5,"command":"resume"}"#)
        #expect(t.reply(5)?["ok"] == true)
        #expect(t.event("session.resumed") != nil)
        t.send(#"{"id":6,"command":"strike"}"#)
        #expect(t.reply(6)?["ok"] == true)
        let manual = try #require(t.next { $0["event"] == "bell" && $0["group"] == "manual" })
        // The only manual bell reported is the one struck after the resume.
        #expect((manual["frame"]?.numberValue ?? 0) > 0)
        t.send(#"{"id":7,"command":"stop","bell":false}"#)
        #expect(t.event("session.ended") != nil)
        let manuals = t.all.filter { $0["event"] == "bell" && $0["group"] == "manual" }
        #expect(manuals.count == 1)
    }

    /// A strike in the closing bell's ring is heard and reported as what it is, `manual` (strike 1): the closing
    /// group is the plan's strikes, which a front end counts. After a stop without the bell the session is silenced
    /// in 20 ms and ends, so a strike then is refused: its event reported a bell nobody heard.
    @Test func aStrikeInTheClosingIsManualAndOneAfterASilencingStopIsRefused() throws {
        let assets = ClosingBellOutcomeTests.assets()
        let t = try Self.sitting(assets, bell: "long-bell.wav", #""sitting":1,"strikes":1,"fadeIn":0,"fadeOut":1"#)
        let closing = try #require(t.next { $0["event"] == "bell" && $0["group"] == "closing" })
        #expect(closing["frame"] == 48000)
        t.advance(periods: 4)
        t.send(#"{"id":2,"command":"strike"}"#)
        #expect(t.reply(2)?["ok"] == true)
        let manual = try #require(t.next(within: 4) { $0["event"] == "bell" && $0["group"] == "manual" })
        #expect(manual["strike"] == 1 && (manual["frame"]?.numberValue ?? 0) > 48_000)
        t.send(#"{"id":3,"command":"stop","bell":false}"#)
        t.send(#"{"id":4,"command":"strike"}"#)
        #expect(t.reply(3)?["ok"] == true)
        let refused = try #require(t.reply(4))
        #expect(refused["error"]?["code"] == "not-playing", "\(refused)")
        #expect(refused["error"]?["message"]?.stringValue?.contains("a stop without the bell") == true)
        #expect(t.event("session.ended") != nil)
        #expect(t.all.filter { $0["event"] == "bell" && $0["group"] == "manual" }.count == 1)
    }

    @Test func closingStrikesAfterAStopInTheFirstCycleAreTheClosingGroup() throws {
        let assets = ServerFixtures.assets()
        for paused in [false, true] {
            let t = try Self.sitting(assets, #""sitting":60,"strikes":2,"strikeSpacing":0.5,"fadeIn":0,"fadeOut":0"#)
            let opening = try #require(t.next { $0["event"] == "bell" && $0["strike"] == 2 })
            #expect(opening["group"] == "opening")
            if paused {
                t.send(#"{"id":2,"command":"pause"}"#)
                #expect(t.reply(2)?["ok"] == true)
            }
            t.send(#"{"id":3,"command":"stop"}"#)
            #expect(t.reply(3)?["ok"] == true)
            let ended = try #require(t.event("session.ended"))
            let after = t.all.filter {
                $0["event"] == "bell" && ($0["frame"]?.numberValue ?? 0) > (opening["frame"]?.numberValue ?? 0)
            }
            #expect(after.count == 2, "paused: \(paused)")
            for b in after { #expect(b["group"] == "closing", "paused: \(paused): \(b)") }
            // Sat time ends where the stop was asked (the frame heard then), at most a buffer and a period before the
            // engine applied it (the first closing strike's frame); never after its ring and the fade.
            let stopFrame = try #require(after.first?["frame"]?.numberValue)
            let sat = try #require(ended["record"]?["satSeconds"]?.numberValue)
            let ahead = ManualServer.bufferSeconds + ManualServer.periodSeconds
            #expect(
                sat <= stopFrame / Self.rate + 0.0005 && sat >= stopFrame / Self.rate - ahead,
                "paused: \(paused): sat \(sat), stop at \(stopFrame)")
            #expect(ended["record"]?["outcome"] == "stopped")
        }
    }

    @Test func satTimeExcludesTheRingOutAfterAStop() throws {
        let assets = ClosingBellOutcomeTests.assets()
        let t = try Self.sitting(assets, bell: "long-bell.wav", #""sitting":60,"strikes":1,"fadeIn":0,"fadeOut":1"#)
        #expect(t.event("bell") != nil)
        t.send(#"{"id":2,"command":"stop"}"#)
        #expect(t.reply(2)?["ok"] == true)
        let closing = try #require(t.next { $0["event"] == "bell" && $0["group"] == "closing" })
        let stopFrame = try #require(closing["frame"]?.numberValue)
        let ended = try #require(t.event("session.ended"))
        let sat = try #require(ended["record"]?["satSeconds"]?.numberValue)
        // The 6 s bell rang out after the stop; none of it is sat: the sitting ends where the stop was asked, at most
        // a buffer and a period before the engine applied it.
        let ahead = ManualServer.bufferSeconds + ManualServer.periodSeconds
        #expect(
            sat <= stopFrame / Self.rate + 0.0005 && sat >= stopFrame / Self.rate - ahead,
            "sat \(sat), stop at \(stopFrame)")
        #expect(sat < 3)
    }

    /// A theme change after sat time ended (a `themeAt` in the closing bell's ring and the fade-out) sounds, but is
    /// no theme sat with: the record's `themes` leaves it out (it listed it, at a frame past the sitting).
    @Test func aThemeChangeAfterTheSittingIsNotSatWith() throws {
        let assets = ServerFixtures.assets()
        let t = try Self.sitting(
            assets,
            #""sitting":1,"strikes":1,"fadeIn":0,"fadeOut":2,"themeAt":[{"at":1.5,"theme":"\#(assets)/rain.wav"}]"#)
        let changed = try #require(t.event("theme.changed"))
        #expect((changed["frame"]?.numberValue ?? 0) >= Self.rate)
        let record = try #require(t.event("session.ended")?["record"])
        #expect(record["outcome"] == "completed")
        #expect(record["themes"] == [["frame": 0, "theme": .null]], "\(record)")
    }

    @Test func theJournalListsTheThemesSatWithAndWhereEachStarted() throws {
        let assets = ServerFixtures.assets()
        let t = try Self.sitting(
            assets, #""sitting":60,"strikes":1,"ambient":"\#(assets)/rain.wav","fadeIn":0,"fadeOut":0"#)
        #expect(t.event("bell") != nil)
        t.send(#"{"id":2,"command":"set","theme":"none","crossfade":0.1}"#)
        #expect(t.reply(2)?["ok"] == true)
        let changed = try #require(t.event("theme.changed"))
        #expect(changed["theme"] == .null)
        let frame = try #require(changed["frame"]?.numberValue)
        #expect(frame > 0)
        #expect(changed["endsAt"]?.stringValue != nil)
        t.send(#"{"id":3,"command":"stop","bell":false}"#)
        let ended = try #require(t.event("session.ended"))
        let record = try #require(ended["record"])
        // The old field stays the starting theme; `themes` has every one with its session frame.
        #expect(record["theme"]?.stringValue == assets + "/rain.wav")
        let themes = try #require(record["themes"]?.arrayValue)
        #expect(themes.count == 2)
        #expect(themes.first?["frame"] == 0)
        #expect(themes.first?["theme"]?.stringValue == assets + "/rain.wav")
        #expect(themes.last?["frame"]?.numberValue == frame)
        #expect(themes.last?["theme"] == .null)
        // The journal line is the same record.
        let line = try #require(
            String(contentsOfFile: assets + "/j.jsonl", encoding: .utf8).split(separator: "\n").last)
        let journaled = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
        #expect(journaled["themes"] == record["themes"])
    }

    @Test func theThemeListIsBounded() throws {
        let assets = ServerFixtures.assets()
        let t = try Self.sitting(assets, #""sitting":60,"strikes":1,"ambient":"\#(assets)/rain.wav","fadeIn":0"#)
        // In batches the engine's command queue holds, each applied (its theme.changed seen) before the next.
        for batch in 0..<10 {
            for i in (batch * 30 + 1)...(batch * 30 + 30) {
                t.send(
                    #"{"id":\#(i),"command":"set","theme":"\#(i % 2 == 0 ? assets + "/rain.wav" : "none")","crossfade":0.05}"#
                )
            }
            for i in (batch * 30 + 1)...(batch * 30 + 30) { #expect(t.reply(.number(Double(i)))?["ok"] == true) }
            for _ in 1...30 { try #require(t.event("theme.changed") != nil) }
        }
        t.send(#"{"id":"stop","command":"stop","bell":false}"#)
        let record = try #require(t.event("session.ended")?["record"])
        let themes = try #require(record["themes"]?.arrayValue)
        // The starting theme and the latest 255 changes; the last is the theme the sitting ended with.
        #expect(themes.count == 256)
        #expect(themes.first?["frame"] == 0)
        #expect(themes.last?["theme"]?.stringValue == assets + "/rain.wav")
    }

    @Test func aStopWhilePausedDuringTheClosingBellKeepsThePause() throws {
        let assets = ClosingBellOutcomeTests.assets()
        let t = try Self.sitting(assets, bell: "long-bell.wav", #""sitting":1,"strikes":1,"fadeIn":0,"fadeOut":0"#)
        #expect(t.next { $0["event"] == "bell" && $0["group"] == "closing" } != nil)
        t.send(#"{"id":2,"command":"pause"}"#)
        #expect(t.event("session.paused") != nil)
        // Closing already: a stop with the bell changes nothing, so the session stays paused (and silent).
        t.send(#"{"id":3,"command":"stop"}"#)
        #expect(t.reply(3)?["ok"] == true)
        t.send(#"{"id":4,"command":"status"}"#)
        #expect(t.reply(4)?["data"]?["paused"] == true)
        t.send(#"{"id":5,"command":"strike"}"#)
        #expect(t.reply(5)?["error"]?["code"] == "not-playing")
        t.send(#"{"id":6,"command":"stop","bell":false}"#)
        #expect(t.event("session.ended")?["record"]?["outcome"] == "completed")
    }

    @Test func statusShowsTheCurrentVolumesTheNextBellAndWhetherTheClockSettled() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        t.send(
            #"{"id":1,"command":"start","sitting":30,"repeat":2,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0,"volume":0.8,"bellVolume":0.7,"ambientVolume":0.6}"#
        )
        let started = try #require(t.reply(1)?["data"])
        #expect(t.event("bell") != nil)
        // The same end, read from the output's clock: the start's, from before the first write (the output starting
        // on an empty buffer), is exact on the manual clock. A sound server's first readings may put the clock's up
        // to 0.3 s early (docs/protocol.md, `clockSettled`); this one's are exact.
        let plannedEnd = try #require(started["endsAt"]?.stringValue.flatMap(ProtocolTime.parse))
        let cycleEnd = try #require(t.event("cycle.started")?["endsAt"]?.stringValue.flatMap(ProtocolTime.parse))
        #expect(abs(cycleEnd.timeIntervalSince(plannedEnd)) <= 0.0011, "\(cycleEnd) against \(plannedEnd)")
        t.send(#"{"id":2,"command":"set","volume":0.3,"bellVolume":0.25,"ramp":0.5,"volumee":1,"theme_":"x"}"#)
        let set = try #require(t.reply(2))
        #expect(set["ok"] == true)
        #expect(set["data"]?["ignoredFields"] == ["theme_", "volumee"])
        t.send(#"{"id":3,"command":"status"}"#)
        let s = try #require(t.reply(3)?["data"])
        #expect(s["volume"] == 0.3)
        #expect(s["bellVolume"] == 0.25)
        #expect(s["ambientVolume"] == 0.6)
        #expect(s["plan"]?["volume"] == 0.8)
        #expect(s["clockSettled"]?.boolValue != nil)
        // Two cycles of 30 s: the next bell is the transition at 30 s, and its time is the countdown's.
        #expect(s["nextBellFrame"] == 1_440_000)
        #expect(s["nextBellGroup"] == "transition")
        #expect(s["nextBellAt"]?.stringValue != nil)
        t.send(#"{"id":4,"command":"set","volume":0.5,"ramp":61}"#)
        #expect(t.reply(4)?["error"]?["field"] == "ramp")
        t.send(#"{"id":5,"command":"stop","bell":false}"#)
        #expect(t.event("session.ended") != nil)
    }

    /// `status`'s `startsAt` is when the first frame is heard on the output's clock, as the first bell's `audibleAt`
    /// and the countdown's `endsAt` are: a device that starts 15 ms after the request put the first bell 15 ms after
    /// `startsAt` (read from the clock before the first write), and `endsAt − startsAt` 15 ms over the sitting.
    @Test func statusStartsAtIsTheFirstFrameHeard() throws {
        let t = try Self.sitting(ServerFixtures.assets(), #""sitting":30,"strikes":1,"fadeIn":0"#)
        // The device takes 15 ms to start: nothing is written until then.
        t.output.stall(nanoseconds: 15_000_000)
        let first = try #require(t.event("bell")?["audibleAt"]?.stringValue.flatMap(ProtocolTime.parse))
        t.send(#"{"id":2,"command":"status"}"#)
        let s = try #require(t.reply(2)?["data"])
        let startsAt = try #require(s["startsAt"]?.stringValue.flatMap(ProtocolTime.parse))
        let endsAt = try #require(s["endsAt"]?.stringValue.flatMap(ProtocolTime.parse))
        #expect(abs(startsAt.timeIntervalSince(first)) <= 0.0011, "\(startsAt) against the first bell's \(first)")
        #expect(abs(endsAt.timeIntervalSince(startsAt) - 30) <= 0.0011, "\(startsAt) … \(endsAt)")
        #expect(abs(first.timeIntervalSince(ManualServer.start) - 0.015) <= 0.0011)
        t.send(#"{"id":3,"command":"stop","bell":false}"#)
        #expect(t.event("session.ended") != nil)
    }

    /// From the `stop` reply on, `status` says the sitting is stopping: no next bell, no end to count down to, no
    /// sitting left. For the period before the engine rendered the stop (0.2 s on a sound server) it said `playing`,
    /// with `endsAt`, `remainingSeconds` and a closing bell that would never ring.
    @Test func statusAfterAStopSaysStoppingAtOnce() throws {
        let t = try Self.sitting(ServerFixtures.assets(), #""sitting":10,"strikes":1,"fadeIn":0"#)
        #expect(t.event("bell") != nil)
        t.advance(periods: 10)
        t.send(#"{"id":2,"command":"stop"}"#)
        #expect(t.reply(2)?["ok"] == true)
        // Asked at once, before a period is rendered.
        t.send(#"{"id":3,"command":"status"}"#)
        let s = try #require(t.reply(3)?["data"])
        #expect(s["state"] == "stopping", "\(s)")
        #expect(s["endsAt"] == .null && s["nextBellAt"] == .null && s["nextBellGroup"] == .null)
        #expect(s["nextBellFrame"] == .null && s["remainingSeconds"] == 0, "\(s)")
        #expect(t.event("session.ended") != nil)
    }

    /// A `stop` sent while paused says what it put the sitting in from its reply on: `stopping`, not paused, in
    /// `status` and in the `state.changed` the server sends after the reply, before any event of the engine rendering
    /// it. It said `paused` until the engine rendered the stop, a period later: `idle` after a stop without the bell
    /// came as the first change.
    @Test(arguments: [true, false])
    func aStopWhilePausedIsStoppingFromItsReplyOn(bell: Bool) throws {
        let t = try Self.sitting(ServerFixtures.assets(), #""sitting":30,"strikes":1,"fadeIn":0"#)
        t.send(#"{"id":"o","command":"observe","properties":["state","paused"]}"#)
        #expect(t.reply("o")?["ok"] == true)
        #expect(t.event("bell") != nil)
        t.send(#"{"id":2,"command":"pause"}"#)
        #expect(t.event("session.paused") != nil)
        #expect(t.next { $0["event"] == "state.changed" && $0["state"] == "paused" } != nil)
        t.advance(periods: 10)
        t.send(#"{"id":3,"command":"stop","bell":\#(bell)}"#)
        #expect(t.reply(3)?["ok"] == true)
        // Asked at once, before a period is rendered.
        t.send(#"{"id":4,"command":"status"}"#)
        let s = try #require(t.reply(4)?["data"])
        #expect(s["state"] == "stopping" && s["paused"] == false, "bell \(bell): \(s)")
        #expect(s["endsAt"] == .null && s["nextBellAt"] == .null, "bell \(bell): \(s)")
        // The server polls after each request it reads: the change is sent then, nothing rendered yet.
        t.poll()
        let sinceStop = t.all.drop { $0["id"] != 3 }.filter { $0["event"] != nil }
        let changed = try #require(sinceStop.first, "bell \(bell)")
        #expect(changed["event"] == "state.changed", "bell \(bell): \(sinceStop)")
        #expect(changed["state"] == "stopping" && changed["paused"] == false, "bell \(bell): \(changed)")
        if bell {
            // Resumed for the closing group: a strike now sounds in it (it was refused as paused).
            t.send(#"{"id":5,"command":"strike"}"#)
            #expect(t.reply(5)?["ok"] == true)
        }
        #expect(t.event("session.ended")?["record"]?["outcome"] == "stopped")
        let states = t.all.filter { $0["event"] == "state.changed" }.map { $0["state"]?.stringValue ?? "" }
        #expect(states.suffix(2) == ["stopping", "idle"], "bell \(bell): \(states)")
    }

    /// A `resume` says the sitting plays from its reply on, as a `pause` says it is paused from its own: `status` and
    /// the `state.changed` after the reply read `playing`, before the engine renders the resume. They read `paused`
    /// for a period after the reply.
    @Test func aResumeIsPlayingFromItsReplyOn() throws {
        let t = try Self.sitting(ServerFixtures.assets(), #""sitting":30,"strikes":1,"fadeIn":0"#)
        t.send(#"{"id":"o","command":"observe","properties":["state","paused"]}"#)
        #expect(t.reply("o")?["ok"] == true)
        #expect(t.event("bell") != nil)
        t.send(#"{"id":2,"command":"pause"}"#)
        #expect(t.event("session.paused") != nil)
        t.advance(periods: 10)
        t.send(#"{"id":3,"command":"resume"}"#)
        #expect(t.reply(3)?["ok"] == true)
        t.send(#"{"id":4,"command":"status"}"#)
        let s = try #require(t.reply(4)?["data"])
        #expect(s["state"] == "playing" && s["paused"] == false, "\(s)")
        t.poll()
        let sinceResume = t.all.drop { $0["id"] != 3 }.filter { $0["event"] == "state.changed" }
        #expect(sinceResume.first?["state"] == "playing" && sinceResume.first?["paused"] == false, "\(sinceResume)")
        #expect(t.event("session.resumed") != nil)
        // A second resume changes nothing; a pause right after the resume's reply still pauses.
        t.send(#"{"id":5,"command":"resume"}"#)
        #expect(t.reply(5)?["ok"] == true)
        t.send(#"{"id":6,"command":"pause"}"#)
        #expect(t.reply(6)?["ok"] == true)
        #expect(t.event("session.paused") != nil)
        t.send(#"{"id":7,"command":"status"}"#)
        #expect(t.reply(7)?["data"]?["paused"] == true)
    }

    /// The resume a `stop` with the bell makes while paused carries no end, as every event after a stop: the closing
    /// group rings from the paused frame, so nothing is left to count down to. It carried the old end moved by the
    /// pause (30 s in the future), while the closing bells rang at once with `endsAt` null.
    @Test func theResumeOfAStopWhilePausedCarriesNoEnd() throws {
        let t = try Self.sitting(
            ServerFixtures.assets(), #""sitting":30,"strikes":2,"strikeSpacing":0.5,"fadeIn":0,"fadeOut":0"#)
        #expect(t.next { $0["event"] == "bell" && $0["strike"] == 2 } != nil)
        t.advance(periods: 20)
        t.send(#"{"id":2,"command":"pause"}"#)
        #expect(t.event("session.paused")?["endsAt"] == .null)
        t.advance(periods: 20)
        t.send(#"{"id":3,"command":"stop"}"#)
        #expect(t.reply(3)?["ok"] == true)
        let resumed = try #require(t.event("session.resumed"))
        #expect(resumed["endsAt"] == .null, "\(resumed)")
        #expect(t.event("session.ended")?["record"]?["outcome"] == "stopped")
        // The closing group rang from the paused frame, on the resume's frames.
        let closing = t.all.filter { $0["event"] == "bell" && $0["group"] == "closing" }
        #expect(closing.count == 2)
        #expect(closing.first?["frame"] == resumed["frame"] && closing.first?["outputFrame"] == resumed["outputFrame"])
        // Every event sent after the stop's reply carries no end.
        let afterReply = t.all.drop { $0["id"] != 3 }.filter { $0["event"] != nil && $0["frame"] != nil }
        #expect(!afterReply.isEmpty && afterReply.allSatisfy { $0["endsAt"] == .null }, "\(afterReply)")
    }

    /// A `pause` after a `stop` is refused: the stop's closing plays out. Sent on one write with the stop, it held
    /// the sitting paused, its closing bell unrung, until a resume.
    @Test func aPauseAfterAStopIsRefusedAndTheClosingPlaysOut() throws {
        let t = try Self.sitting(ServerFixtures.assets(), #""sitting":10,"strikes":1,"fadeIn":0"#)
        #expect(t.event("bell") != nil)
        t.send(#"{"id":2,"command":"stop"}"#)
        t.send(#"{"id":3,"command":"pause"}"#)
        #expect(t.reply(2)?["ok"] == true)
        #expect(t.reply(3)?["error"]?["code"] == "not-playing")
        #expect(t.next { $0["event"] == "bell" && $0["group"] == "closing" } != nil)
        #expect(t.event("session.ended")?["record"]?["outcome"] == "stopped")
        #expect(!t.all.contains { $0["event"] == "session.paused" })
    }

    /// Sat time as heard never runs backwards: after a resume, until the resume is heard, the pause sounds (read back
    /// from the resume, `satSeconds` fell by up to a buffer at every resume, then rose again).
    @Test func satTimeAsHeardNeverRunsBackAtAResume() throws {
        let t = try Self.sitting(ServerFixtures.assets(), #""sitting":30,"strikes":1,"fadeIn":0"#)
        #expect(t.event("bell") != nil)
        t.advance(periods: 20)
        t.send(#"{"id":2,"command":"pause"}"#)
        #expect(t.event("session.paused") != nil)
        t.advance(periods: 20)
        var last = 0.0
        func sat(_ id: Int) throws -> Double {
            t.send(#"{"id":\#(id),"command":"status"}"#)
            return try #require(t.reply(.number(Double(id)))?["data"]?["satSeconds"]?.numberValue)
        }
        last = try sat(3)
        t.send(#"{"id":4,"command":"resume"}"#)
        #expect(t.event("session.resumed") != nil)
        for i in 0..<8 {
            let now = try sat(10 + i)
            #expect(now >= last - 0.0005, "period \(i) after the resume: \(now) after \(last)")
            last = now
            t.advance(periods: 1)
        }
        t.send(#"{"id":30,"command":"stop","bell":false}"#)
        #expect(t.event("session.ended") != nil)
    }

    @Test func anUnpacedFileTimesEventsByItsFramesAndEndsWithTheSession() throws {
        let assets = ServerFixtures.assets()
        let server = try ServerProcess([
            "--stdio", "--output", "file:\(assets)/out.raw", "--journal", assets + "/j.jsonl",
        ])
        let t = server.lines
        server.send(
            #"{"id":1,"command":"start","sitting":2,"bell":"\#(assets)/bell.wav","strikes":1,"breath":0,"fadeIn":0,"fadeOut":0}"#
        )
        let started = try #require(t.reply(1)?["data"])
        let start = try #require(started["startsAt"]?.stringValue.flatMap(ProtocolTime.parse))
        let ended = try #require(t.event("session.ended")?.json)
        #expect(ended["record"]?["outcome"] == "completed")
        var last = start
        for line in t.all where line.json["event"] != nil && line.json["outputFrame"] != nil {
            let e = line.json
            let text = try #require((e["audibleAt"] ?? e["at"])?.stringValue, "\(e)")
            let at = try #require(ProtocolTime.parse(text))
            let frames = try #require(e["outputFrame"]?.numberValue)
            // The file's time is its frame count from the start (to the millisecond the protocol writes).
            #expect(abs(at.timeIntervalSince(start) - frames / Self.rate) <= 0.0011, "\(e)")
            #expect(at >= last, "\(e)")
            last = at
        }
        server.send(#"{"id":2,"command":"status"}"#)
        #expect(t.reply(2)?["data"]?["state"] == "idle")
        server.closeInput()
        #expect(server.wait() == 0)
        let size = try FileManager.default.attributesOfItem(atPath: assets + "/out.raw")[.size] as? Int ?? 0
        let frames = size / 8
        // The closing bell at 2 s, then its 0.5 s ring: the file ends there, with no silence appended.
        #expect(frames >= 2 * 48_000 + 12_000, "\(frames) frames")
        #expect(frames <= 2 * 48_000 + 24_000 + 4_800, "\(frames) frames")
    }
}
