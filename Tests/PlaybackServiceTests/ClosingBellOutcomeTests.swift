import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

/// A sitting that reached its closing bell was sat in full: stopping the bell's ring (`bell: false` silences it at
/// once), or the front end going away while it rings, records it as `completed` with the whole sitting, not
/// `stopped`. A stop before the closing bell stays `stopped` (TranscriptTests).
@Suite(.serialized) struct ClosingBellOutcomeTests {
    /// A folder with `long-bell.wav`: 6 s of a slowly decaying 330 Hz bell, so the closing bell rings long after
    /// the sitting ends.
    static func assets() -> String {
        let dir = ServerFixtures.assets()
        let rate = 48_000
        let bell = (0..<(6 * rate)).map { i in
            Float(0.5 * sin(2 * Double.pi * 330 * Double(i) / Double(rate)) * exp(-Double(i) / Double(2 * rate)))
        }
        ServerFixtures.writeWAV(bell, rate: rate, to: dir + "/long-bell.wav")
        return dir
    }

    /// A 1 s sitting with `long-bell.wav`, on the manual clock, taken up to its closing bell's event: the bell
    /// rendered (at frame 48 000), a buffer before it is heard.
    static func closingBellRendered() throws -> ManualServer {
        let assets = Self.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        t.send(
            #"{"id":1,"command":"start","sitting":1,"bell":"\#(assets)/long-bell.wav","strikes":1,"fadeIn":0,"fadeOut":0}"#
        )
        #expect(t.reply(1)?["ok"] == true)
        _ = try #require(t.next { $0["event"] == "bell" && ($0["frame"]?.numberValue ?? 0) >= 48_000 })
        return t
    }

    /// In process on the manual clock (``ManualServer``): "now" is a number of periods, not a wall-clock wait.
    @Test func stoppingOrLeavingDuringTheClosingBellRecordsACompletedSitting() throws {
        let assets = Self.assets()
        for leave in [false, true] {
            let t = try ManualServer(journal: assets + "/j\(leave).jsonl")
            t.send(
                #"{"id":1,"command":"start","sitting":1,"bell":"\#(assets)/long-bell.wav","strikes":1,"fadeIn":0,"fadeOut":0}"#
            )
            #expect(t.reply(1)?["ok"] == true)
            // The opening bell at frame 0, then the closing bell at 1 s; the session ends ~6 s later.
            let closing = try #require(t.next { $0["event"] == "bell" && ($0["frame"]?.numberValue ?? 0) >= 48_000 })
            #expect(closing["frame"] == 48000)
            if leave {
                // Once the bell is heard: its event comes when it is rendered, a buffer before.
                t.advance(periods: 4)
                #expect(try #require(t.output.clock.frameHeardNow) >= 48_000)
                t.closeInput()
            } else {
                t.send(#"{"id":"stop","command":"stop","bell":false}"#)
                #expect(t.reply("stop")?["ok"] == true)
            }
            // Either way the session ends now (within 4 periods, 0.17 s), not when the 6 s ring has died away.
            let ended = try #require(t.event("session.ended", within: 4), "leave: \(leave)")
            #expect(ended["record"]?["outcome"] == "completed", "leave: \(leave): \(ended)")
            #expect(ended["record"]?["satSeconds"] == 1)
            #expect(ended["record"]?["cyclesCompleted"] == 1)
        }
    }

    /// `status.state` turns `stopping` when the closing bell is heard, not when it is rendered a buffer (8 192
    /// frames, 170 ms) before: period by period, it says `stopping` exactly when the frame heard has reached it, and
    /// `endsAt` and the next bell say the same in the same reply (they went null when the bell was rendered, while
    /// the state still said `playing`).
    @Test func theStateTurnsStoppingWhenTheClosingBellIsHeard() throws {
        let t = try Self.closingBellRendered()
        var seen: [String] = []
        for i in 0..<8 {
            let heard = try #require(t.output.clock.frameHeardNow)
            t.send(#"{"id":"s\#(i)","command":"status"}"#)
            let data = try #require(t.reply(.string("s\(i)"))?["data"])
            let state = try #require(data["state"]?.stringValue)
            #expect(state == (heard >= 48_000 ? "stopping" : "playing"), "heard \(heard)")
            let ends = data["endsAt"]?.stringValue
            let next = data["nextBellAt"]?.stringValue
            #expect((ends != nil) == (state == "playing"), "heard \(heard): endsAt \(ends ?? "null")")
            #expect((next != nil) == (state == "playing"), "heard \(heard): nextBellAt \(next ?? "null")")
            if state == "playing" { #expect(next == ends && data["nextBellGroup"] == "closing") }
            seen.append(state)
            t.step()
        }
        // Both were seen: the bell rendered and not yet heard, then heard.
        #expect(seen.first == "playing" && seen.last == "stopping", "\(seen)")
    }

    /// The front end going away after the closing bell was rendered but before it is heard: the device drops it
    /// unheard, so the sitting was not sat in full: `stopped`, sat up to the frame heard (it was `completed`, 1 s).
    @Test func leavingBeforeTheClosingBellIsHeardIsAStoppedSitting() throws {
        let t = try Self.closingBellRendered()
        let heard = try #require(t.output.clock.frameHeardNow)
        #expect(heard < 48_000)
        t.closeInput()
        let ended = try #require(t.event("session.ended", within: 4))
        #expect(ended["record"]?["outcome"] == "stopped", "\(ended)")
        #expect(ended["record"]?["satSeconds"]?.numberValue == (Double(heard) / 48).rounded() / 1000)
    }
}
