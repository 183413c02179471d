import Foundation
import Testing

@testable import PlaybackService

/// One client's loads never hold another's for longer than the load running, and a client that goes takes its
/// loads with it. The loader holds `t1.wav` at a gate until the test lets it go (``LoadingTests/Gate``), so "while
/// it loads" is a state, not a time.
@Suite(.serialized) struct LoadingFairnessTests {
    /// The fixtures with five themes (`t1.wav`…`t5.wav`, copies of the rain loop) and a second bell (`gong.wav`),
    /// and a server whose loads of `t1.wav` wait at the gate.
    static func serve() throws -> (assets: String, gate: LoadingTests.Gate, server: LoadingTests.Server) {
        let (assets, gate, server) = try LoadingTests.serve(holding: ["t1.wav"])
        for i in 1...5 { try FileManager.default.copyItem(atPath: assets + "/rain.wav", toPath: assets + "/t\(i).wav") }
        try FileManager.default.copyItem(atPath: assets + "/bell.wav", toPath: assets + "/gong.wav")
        return (assets, gate, server)
    }

    /// A start naming five themes to load, the first held at the gate.
    static func start(_ assets: String) -> String {
        let themes = (1...5).map { #"{"at":\#($0 * 10),"theme":"\#(assets)/t\#($0).wav"}"# }.joined(separator: ",")
        return #"{"id":1,"command":"start","sitting":60,"bell":"\#(assets)/bell.wav","themeAt":[\#(themes)]}"# + "\n"
    }

    @Test func anotherClientsLoadWaitsForTheLoadRunningOnly() throws {
        let (assets, gate, server) = try Self.serve()
        let a = try server.client()
        let b = try server.client()
        a.send(Self.start(assets))
        #expect(gate.awaitHeldLoad())
        b.send(#"{"id":"p","command":"plan","sitting":60,"bell":"\#(assets)/gong.wav"}"# + "\n")
        #expect(b.lines.reply("p", timeout: 0.05) == nil, "the plan waits for its bell's load")
        gate.release()
        #expect(b.lines.reply("p")?["ok"] == true)
        #expect(a.lines.reply(1)?["ok"] == true)
        // B's bell was loaded right after the load that was running, not after A's four other themes.
        let order = gate.order
        let t1 = try #require(order.firstIndex(of: "t1.wav"))
        #expect(order.firstIndex(of: "gong.wav") == t1 + 1, "\(order)")
        server.shutdown(b)
    }

    @Test func aClientThatGoesTakesItsPendingLoadsWithIt() throws {
        let (assets, gate, server) = try Self.serve()
        // Connected here, not through the server's list, so that it is closed once.
        let a = try #require(SocketClient(path: server.path))
        #expect(a.lines.event("hello") != nil)
        a.send(Self.start(assets))
        #expect(gate.awaitHeldLoad())
        // A goes while its first theme loads: the server closes its side once it has dropped A's requests.
        a.close()
        let b = try server.client()
        b.send(#"{"id":"p","command":"plan","sitting":60,"bell":"\#(assets)/gong.wav"}"# + "\n")
        gate.release()
        #expect(b.lines.reply("p")?["ok"] == true)
        b.send(#"{"id":"s","command":"status"}"# + "\n")
        // A's start was withdrawn with it: no session began for nobody to stop, and its other themes were not loaded.
        #expect(b.lines.reply("s")?["data"]?["state"] == "idle")
        for i in 2...5 { #expect(gate.loads(of: "t\(i).wav") == 0, "\(gate.order)") }
        #expect(gate.loads(of: "gong.wav") == 1)
        server.shutdown(b)
    }
}
