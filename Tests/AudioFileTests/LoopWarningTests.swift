import AudioCore
import AudioFile
import Foundation
import Testing

/// Invalid `smpl` loops are reported, not dropped silently (issue 18, item 13).
@Suite struct LoopWarningTests {
    @Test func aBackwardLoopIsWarnedAbout() throws {
        let dir = TestFiles.folder("smpl-warn")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let backward = dir + "/backward.wav"
        TestFiles.write(
            TestFiles.wav(frames: 1000, extraChunks: TestFiles.smplChunk(start: 500, endInclusive: 99)), to: backward)
        let b = try AudioFileDecoder.info(path: backward)
        #expect(b.loops.isEmpty)
        #expect(b.loopWarnings.count == 1 && b.loopWarnings[0].contains("not after its start"), "\(b.loopWarnings)")
        // A loop past the end is kept (callers say it does not fit), without a warning here.
        let overlong = dir + "/overlong.wav"
        TestFiles.write(
            TestFiles.wav(frames: 1000, extraChunks: TestFiles.smplChunk(start: 100, endInclusive: 4999)), to: overlong)
        let o = try AudioFileDecoder.info(path: overlong)
        #expect(o.loops.count == 1 && o.loopWarnings.isEmpty)
        let good = dir + "/good.wav"
        TestFiles.write(
            TestFiles.wav(frames: 1000, extraChunks: TestFiles.smplChunk(start: 100, endInclusive: 199)), to: good)
        #expect(try AudioFileDecoder.info(path: good).loopWarnings.isEmpty)
    }
}
