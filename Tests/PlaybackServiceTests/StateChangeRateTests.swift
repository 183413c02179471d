import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// `state.changed` is paced to one event per observer per 20 ms, however fast requests change the state.
@Suite struct StateChangeRateTests {
    /// A flood of `set` (one per millisecond for a second, the loop polling after each as it does) gives an
    /// observer at most one `state.changed` per 20 ms, and the last value still arrives.
    @Test func aSetFloodGivesAtMostOneEventPerTwentyMilliseconds() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        var clock = ContinuousClock.now
        t.controller.monotonicClock = { clock }
        t.send(#"{"id":0,"command":"observe","properties":["volume"]}"#)
        t.send(#"{"id":1,"command":"start","sitting":600,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0}"#)
        try #require(t.reply(1)?["ok"] == true)
        let before = t.all.count
        for i in 1...1000 {
            clock += .milliseconds(1)
            // The engine takes the commands as it renders: a period now and then keeps its queue from filling.
            if i % 50 == 0 { t.output.step() }
            t.send(#"{"id":"s\#(i)","command":"set","volume":\#(Double(i % 100) / 100 + 0.005)}"#)
            t.poll()
        }
        let flood = t.all[before...]
        #expect(flood.filter { $0["ok"] == true }.count == 1000)
        let events = flood.filter { $0["event"] == "state.changed" }
        // 1000 ms at one event per 20 ms: 50 (the first may come at once).
        #expect(events.count >= 40 && events.count <= 51, "\(events.count) events for 1000 sets in 1 s")
        // The change held back at the end goes out at the next poll after the interval.
        clock += .milliseconds(20)
        t.poll()
        let last = t.all.last { $0["event"] == "state.changed" }
        #expect(last?["volume"] == 0.005)
    }
}
