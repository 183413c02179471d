import AudioCore
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
        #expect(lib.reply.loaded.count == 1)
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
        _ = try lib.load(second, kind: .soundscape, rate: .hz48000, field: "ambient")
        #expect(try lib.load(dir + "/rain.wav", kind: .soundscape, rate: .hz48000, field: "ambient") === a)
        _ = try lib.load(third, kind: .soundscape, rate: .hz48000, field: "ambient")
        #expect(lib.cachedBytes <= 400_000)
        let loaded = lib.reply.loaded
        #expect(loaded.count == 2)
        #expect(!loaded.contains { $0.contains("rain2.wav") }, "the least recently used is dropped: \(loaded)")
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
