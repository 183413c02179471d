import AudioCore
import AudioEngine
import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// The server's asset cache (issue 18, item 7): keyed by the file, not its spelling; bounded in bytes, LRU.
@Suite struct AssetCacheTests {
    @Test func eightSpellingsOfOneFileAreOneEntry() throws {
        let dir = ServerFixtures.assets()
        let lib = AssetLibrary(directory: ToolRunner.temporaryDirectory("no-pack"))
        let name = (dir as NSString).lastPathComponent
        let parent = (dir as NSString).deletingLastPathComponent
        let spellings = [
            dir + "/rain.wav", dir + "//rain.wav", dir + "/./rain.wav", dir + "/../\(name)/rain.wav",
            parent + "/./\(name)/rain.wav", parent + "//\(name)/rain.wav", dir + "/./././rain.wav",
            dir + "/.//rain.wav",
        ]
        let first = try lib.load(spellings[0], kind: .soundscape, rate: .hz48000, field: "ambient")
        for s in spellings.dropFirst() {
            #expect(try lib.load(s, kind: .soundscape, rate: .hz48000, field: "ambient") === first, "\(s)")
        }
        // A file given by path is counted, never named (it may be another client's).
        #expect(lib.reply.loaded.isEmpty)
        #expect(lib.reply.loadedFiles == 1)
        #expect(lib.cachedBytes == first.frameCount * first.channels * 4)
        #expect(lib.reply.cachedBytes == lib.cachedBytes)
    }

    @Test func theCacheIsBoundedAndDropsTheLeastRecentlyUsed() throws {
        let dir = ServerFixtures.assets()
        let second = dir + "/rain2.wav"
        try FileManager.default.copyItem(atPath: dir + "/rain.wav", toPath: second)
        let third = dir + "/rain3.wav"
        try FileManager.default.copyItem(atPath: dir + "/rain.wav", toPath: third)
        // One second of mono at 48 kHz is 192 000 bytes: room for two.
        let lib = AssetLibrary(directory: ToolRunner.temporaryDirectory("no-pack"), maxCachedBytes: 400_000)
        let a = try lib.load(dir + "/rain.wav", kind: .soundscape, rate: .hz48000, field: "ambient")
        let b = try lib.load(second, kind: .soundscape, rate: .hz48000, field: "ambient")
        #expect(try lib.load(dir + "/rain.wav", kind: .soundscape, rate: .hz48000, field: "ambient") === a)
        let c = try lib.load(third, kind: .soundscape, rate: .hz48000, field: "ambient")
        #expect(lib.cachedBytes <= 400_000)
        #expect(lib.reply.loadedFiles == 2)
        // The least recently used (the second) was dropped; the others are still held.
        #expect(try lib.load(third, kind: .soundscape, rate: .hz48000, field: "ambient") === c)
        #expect(try lib.load(dir + "/rain.wav", kind: .soundscape, rate: .hz48000, field: "ambient") === a)
        #expect(try lib.load(second, kind: .soundscape, rate: .hz48000, field: "ambient") !== b)
        // Larger than the whole bound: used, not kept.
        let tiny = AssetLibrary(directory: ToolRunner.temporaryDirectory("no-pack"), maxCachedBytes: 1000)
        _ = try tiny.load(third, kind: .soundscape, rate: .hz48000, field: "ambient")
        #expect(tiny.cachedBytes == 0)
    }

    @Test func anEditedFileIsLoadedAfresh() throws {
        let dir = ServerFixtures.assets()
        let lib = AssetLibrary(directory: ToolRunner.temporaryDirectory("no-pack"))
        let a = try lib.load(dir + "/bell.wav", kind: .bell, rate: .hz48000, field: "bell")
        ServerFixtures.writeWAV([Float](repeating: 0.1, count: 4800), rate: 48_000, to: dir + "/bell.wav")
        let b = try lib.load(dir + "/bell.wav", kind: .bell, rate: .hz48000, field: "bell")
        #expect(a !== b)
        #expect(b.frameCount == 4800)
    }

    @Test func anEditedLoopSidecarIsANewEntry() throws {
        let dir = ServerFixtures.assets()
        let lib = AssetLibrary(directory: ToolRunner.temporaryDirectory("no-pack"))
        let theme = dir + "/rain.wav"
        let whole = try lib.load(theme, kind: .soundscape, rate: .hz48000, field: "ambient", seamFix: false)
        try #"{"version":1,"file":"rain.wav","sampleRate":48000,"frames":48000,"loop":{"start":0,"end":24000}}"#
            .write(toFile: theme + ".loop.json", atomically: false, encoding: .utf8)
        let looped = try lib.load(theme, kind: .soundscape, rate: .hz48000, field: "ambient", seamFix: false)
        #expect(whole !== looped)
        #expect(whole.loop.end == 48000)
        #expect(looped.loop.end == 24000, "the sidecar's loop, not the cached whole-file one")
    }

    @Test func aNULInAProtocolPathIsRefusedNotTruncated() {
        let lib = AssetLibrary(directory: ToolRunner.temporaryDirectory("no-pack"))
        do {
            _ = try lib.load("/etc/passwd\u{0}.wav", kind: .bell, rate: .hz48000, field: "bell")
            Issue.record("the prefix before a NUL must never be opened")
        } catch {
            #expect(error.message.contains("NUL"), "\(error.message)")
        }
    }
}

/// Assets in use count against the cache's bound and are never the entries dropped (issue 47, item 3).
@Suite struct AssetCacheInUseTests {
    @Test func assetsInUseCountAgainstTheBoundAndAreNeverTheOnesDropped() throws {
        let dir = ServerFixtures.assets()
        for name in ["rain2", "rain3"] {
            try FileManager.default.copyItem(atPath: dir + "/rain.wav", toPath: dir + "/\(name).wav")
        }
        // One second of mono at 48 kHz is 192 000 bytes: room for two.
        let lib = AssetLibrary(directory: ToolRunner.temporaryDirectory("no-pack"), maxCachedBytes: 400_000)
        func load(_ name: String) throws -> LoadedAsset {
            try lib.load(dir + "/\(name).wav", kind: .soundscape, rate: .hz48000, field: "ambient")
        }
        let a = try load("rain")
        lib.cache.use(a)
        let b = try load("rain2")
        // A third: the least recently used is `a`, but it is in use, so `b` makes room.
        let c = try load("rain3")
        #expect(try load("rain") === a)
        #expect(try load("rain3") === c)
        #expect(lib.cachedBytes == 384_000)
        // `b` taken into use again although dropped: it counts, and `c` (unused) goes to keep the bound.
        lib.cache.use(b)
        #expect(lib.cachedBytes == 384_000)
        #expect(lib.cache.inUseBytes == 384_000)
        #expect(try load("rain3") !== c)
        // With both in use, nothing fits beside them: a load is used, not kept.
        #expect(lib.cachedBytes <= 400_000)
        lib.cache.release(a)
        lib.cache.release(b)
        #expect(lib.cache.inUseBytes == 0)
        #expect(lib.cachedBytes <= 400_000)
    }
}
