import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// `prefetch` warms the shared asset cache for the `start` that follows: after it, the start has nothing to load (its
/// reply then comes at once: docs/protocol.md, "Loading"). Behaviour, not wall-clock time: what the scheduler would
/// have its worker load for the start is empty, and the start decodes nothing on the control thread.
@Suite(.serialized) struct PrefetchTests {
    static func command(_ line: String) throws -> ControlCommand {
        try ControlCommand(Request.parse(Array(line.utf8)))
    }

    @Test func afterAPrefetchTheStartLoadsNothing() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        let start =
            #"{"id":2,"command":"start","sitting":60,"bell":"\#(assets)/bell.wav","ambient":"\#(assets)/rain.wav"}"#
        // Cold: the start would have the worker decode its bell and its ambient.
        #expect(t.controller.preloads(for: try Self.command(start), startRate: nil).count == 2)
        let prefetch =
            #"{"id":1,"command":"prefetch","bells":["\#(assets)/bell.wav"],"themes":["\#(assets)/rain.wav","none"]}"#
        // The prefetch itself is what the worker loads, at the rate the start will use.
        #expect(t.controller.preloads(for: try Self.command(prefetch), startRate: nil).count == 2)
        t.send(prefetch)
        let reply = try #require(t.reply(1)?["data"])
        #expect(reply["prefetched"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } == ["bell", "theme"])
        #expect(reply["sampleRate"] == 48_000)
        #expect((reply["cachedBytes"]?.numberValue ?? 0) > 0)
        // Warm: nothing left to load for the start, and it decodes nothing itself.
        #expect(t.controller.preloads(for: try Self.command(start), startRate: nil).isEmpty)
        let loads = t.controller.assets.controlThreadLoads
        t.send(start)
        #expect(t.reply(2)?["ok"] == true)
        #expect(t.controller.assets.controlThreadLoads == loads)
        t.send(#"{"id":3,"command":"stop","bell":false}"#)
        #expect(t.event("session.ended") != nil)
    }

    @Test func aPrefetchNamesWhatItCannotLoad() throws {
        let assets = ServerFixtures.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl")
        t.send(#"{"id":1,"command":"prefetch"}"#)
        #expect(t.reply(1)?["error"]?["code"] == "invalid-request")
        t.send(#"{"id":2,"command":"prefetch","bells":["\#(assets)/bell.wav","\#(assets)/nope.wav"]}"#)
        let error = try #require(t.reply(2)?["error"])
        #expect(error["code"] == "unavailable", "\(error)")
        #expect(error["field"] == "bells[1]", "\(error)")
        t.send(#"{"id":3,"command":"prefetch","themes":"rain"}"#)
        #expect(t.reply(3)?["error"]?["field"] == "themes")
        let many = (0...PrefetchFields.maximumAssets).map { #""b\#($0)""# }.joined(separator: ",")
        t.send(#"{"id":4,"command":"prefetch","bells":[\#(many)]}"#)
        #expect(t.reply(4)?["error"]?["field"] == "bells")
    }
}
