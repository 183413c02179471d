import AudioCore
import Foundation
import Testing

@Suite struct LoopRegionTests {
    @Test("the length is end - start: the end is the first frame after the loop")
    func length() {
        #expect(LoopRegion(start: 100, end: 200).length == 100)
        #expect(LoopRegion(start: 0, end: 1).length == 1)
    }

    @Test("scaled rounds both ends to the nearest frame")
    func scaled() {
        let loop = LoopRegion(start: 44_100, end: 88_200).scaled(by: 48_000.0 / 44_100.0)
        #expect(loop == LoopRegion(start: 48_000, end: 96_000))
        #expect(LoopRegion(start: 1, end: 3).scaled(by: 0.5) == LoopRegion(start: 1, end: 2))
    }

    @Test("its JSON is {start, end} in frames, the form sidecars, manifests and --json rows carry")
    func json() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(LoopRegion(start: 24_000, end: 216_000))
        #expect(String(decoding: data, as: UTF8.self) == #"{"end":216000,"start":24000}"#)
        let back = try JSONDecoder().decode(LoopRegion.self, from: Data(#"{"start": 5, "end": 9}"#.utf8))
        #expect(back == LoopRegion(start: 5, end: 9))
    }
}
