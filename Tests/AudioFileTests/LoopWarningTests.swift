import AudioCore
import AudioFile
import Foundation
import Testing

/// Invalid `smpl` loops are reported, not dropped silently (issue 18, item 13).
@Suite struct LoopWarningTests {
    @Test func aBackwardLoopIsWarnedAbout() throws {
        let b = try TestFiles.infoOfWAV(smplStart: 500, endInclusive: 99)
        #expect(b.loops.isEmpty)
        #expect(b.loopWarnings.count == 1 && b.loopWarnings[0].contains("not after its start"), "\(b.loopWarnings)")
        // A loop past the end is kept (callers say it does not fit), without a warning here.
        let o = try TestFiles.infoOfWAV(smplStart: 100, endInclusive: 4999)
        #expect(o.loops.count == 1 && o.loopWarnings.isEmpty)
        #expect(try TestFiles.infoOfWAV(smplStart: 100, endInclusive: 199).loopWarnings.isEmpty)
    }
}
