import AssetLoading
import AudioCore
import AudioTestSupport
import ControlProtocol
import Foundation
import Synchronization
import Testing

@testable import PlaybackService

/// Loading off the control thread, so that one client's load never holds up another: a request that loads a bell or theme waits for the worker while
/// other clients are served, a client's requests stay in order, starts that race get `busy`, and `assets` shows
/// what a picker needs without another client's files.
///
/// The server runs in this process on a socket, with a loader that holds chosen files until the test lets them
/// go, so "while it loads" is a state the test controls, not a time it hopes for.
@Suite(.serialized) struct LoadingTests {
    /// Holds loads of files whose name is in `held` until ``release()``; counts every load.
    final class Gate: Sendable {
        private struct State {
            var held: Set<String>
            var open = false
            var waiting = 0
            var loads: [String: Int] = [:]
            var order: [String] = []
        }
        private let state: Mutex<State>
        private let condition = NSCondition()

        init(holding names: Set<String>) { state = Mutex(State(held: names)) }

        /// The loader: the engine's, after waiting at the gate for a held file.
        var loader: AssetLibrary.Loader {
            let engine = AssetLibrary.Loader.engine
            return AssetLibrary.Loader(
                load: { [self] (source) throws(EnsoError) in
                    wait(for: (source.path as NSString).lastPathComponent)
                    return try engine.load(source)
                },
                summarize: engine.summarize)
        }

        private func wait(for name: String) {
            let held = state.withLock { s in
                s.loads[name, default: 0] += 1
                s.order.append(name)
                return s.held.contains(name) && !s.open
            }
            guard held else { return }
            condition.lock()
            state.withLock { $0.waiting += 1 }
            condition.broadcast()
            while !state.withLock({ $0.open }) { condition.wait() }
            condition.unlock()
        }

        /// Waits until a load is held at the gate (up to `timeout` seconds).
        func awaitHeldLoad(timeout: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            condition.lock()
            defer { condition.unlock() }
            while state.withLock({ $0.waiting == 0 }) { if !condition.wait(until: deadline) { return false } }
            return true
        }

        /// Lets every held load go on.
        func release() {
            condition.lock()
            state.withLock { $0.open = true }
            condition.broadcast()
            condition.unlock()
        }

        /// The files loaded, in the order their loads started.
        var order: [String] { state.withLock { $0.order } }

        /// How many times `name` was loaded (decoded).
        func loads(of name: String) -> Int { state.withLock { $0.loads[name] ?? 0 } }
    }

    /// An in-process `serve --socket` on the null output.
    /// `@unchecked`: the test reads ``controller`` only after the loop has ended.
    final class Server: @unchecked Sendable {
        let controller: SessionController
        let path: String
        /// Set when the server's loop has ended.
        private let ended = Mutex(false)
        /// The clients ``client()`` connected, closed by ``shutdown(_:)``.
        private var clients: [SocketClient] = []

        init(_ assets: AssetLibrary, folder: String) throws {
            controller = SessionController(
                output: .null, journal: SessionJournal(path: folder + "/j.jsonl"), assets: assets,
                checkpointInterval: 60)
            path = folder + "/s.sock"
            nonisolated(unsafe) let server = try ControlServer(
                transport: .socket(path: path), controller: controller,
                hello: Hello(server: "test", output: "null", sampleRate: 48_000), log: { _ in })
            Thread { [self] in
                server.run()
                ended.withLock { $0 = true }
            }.start()
        }

        func client() throws -> SocketClient {
            let c = try #require(SocketClient(path: path))
            #expect(c.lines.event("hello") != nil)
            clients.append(c)
            return c
        }

        /// Shuts the server down through `client`, waits for its loop to end and closes every client (the lines they
        /// received stay readable).
        func shutdown(_ client: SocketClient) {
            client.send(#"{"id":"bye","command":"shutdown"}"# + "\n")
            #expect(client.lines.reply("bye")?["ok"] == true)
            let deadline = Date().addingTimeInterval(10)
            while !ended.withLock({ $0 }) && Date() < deadline { usleep(1000) }
            #expect(ended.withLock { $0 }, "the server's loop ended")
            for c in clients { c.close() }
        }
    }

