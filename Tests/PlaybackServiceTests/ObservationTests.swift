import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

/// `observe`/`state.changed` through a real socket server: one client observes, another changes the state.
@Suite struct ObservationTests {
    @Test func anObserverIsToldOfAnotherClientsChangesAndOnlyOfWhatItObserves() throws {
        let (assets, path, server, watch) = try ServerFixtures.socketServer()
        let phone = try #require(SocketClient(path: path))
        defer {
            watch.close()
            phone.close()
        }
        watch.send(#"{"id":"o","command":"observe","properties":["volume","bellVolume","state"]}"# + "\n")
        let observing = try #require(watch.lines.reply("o")?["data"])
        #expect(observing["observing"] == ["state", "volume", "bellVolume"])
        #expect(observing["state"] == "idle")
        #expect(observing["volume"] == .null)
        #expect(observing["sessionId"] == .null)
        #expect(observing["theme"] == nil)
        watch.send(#"{"id":"bad","command":"observe","properties":["volumee"]}"# + "\n")
        #expect(watch.lines.reply("bad")?["error"]?["field"] == "properties")

        phone.send(
            #"{"id":1,"command":"start","sitting":60,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0,"volume":0.9}"#
                + "\n")
        let id = try #require(phone.lines.reply(1)?["data"]?["sessionId"]?.stringValue)
        // The start: every observed property changed (from null and idle).
        let started = try #require(watch.lines.event("state.changed")?.json)
        #expect(started["changed"] == ["state", "volume", "bellVolume"])
        #expect(started["sessionId"]?.stringValue == id)
        #expect(started["state"] == "playing")
        #expect(started["volume"] == 0.9)
        #expect(started["endsAt"] == nil)

        phone.send(#"{"id":2,"command":"set","volume":0.5,"ramp":0.2}"# + "\n")
        #expect(phone.lines.reply(2)?["ok"] == true)
        let set = try #require(watch.lines.event("state.changed")?.json)
        #expect(set["changed"] == ["volume"])
        #expect(set["volume"] == 0.5)
        // Every observed property is in each event, the unchanged ones too; nothing else is.
        #expect(set["bellVolume"] == 1)
        #expect(set["state"] == "playing")
        #expect(set["ambientVolume"] == nil)

        // No longer observing volume: the next event the watch gets is for the bell volume changed after it.
        watch.send(#"{"id":"u","command":"unobserve","properties":["volume"]}"# + "\n")
        #expect(watch.lines.reply("u")?["data"]?["observing"] == ["state", "bellVolume"])
        phone.send(#"{"id":3,"command":"set","volume":0.3}"# + "\n")
        #expect(phone.lines.reply(3)?["ok"] == true)
        phone.send(#"{"id":4,"command":"set","bellVolume":0.2}"# + "\n")
        #expect(phone.lines.reply(4)?["ok"] == true)
        let bell = try #require(watch.lines.event("state.changed")?.json)
        #expect(bell["changed"] == ["bellVolume"])
        #expect(bell["bellVolume"] == 0.2)
        #expect(bell["volume"] == nil)

        // A pause from the other client is a change of state.
        phone.send(#"{"id":5,"command":"pause"}"# + "\n")
        #expect(phone.lines.reply(5)?["ok"] == true)
        let paused = try #require(watch.lines.event("state.changed")?.json)
        #expect(paused["changed"] == ["state"])
        #expect(paused["state"] == "paused")

        phone.send(#"{"id":6,"command":"stop","bell":false}"# + "\n")
        #expect(phone.lines.reply(6)?["data"]?["sessionId"]?.stringValue == id)
        let idle = try #require(watch.lines.next { $0["event"] == "state.changed" && $0["state"] == "idle" }?.json)
        #expect(idle["sessionId"] == .null)
        #expect(idle["bellVolume"] == .null)
        // A client that observes nothing is sent no state.changed.
        phone.send(#"{"id":"bye","command":"shutdown"}"# + "\n")
        #expect(phone.lines.reply("bye")?["ok"] == true)
        #expect(server.wait() == 0)
        #expect(phone.lines.all.allSatisfy { $0.json["event"] != "state.changed" })
    }
}
