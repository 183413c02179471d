import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// Every sample the server holds counts against one bound (the cache's): a plan whose sounds cannot fit is refused
/// with the figures before anything is decoded, and what a session plays is counted until it ends.
@Suite struct MemoryBoundTests {
    /// Two seconds of mono at 48 kHz: 96 000 frames, 384 000 bytes of samples once loaded.
    static let themeBytes = 96_000 * 4
    /// The bound the tests set: room for the bell (0.5 s: 96 000 bytes) and two themes, not three.
    static let bound = 1 << 20

    /// The fixtures with eight two-second themes `t1.wav`…`t8.wav`.
    static func assets() -> String {
        let dir = ServerFixtures.assets()
        var rng = SeededRandom(seed: 7)
        for i in 1...8 {
            let samples = (0..<96_000).map { _ in Float(rng.nextUnit() * 0.2 - 0.1) }
            ServerFixtures.writeWAV(samples, rate: 48_000, to: dir + "/t\(i).wav")
        }
        return dir
    }

    static func start(_ id: Int, _ assets: String, themes: ClosedRange<Int>) -> String {
        let changes = themes.map { #"{"at":\#($0 * 5),"theme":"\#(assets)/t\#($0).wav"}"# }.joined(separator: ",")
        return
            #"{"id":\#(id),"command":"start","sitting":60,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0,"seamFix":false,"themeAt":[\#(changes)]}"#
    }

    @Test func aPlanOverTheBoundIsRefusedWithTheFigures() throws {
        let assets = Self.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl", maxCachedBytes: Self.bound)
        // Eight themes and the bell: 3.0 MiB of samples, over the 1 MiB bound. Nothing is decoded.
        t.send(Self.start(1, assets, themes: 1...8))
        let refused = try #require(t.reply(1))
        #expect(refused["ok"] == false)
        #expect(refused["error"]?["code"] == "unsupported")
        let message = refused["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("needs 3.0 MiB of samples in memory (9 sounds"), "\(message)")
        #expect(message.contains("at most 1.0 MiB"), "\(message)")
        #expect(t.controller.assets.cachedBytes == 0, "nothing was loaded for a plan that cannot fit")
        // `plan` refuses it the same way.
        t.send(Self.start(2, assets, themes: 1...8).replacingOccurrences(of: #""start""#, with: #""plan""#))
        #expect(t.reply(2)?["error"]?["code"] == "unsupported")
        t.send(#"{"id":3,"command":"status"}"#)
        #expect(t.reply(3)?["data"]?["state"] == "idle")
    }

    @Test func whatASessionPlaysCountsUntilItEnds() throws {
        let assets = Self.assets()
        let t = try ManualServer(journal: assets + "/j.jsonl", maxCachedBytes: Self.bound)
        let library = t.controller.assets
        // Two themes and the bell fit: 864 000 bytes.
        t.send(Self.start(1, assets, themes: 1...2))
        try #require(t.reply(1)?["ok"] == true)
        let playing = 2 * Self.themeBytes + 96_000
        #expect(library.cache.inUseBytes == playing)
        #expect(library.cachedBytes == playing)
        // A third theme would not fit beside what the session holds: refused, with what is in use.
        t.send(#"{"id":2,"command":"set","theme":"\#(assets)/t3.wav"}"#)
        let set = try #require(t.reply(2))
        #expect(set["error"]?["code"] == "unsupported")
        #expect(
            set["error"]?["message"]?.stringValue?.contains("0.8 MiB of it in use by the session") == true, "\(set)")
        // A second bell fits (96 000 bytes more) and is held until the session ends, within the bound.
        try FileManager.default.copyItem(atPath: assets + "/bell.wav", toPath: assets + "/gong.wav")
        t.send(#"{"id":3,"command":"strike","bell":"\#(assets)/gong.wav"}"#)
        #expect(t.reply(3)?["ok"] == true)
        #expect(library.cache.inUseBytes == playing + 96_000)
        #expect(library.cachedBytes <= Self.bound)
        t.send(#"{"id":4,"command":"assets"}"#)
        #expect(t.reply(4)?["data"]?["cachedBytes"] == .number(Double(library.cachedBytes)))
        // Once the session ends its sounds no longer count: the third theme fits in the next one.
        t.send(#"{"id":5,"command":"stop","bell":false}"#)
        #expect(t.reply(5)?["ok"] == true)
        #expect(t.event("session.ended") != nil)
        #expect(library.cache.inUseBytes == 0)
        t.send(Self.start(6, assets, themes: 2...3))
        #expect(t.reply(6)?["ok"] == true)
        #expect(library.cachedBytes <= Self.bound)
        t.closeInput()
    }

    /// A theme long enough to stream holds one ring while it plays, not the file: a plan with a 130 s theme (25 MB
    /// once decoded at 48 kHz) fits the 1 MiB bound, counted as its 2 s ring.
    @Test func aStreamedThemeCountsAsItsRing() throws {
        let assets = ServerFixtures.assets()
        var rng = SeededRandom(seed: 11)
        let long = (0..<(130 * 8_000)).map { _ in Float(rng.nextUnit() * 0.2 - 0.1) }
        ServerFixtures.writeWAV(long, rate: 8_000, to: assets + "/long.wav")
        let t = try ManualServer(journal: assets + "/j.jsonl", maxCachedBytes: Self.bound)
        let source = try t.controller.assets.source(
            assets + "/long.wav", kind: .soundscape, rate: .hz48000, field: "ambient")
        #expect(t.controller.assets.bytes(of: source) == 96_000 * 4)
        t.send(
            #"{"id":1,"command":"start","sitting":60,"bell":"\#(assets)/bell.wav","strikes":1,"fadeIn":0,"seamFix":false,"ambient":"\#(assets)/long.wav"}"#
        )
        #expect(t.reply(1)?["ok"] == true)
        #expect(t.controller.assets.cachedBytes <= Self.bound)
        t.send(#"{"id":2,"command":"stop","bell":false}"#)
        #expect(t.reply(2)?["ok"] == true)
        t.closeInput()
    }
}