    /// The fixtures (no pack), a gate holding loads of `held`, and a server loading through it.
    static func serve(holding held: Set<String>) throws -> (assets: String, gate: Gate, server: Server) {
        let assets = ServerFixtures.assets()
        let gate = Gate(holding: held)
        return (
            assets, gate, try Server(AssetLibrary(directory: assets + "/no-pack", loader: gate.loader), folder: assets)
        )
    }

    static func start(_ id: Int, _ assets: String, ambient: String? = nil) -> String {
        let a = ambient.map { #","ambient":"\#(assets)/\#($0)""# } ?? ""
        return
            #"{"id":\#(id),"command":"start","sitting":60,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0,"fadeOut":0\#(a)}"#
    }

    /// A request that loads (a `set` with a new theme, a `strike` with a new bell) waits for its load while another
    /// client is answered, then is answered and acts; nothing is loaded on the control thread.
    @Test(arguments: [
        ("rain.wav", #"{"id":2,"command":"set","theme":"ASSETS/rain.wav"}"#, "theme.changed", nil),
        ("gong.wav", #"{"id":2,"command":"strike","bell":"ASSETS/gong.wav"}"#, "bell", "manual"),
    ])
    func aRequestThatLoadsWaitsForItWhileOthersAreServed(
        held: String, request: String, event: String, group: String?
    ) throws {
        let (assets, gate, server) = try Self.serve(holding: [held])
        try FileManager.default.copyItem(atPath: assets + "/bell.wav", toPath: assets + "/gong.wav")
        let a = try server.client()
        let b = try server.client()
        a.send(Self.start(1, assets) + "\n")
        #expect(a.lines.reply(1)?["ok"] == true)
        a.send(request.replacingOccurrences(of: "ASSETS", with: assets) + "\n")
        #expect(gate.awaitHeldLoad())
        // The file is held in the loader: B is answered, A's request is not.
        b.send(#"{"id":"b","command":"status"}"# + "\n")
        #expect(b.lines.reply("b")?["data"]?["state"] == "playing")
        #expect(a.lines.reply(2, timeout: 0.05) == nil, "the request replies once its file is loaded")
        gate.release()
        #expect(a.lines.reply(2)?["ok"] == true)
        #expect(
            a.lines.next { $0["event"] == .string(event) && (group == nil || $0["group"] == group.map { .string($0) }) }
                != nil)
        server.shutdown(a)
        #expect(server.controller.assets.controlThreadLoads == 0)
    }

    @Test func aClientsRequestsRunInOrderBehindItsLoadingStart() throws {
        let (assets, gate, server) = try Self.serve(holding: ["rain.wav"])
        let a = try server.client()
        let b = try server.client()
        a.send(
            Self.start(1, assets, ambient: "rain.wav") + "\n" + #"{"id":2,"command":"set","volume":0.5}"# + "\n"
                + #"{"id":3,"command":"status"}"# + "\n")
        #expect(gate.awaitHeldLoad())
        b.send(#"{"id":"b","command":"status"}"# + "\n")
        #expect(b.lines.reply("b")?["data"]?["state"] == "idle")
        gate.release()
        let start = try #require(a.lines.reply(1))
        #expect(start["ok"] == true)
        // The set acted on the session the start began (not `not-playing`), and status saw both.
        #expect(a.lines.reply(2)?["ok"] == true)
        let status = try #require(a.lines.reply(3)?["data"])
        #expect(status["state"] == "playing")
        #expect(status["volume"] == 0.5)
        let order = a.lines.all.compactMap { $0.json["id"] }
        #expect(order == [1, 2, 3])
        server.shutdown(b)
    }

    @Test func racingStartsGetBusyAndAStopActsAfterTheLoadingStart() throws {
        let (assets, gate, server) = try Self.serve(holding: ["rain.wav"])
        let a = try server.client()
        let b = try server.client()
        let c = try server.client()
        a.send(Self.start(1, assets, ambient: "rain.wav") + "\n")
        #expect(gate.awaitHeldLoad())
        b.send(Self.start(2, assets) + "\n")
        c.send(#"{"id":3,"command":"stop","bell":false}"# + "\n" + #"{"id":4,"command":"status"}"# + "\n")
        // C's status is behind its stop, which waits for A's start; B's start waits too.
        #expect(b.lines.reply(2, timeout: 0.05) == nil)
        #expect(c.lines.reply(3, timeout: 0.05) == nil)
        gate.release()
        let started = try #require(a.lines.reply(1)?["data"]?["sessionId"])
        let busy = try #require(b.lines.reply(2))
        #expect(busy["error"]?["code"] == "busy")
        #expect(c.lines.reply(3)?["data"]?["sessionId"] == started, "the stop stopped the session A started")
        #expect(c.lines.reply(4)?["ok"] == true)
        #expect(a.lines.event("session.ended") != nil)
        server.shutdown(a)
    }

    @Test func aCachedStartLoadsNothingAgain() throws {
        let (assets, gate, server) = try Self.serve(holding: [])
        let a = try server.client()
        for round in 0..<2 {
            a.send(Self.start(10 + round, assets, ambient: "rain.wav") + "\n")
            #expect(a.lines.reply(.number(Double(10 + round)))?["ok"] == true)
            a.send(#"{"id":"x\#(round)","command":"stop","bell":false}"# + "\n")
            #expect(a.lines.reply(.string("x\(round)"))?["ok"] == true)
            #expect(a.lines.event("session.ended") != nil)
        }
        #expect(gate.loads(of: "bell.wav") == 1)
        #expect(gate.loads(of: "rain.wav") == 1)
        server.shutdown(a)
        #expect(server.controller.assets.controlThreadLoads == 0)
    }

    @Test func aPreviewAndAStartsScheduledThemesLoadOnTheWorker() throws {
        let (assets, _, server) = try Self.serve(holding: [])
        try FileManager.default.copyItem(atPath: assets + "/rain.wav", toPath: assets + "/later.wav")
        let a = try server.client()
        a.send(#"{"id":1,"command":"preview","theme":"\#(assets)/rain.wav","seconds":1}"# + "\n")
        #expect(a.lines.reply(1)?["ok"] == true)
        a.send(
            #"{"id":2,"command":"start","sitting":60,"bell":"\#(assets)/bell.wav","fadeOut":0,"themeAt":[{"at":30,"theme":"\#(assets)/later.wav"}]}"#
                + "\n")
        #expect(a.lines.reply(2)?["ok"] == true)
        a.send(#"{"id":3,"command":"stop","bell":false}"# + "\n")
        #expect(a.lines.reply(3)?["ok"] == true)
        server.shutdown(a)
        #expect(server.controller.assets.controlThreadLoads == 0)
    }

    @Test func aShutdownAnswersARequestStillLoadingWithUnavailable() throws {
        let (assets, gate, server) = try Self.serve(holding: ["bell.wav"])
        let a = try server.client()
        let b = try server.client()
        a.send(#"{"id":1,"command":"plan","sitting":60,"bell":"\#(assets)/bell.wav"}"# + "\n")
        #expect(gate.awaitHeldLoad())
        server.shutdown(b)
        let refused = try #require(a.lines.reply(1))
        #expect(refused["error"]?["code"] == "unavailable")
        #expect(refused["error"]?["message"]?.stringValue?.contains("shutting down") == true)
        gate.release()
    }

    /// A pack with one bell and one theme (the fixtures), with licences.
    static func pack() throws -> String {
        let dir = ServerFixtures.assets()
        let manifest = """
            {"schema":1,"name":"test","assets":[
            {"id":"ding","displayName":"Ding","kind":"bell","file":"bell.wav","loop":null,"gainDB":0,
             "loudness":{"integrated":-22,"target":-22},"licence":"CC0-1.0","command":"test"},
            {"id":"rain","displayName":"Rain","kind":"soundscape","file":"rain.wav","loop":{"start":0,"end":24000},
             "gainDB":-6,"loudness":{"integrated":-30,"target":-30},"licence":"Apache-2.0","command":"test"}]}
            """
        try manifest.write(toFile: dir + "/manifest.json", atomically: false, encoding: .utf8)
        return dir
    }

    @Test func assetsShowWhatAPickerNeedsAndNoOtherClientsFiles() throws {
        let dir = try Self.pack()
        let gate = Gate(holding: [])
        let library = AssetLibrary(directory: dir, loader: gate.loader)
        let server = try Server(library, folder: dir)
        let a = try server.client()
        let b = try server.client()
        // A plans with a file of its own and with a pack bell: both are loaded into the shared cache.
        let own = dir + "/mine.wav"
        try FileManager.default.copyItem(atPath: dir + "/bell.wav", toPath: own)
        a.send(#"{"id":1,"command":"plan","sitting":60,"bell":"\#(own)"}"# + "\n")
        #expect(a.lines.reply(1)?["ok"] == true)
        a.send(#"{"id":2,"command":"plan","sitting":60,"bell":"ding"}"# + "\n")
        #expect(a.lines.reply(2)?["ok"] == true)
        b.send(#"{"id":"b","command":"assets"}"# + "\n")
        let reply = try #require(b.lines.reply("b")?["data"])
        let loaded = reply["loaded"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(loaded == ["bell:ding@48000"])
        #expect(reply["loadedFiles"] == 1)
        #expect(!"\(reply)".contains("mine.wav"), "B never learns A's file")
        let bell = try #require(reply["bells"]?.arrayValue?.first)
        #expect(bell["kind"] == "bell")
        #expect(bell["licence"] == "CC0-1.0")
        #expect(bell["loopSeconds"] == .null)
        // The fixture bell is 0.5 s of a decaying tone; its loudness is a finite level well below full scale.
        #expect(bell["durationSeconds"] == 0.5)
        let bellLUFS = try #require(bell["loudnessLUFS"]?.numberValue)
        #expect((-70.0)...(-3.0) ~= bellLUFS)
        let theme = try #require(reply["themes"]?.arrayValue?.first)
        #expect(theme["kind"] == "soundscape")
        #expect(theme["licence"] == "Apache-2.0")
        #expect(theme["durationSeconds"] == 1)
        #expect(theme["loopSeconds"] == 0.5, "the manifest's loop: 24 000 frames at 48 kHz")
        // The pack's gain is part of the loudness as played: the same file measured plain is 6 LU louder.
        let plain = try AssetSummary.measure(path: dir + "/rain.wav", kind: .soundscape, loop: .file, gainDB: 0)
        let themeLUFS = try #require(theme["loudnessLUFS"]?.numberValue)
        #expect(abs(themeLUFS - (try #require(plain.loudnessLUFS) - 6)) < 1e-9)
        #expect(theme["problem"] == nil)
        server.shutdown(a)
        // Measured on the worker, once.
        #expect(library.controlThreadLoads == 0)
    }

    @Test func aBrokenPackFileIsAProblemNotAFailedReply() throws {
        let dir = try Self.pack()
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: dir + "/rain.wav"))
        let library = AssetLibrary(directory: dir)
        let reply = library.reply
        let theme = try #require(reply.themes.first)
        #expect(theme.durationSeconds == nil)
        #expect(theme.problem?.contains("rain.wav") == true, "\(theme.problem ?? "")")
        #expect(reply.bells.first?.durationSeconds == 0.5)
    }
}
