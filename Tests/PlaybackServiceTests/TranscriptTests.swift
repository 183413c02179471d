import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A scripted front end drives `enso serve --stdio` through every command and every event an output without a
/// device can produce, one test per part of the protocol, checking each reply and event field by field.
///
/// Times are checked where they are exact (an unpaced file output: the start plus the frames; the paced null output
/// in process on a clock moved by hand, ``ManualServer``) or against bounds a loaded machine cannot break (sat time
/// is at most the wall time plus one output buffer); never within milliseconds of the wall clock on the paced output.
@Suite(.serialized) struct TranscriptTests {
    private func time(_ v: JSONValue?) -> Date? { v?.stringValue.flatMap(ProtocolTime.parse) }

    /// A server on `output` with a journal in `assets` and no asset pack.
    static func server(_ assets: String, output: String = "null") throws -> ServerProcess {
        // A journal named with `--journal` is in a folder that exists (a missing one is refused as a mistyped path).
        try FileManager.default.createDirectory(
            atPath: assets + "/journal", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try ServerProcess([
            "--stdio", "--output", output, "--journal", assets + "/journal/sessions.jsonl", "--assets",
            assets + "/none",
        ])
    }

    /// Sends `shutdown` to an idle server and checks it stops nothing, exits 0 and wrote nothing but JSON lines.
    static func shutDownIdle(_ server: ServerProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        let t = server.lines
        server.send(#"{"id":"bye","command":"shutdown"}"#)
        #expect(t.reply("bye")?["data"]?["stopping"] == false, sourceLocation: sourceLocation)
        #expect(server.wait() == 0, sourceLocation: sourceLocation)
        #expect(t.waitForEnd(), sourceLocation: sourceLocation)
        #expect(t.nonJSON.isEmpty, sourceLocation: sourceLocation)
    }

    /// Two cycles of 3 s, 2 strikes 0.5 s apart, 0.5 s breath: cycle 2 starts at 4 s, the closing bell at 7 s.
    static func twoCycles(_ assets: String, id: Int = 1) -> String {
        #"{"id":\#(id),"command":"start","sitting":3,"bell":"\#(assets)/bell.wav","strikes":2,"strikeSpacing":0.5,"#
            + #""breath":0.5,"repeat":2,"ambient":"\#(assets)/rain.wav","fadeIn":0.2,"fadeOut":0.2,"#
            + #""futureField":{"ignored":true}}"#
    }

    @Test func helloListsTheCommandsEventsAndLimits() throws {
        let server = try Self.server(ServerFixtures.assets())
        let hello = try #require(server.lines.next { _ in true }?.json)
        #expect(hello["event"] == "hello")
        #expect(hello["protocol"] == .number(Double(ProtocolVersion.current)))
        #expect(hello["commands"] == .array(ControlCommand.names.map { .string($0) }))
        #expect(hello["events"] == .array(EventKind.all.map { .string($0.rawValue) }))
        #expect(hello["maxLineBytes"] == 65536)
        #expect(hello["output"] == "null")
        #expect(hello["sampleRate"] == 48000)
        server.closeInput()
        #expect(server.wait() == 0)
    }

    @Test func anIdleServerAnswersStatusAssetsAndSubscriptions() throws {
        let server = try Self.server(ServerFixtures.assets())
        let t = server.lines
        server.send(#"{"id":"s0","command":"status"}"#)
        let idle = try #require(t.reply("s0"))
        #expect(idle["ok"] == true)
        #expect(idle["data"]?["state"] == "idle")
        #expect(idle["data"]?["paused"] == false)
        #expect(time(idle["data"]?["now"]) != nil)

        server.send(#"{"id":"a","command":"assets"}"#)
        let a = try #require(t.reply("a")?["data"])
        #expect(a["bells"] == [])
        #expect(a["loaded"] == [])
        #expect(a["packProblem"]?.stringValue?.contains("none") == true)

        server.send(#"{"id":"np","command":"pause"}"#)
        #expect(t.reply("np")?["error"]?["code"] == "not-playing")
        server.send(#"{"id":"uc","command":"meditate"}"#)
        #expect(t.reply("uc")?["error"]?["code"] == "unknown-command")

        server.send(#"{"id":"u","command":"unsubscribe","events":["xrun"]}"#)
        #expect(t.reply("u")?["data"]?["events"]?.arrayValue?.contains("xrun") == false)
        server.send(#"{"id":"sub","command":"subscribe"}"#)
        #expect(t.reply("sub")?["data"]?["events"]?.arrayValue?.count == EventKind.all.count)
        Self.shutDownIdle(server)
    }

    /// On an unpaced file the times are the start plus the frames: every one is checked to the millisecond (the
    /// resolution of the ISO text), whatever the machine's load.
    @Test func theEventsFollowThePlanFrameByFrame() throws {
        let assets = ServerFixtures.assets()
        let server = try Self.server(assets, output: "file:\(assets)/out.raw")
        let t = server.lines
        let bad = #"{"id":"bad","command":"start","sitting":3,"bell":"\#(assets)/bell.wav","strikes":4}"#
        server.send(bad)
        let badReply = try #require(t.reply("bad"))
        #expect(badReply["ok"] == false)
        #expect(badReply["error"]?["code"] == "invalid-field")
        #expect(badReply["error"]?["field"] == "strikes")
        #expect(badReply["error"]?["message"] == "strikes 4 is outside 1...3")

        server.send(Self.twoCycles(assets))
        let started = try #require(t.reply(1)?["data"])
        let id = try #require(started["sessionId"]?.stringValue)
        #expect(started["plannedSeconds"] == 7)
        #expect(started["endFrame"] == 336000)
        #expect(started["ignoredFields"] == ["futureField"])
        let ev = try #require(t.event("session.started")?.json)
        #expect(ev["sessionId"] == .string(id))
        #expect(ev["plan"]?["sitting"] == 3)
        #expect(ev["plan"]?["strikes"] == 2)
        #expect(ev["plan"]?["strikeSpacing"] == 0.5)
        #expect(ev["plan"]?["breath"] == 0.5)
        #expect(ev["plan"]?["repeat"] == "2")
        #expect(ev["plan"]?["volume"] == 1)
        let startsAt = try #require(time(ev["startsAt"]))
        func seconds(_ v: JSONValue?) -> Double? { time(v).map { $0.timeIntervalSince(startsAt) } }
        // Two times each rounded to the millisecond by the ISO text: their difference is within 1 ms (and a hair).
        let ms = 0.0011
        #expect(seconds(ev["endsAt"]).map { abs($0 - 7) <= ms } == true)

        let c1 = try #require(t.event("cycle.started")?.json)
        #expect(c1["cycle"] == 1 && c1["frame"] == 0 && c1["sessionId"] == .string(id))
        let expectedBells: [(Int, String, Int, Int)] = [
            (1, "opening", 1, 0), (1, "opening", 2, 24000), (1, "transition", 1, 144000), (1, "transition", 2, 168000),
            (2, "closing", 1, 336000), (2, "closing", 2, 360000),
        ]
        for (cycle, group, strike, frame) in expectedBells {
            let b = try #require(t.event("bell")?.json)
            #expect(b["cycle"] == .number(Double(cycle)))
            #expect(b["group"] == .string(group))
            #expect(b["strike"] == .number(Double(strike)))
            #expect(b["frame"] == .number(Double(frame)))
            #expect(b["outputFrame"] == .number(Double(frame)))
            #expect(seconds(b["audibleAt"]).map { abs($0 - Double(frame) / 48_000) <= ms } == true, "\(b)")
            // Until the closing bell every event says when it is heard; after it, nothing is left to count down.
            #expect(frame <= 336000 ? seconds(b["endsAt"]).map { abs($0 - 7) <= ms } == true : b["endsAt"] == .null)
        }
        let breath = try #require(t.event("breath.started")?.json)
        #expect(breath["cycle"] == 1 && breath["frame"] == 168000 && breath["seconds"] == 0.5)
        #expect(seconds(breath["at"]).map { abs($0 - 3.5) <= ms } == true)
        let c2 = try #require(t.event("cycle.started")?.json)
        #expect(c2["cycle"] == 2 && c2["frame"] == 192000)
        #expect(seconds(c2["at"]).map { abs($0 - 4) <= ms } == true)

        let ended = try #require(t.event("session.ended")?.json)
        let record = try #require(ended["record"])
        #expect(record["id"] == .string(id) && record["outcome"] == "completed")
        #expect(record["satSeconds"] == 7 && record["plannedSeconds"] == 7 && record["cyclesCompleted"] == 2)
        server.closeInput()
        #expect(server.wait() == 0)
        #expect(t.nonJSON.isEmpty)
    }

    /// In process on the manual clock (``ManualServer``): the pause's length and the new end are checked against the
    /// time the clock moved, which a loaded machine cannot stretch.
    @Test func pauseHoldsTheSessionAndResumeGivesANewEnd() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/journal/sessions.jsonl")
        t.send(Self.twoCycles(assets))
        let id = try #require(t.reply(1)?["data"]?["sessionId"])
        t.send(#"{"id":"busy","command":"start","sitting":60,"bell":"\#(assets)/bell.wav"}"#)
        #expect(t.reply("busy")?["error"]?["code"] == "busy")
        #expect(t.event("bell") != nil)

        let asked = t.now
        t.send(#"{"id":"p","command":"pause"}"#)
        #expect(t.reply("p")?["ok"] == true)
        let paused = try #require(t.event("session.paused"))
        let pausedFrame = try #require(paused["frame"]?.numberValue)
        #expect(pausedFrame >= 0 && pausedFrame < 336000)
        #expect(paused["endsAt"] == .null)
        t.send(#"{"id":"ps","command":"status"}"#)
        let ps = try #require(t.reply("ps")?["data"])
        #expect(ps["state"] == "paused" && ps["paused"] == true && ps["endsAt"] == .null)
        #expect(ps["sessionId"] == id)
        #expect(ps["positionFrames"] == .number(pausedFrame))
        #expect(ps["nextBellAt"] == .null && ps["nextEvent"]?["at"] == .null)
        t.advance(periods: 14)
        let waited = t.now.timeIntervalSince(asked)
        t.send(#"{"id":"r","command":"resume"}"#)
        #expect(t.reply("r")?["ok"] == true)
        let resumed = try #require(t.event("session.resumed"))
        // The pause lasted at least the client's wait and at most the time from asking for it until now, each give
        // or take the buffer rendering runs ahead by.
        let pausedSeconds = try #require(resumed["pausedSeconds"]?.numberValue)
        #expect(waited >= 0.4)
        #expect(pausedSeconds >= waited - ManualServer.bufferSeconds, "paused \(pausedSeconds) s of \(waited) s")
        let longest = t.now.timeIntervalSince(asked) + ManualServer.bufferSeconds
        #expect(pausedSeconds <= longest, "paused \(pausedSeconds) s")
        #expect(time(resumed["endsAt"]) != nil)

        t.send(#"{"id":"st","command":"status"}"#)
        let st = try #require(t.reply("st")?["data"])
        #expect(st["state"] == "playing" && st["paused"] == false)
        let remaining = try #require(st["remainingSeconds"]?.numberValue)
        let newEnds = try #require(time(st["endsAt"]))
        // The closing bell is heard the remaining sitting after the last frame rendered, which is heard after now
        // (rendering is ahead of hearing) and at most a buffer and the period being written later. 1 ms: the ISO
        // text's resolution. (`now` is the manual clock's: the reply's `now` field reads the machine's.)
        let ahead = newEnds.timeIntervalSince(t.now) - remaining
        let most = ManualServer.bufferSeconds + 2 * ManualServer.periodSeconds + 0.001
        #expect(ahead >= -ManualServer.periodSeconds - 0.001 && ahead <= most, "ahead \(ahead) s")
        t.closeInput()
        let ended = try #require(t.event("session.ended"))
        #expect(ended["record"]?["outcome"] == "stopped")
    }

    /// In process on the manual clock: the stall is the render thread descheduled for exactly 0.5 s.
    @Test func setStrikeAndAStallAreReported() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/journal/sessions.jsonl")
        t.send(Self.twoCycles(assets))
        let id = try #require(t.reply(1)?["data"]?["sessionId"])
        t.send(#"{"id":"th","command":"set","theme":"\#(assets)/rain.wav","crossfade":0.1,"volume":0.8}"#)
        #expect(t.reply("th")?["ok"] == true)
        let theme = try #require(t.event("theme.changed"))
        #expect(theme["theme"] == .string(assets + "/rain.wav"))
        t.send(#"{"id":"k","command":"strike"}"#)
        #expect(t.reply("k")?["ok"] == true)
        let manual = try #require(t.next { $0["event"] == "bell" && $0["group"] == "manual" })
        #expect(manual["cycle"] == 1 && manual["strike"] == 1)
        t.send(#"{"id":"st","command":"status"}"#)
        #expect(t.reply("st")?["data"]?["volume"] == 0.8)

        // A stall longer than the output buffer (nothing rendered for 0.5 s) is one xrun, reported once.
        t.output.stall(nanoseconds: 500_000_000)
        let xrun = try #require(t.event("xrun"))
        #expect(xrun["count"] == 1 && xrun["sessionId"] == id)
        t.advance(periods: 20)
        #expect(!t.all.contains { $0["event"] == "xrun" && $0 != xrun })
        t.closeInput()
        #expect(t.event("session.ended") != nil)
    }

    @Test func stopJournalsTheSittingAndTheSessionsCommandsListAndMarkIt() throws {
        let assets = ServerFixtures.assets()
        let server = try Self.server(assets)
        let t = server.lines
        server.send(Self.twoCycles(assets))
        let id = try #require(t.reply(1)?["data"]?["sessionId"]?.stringValue)
        let startsAt = try #require(time(t.event("session.started")?.json["startsAt"]))
        #expect(t.event("bell") != nil)
        server.send(#"{"id":"stop","command":"stop","bell":false}"#)
        #expect(t.reply("stop")?["ok"] == true)
        let ended = try #require(t.event("session.ended")?.json)
        let record = try #require(ended["record"])
        #expect(record["id"] == .string(id))
        #expect(record["outcome"] == "stopped")
        #expect(record["plannedSeconds"] == 7)
        #expect(record["bell"] == .string(assets + "/bell.wav"))
        #expect(record["theme"] == .string(assets + "/rain.wav"))
        #expect(record["syncedToHealth"] == false)
        // Sat time runs to the stop, which rendering reached at most one buffer before it was heard: never more
        // than the wall time to the end of the sitting plus that buffer.
        let sat = try #require(record["satSeconds"]?.numberValue)
        let wall = try #require(time(record["end"])).timeIntervalSince(startsAt)
        #expect(sat >= 0 && sat <= wall + ManualServer.bufferSeconds, "sat \(sat) s, wall \(wall) s")
        // The first cycle's sitting is 3 s: it was completed exactly when the stop came after it.
        #expect(record["cyclesCompleted"] == .number(sat >= 3 ? 1 : 0))

        server.send(#"{"id":"l","command":"sessions.list"}"#)
        let list = try #require(t.reply("l")?["data"]?["records"]?.arrayValue)
        #expect(list.count == 1 && list[0]["id"] == .string(id) && list[0]["outcome"] == "stopped")
        server.send(#"{"id":"m","command":"sessions.markSynced","ids":["\#(id)","nope"]}"#)
        let marked = try #require(t.reply("m")?["data"])
        #expect(marked["marked"] == [.string(id)])
        #expect(marked["missing"] == ["nope"])
        server.send(#"{"id":"l2","command":"sessions.list","unsyncedOnly":true}"#)
        #expect(t.reply("l2")?["data"]?["records"] == [])

        Self.shutDownIdle(server)
    }

    @Test func fileOutputPlaysASessionToCompletion() throws {
        let assets = ServerFixtures.assets()
        let journal = assets + "/j.jsonl"
        let server = try ServerProcess(["--stdio", "--output", "file:\(assets)/out.raw", "--journal", journal])
        server.send(
            #"{"id":1,"command":"start","sitting":2,"bell":"\#(assets)/bell.wav","strikes":1,"repeat":3,"breath":0,"fadeIn":0,"fadeOut":0}"#
        )
        #expect(server.lines.reply(1)?["ok"] == true)
        let ended = try #require(server.lines.event("session.ended")?.json)
        #expect(ended["record"]?["outcome"] == "completed")
        #expect(ended["record"]?["satSeconds"] == 6)
        #expect(ended["record"]?["plannedSeconds"] == 6)
        #expect(ended["record"]?["cyclesCompleted"] == 3)
        server.closeInput()
        #expect(server.wait() == 0)
        let size = try FileManager.default.attributesOfItem(atPath: assets + "/out.raw")[.size] as? Int ?? 0
        // 6 s plus the bell's decay, stereo float32: at least 6 s of frames.
        #expect(size >= 6 * 48_000 * 8)
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
    }

    @Test(.enabled(if: getuid() == 0, "mounts a tiny tmpfs to fill"))
    func fullOutputDiskIsADeviceErrorAndTheSessionIsInterrupted() throws {
        let assets = ServerFixtures.assets()
        let mount = assets + "/tiny"
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let r = try ToolRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mount])
        try #require(r.exitCode == 0)
        defer { _ = try? ToolRunner.run("/bin/umount", [mount]) }
        let server = try ServerProcess([
            "--stdio", "--output", "file:\(mount)/out.raw", "--journal", assets + "/j.jsonl",
        ])
        server.send(#"{"id":1,"command":"start","sitting":60,"bell":"\#(assets)/bell.wav"}"#)
        #expect(server.lines.reply(1)?["ok"] == true)
        let error = try #require(server.lines.event("device.error")?.json)
        #expect(ErrorCode.all.map { JSONValue.string($0.rawValue) }.contains(error["error"]?["code"] ?? .null))
        #expect(error["error"]?["message"]?.stringValue?.isEmpty == false)
        let ended = try #require(server.lines.event("session.ended")?.json)
        // The device error names its session, as every session event does.
        #expect(error["sessionId"] != nil && error["sessionId"] == ended["sessionId"])
        #expect(ended["record"]?["outcome"] == "interrupted")
        server.closeInput()
        #expect(server.wait() == 0)
    }
}
