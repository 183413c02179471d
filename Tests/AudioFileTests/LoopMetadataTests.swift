import AudioCore
import AudioTestSupport
import CSndFile
import Foundation
import Testing

@testable import AudioFile

/// Loop points and cue points, and the end convention: WAV `smpl` stores the last frame of the loop
/// (inclusive); Enso's ``LoopRegion`` end is exclusive. libsndfile converts in both directions.
@Suite("Loop and cue metadata")
struct LoopMetadataTests {
    @Test("a hand-built smpl chunk with dwEnd 199 reads as the loop 100..<200")
    func smplEndIsInclusiveOnDisk() throws {
        let info = try TestFiles.infoOfWAV(smplStart: 100, endInclusive: 199)
        #expect(info.loops == [LoopRegion(start: 100, end: 200)])
    }

    @Test("writing the loop 100..<200 stores dwStart 100, dwEnd 199, and reads back unchanged")
    func smplWriteAndReadBack() throws {
        let dir = TestFiles.folder("smpl-rt")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/loop.wav"
        let buffer = SignalGenerator.buffer(SignalGenerator.whiteNoise(frames: 1000, seed: 5), sampleRate: 44_100)
        let loops = [LoopRegion(start: 100, end: 200), LoopRegion(start: 0, end: 1000)]
        try AudioFileEncoder.write(buffer, to: path, options: EncodeOptions(format: .wav24, loops: loops))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let words = try #require(TestFiles.riffChunkWords(bytes, id: "smpl"))
        // Header: 9 words (loop count at index 7); then each loop: id, type, start, end, fraction, count.
        #expect(words[7] == 2)
        #expect(Array(words[11...12]) == [100, 199])
        #expect(Array(words[17...18]) == [0, 999])
        #expect(try AudioFileDecoder.decode(path: path).info.loops == loops)
    }

    @Test("AIFF sustain-loop markers at 100 and 200 read as 100..<200 (markers sit between frames)")
    func aiffLoops() throws {
        let dir = TestFiles.folder("aiff")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/loop.aiff"
        TestFiles.write(TestFiles.aiff(frames: 1000, loopMarkers: (100, 200)), to: path)
        let decoded = try AudioFileDecoder.decode(path: path)
        #expect(decoded.info.format == "AIFF")
        #expect(decoded.info.loops == [LoopRegion(start: 100, end: 200)])
        #expect(decoded.buffer.frameCount == 1000)
    }

    @Test("cue points written through SFC_SET_CUE read back in frames")
    func cuePoints() throws {
        let dir = TestFiles.folder("cue")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cue.wav"
        var info = SF_INFO()
        info.samplerate = 44_100
        info.channels = 1
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        let handle = try #require(sf_open(path, Int32(SFM_WRITE), &info))
        var cues = SF_CUES()
        cues.cue_count = 2
        withUnsafeMutableBytes(of: &cues.cue_points) { raw in
            let points = raw.bindMemory(to: SF_CUE_POINT.self)
            points[0].indx = 1
            points[0].position = 50
            points[0].sample_offset = 50
            points[1].indx = 2
            points[1].position = 300
            points[1].sample_offset = 300
        }
        #expect(sf_command(handle, Int32(SFC_SET_CUE), &cues, Int32(MemoryLayout<SF_CUES>.size)) == Int32(SF_TRUE))
        var silence = [Float](repeating: 0, count: 1000)
        #expect(sf_writef_float(handle, &silence, 1000) == 1000)
        sf_close(handle)
        let read = try AudioFileDecoder.info(path: path)
        #expect(read.cues.map(\.position) == [50, 300])
        #expect(read.cues.map(\.id) == [1, 2])
    }

    @Test("loops written to a container without smpl are dropped from the file, not an error")
    func flacHasNoLoops() throws {
        let dir = TestFiles.folder("flac-loop")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let buffer = SignalGenerator.buffer(SignalGenerator.whiteNoise(frames: 500, seed: 1), sampleRate: 44_100)
        try AudioFileEncoder.write(
            buffer, to: dir + "/l.flac", options: EncodeOptions(format: .flac, loops: [LoopRegion(start: 0, end: 500)]))
        #expect(try AudioFileDecoder.info(path: dir + "/l.flac").loops == [])
    }

    @Test("loops that do not fit the file or the smpl chunk are refused, and nothing is written")
    func badLoops() {
        let dir = TestFiles.folder("bad-loops")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let buffer = SignalGenerator.buffer(SignalGenerator.whiteNoise(frames: 100, seed: 2), sampleRate: 44_100)
        let cases: [[LoopRegion]] = [
            [LoopRegion(start: 50, end: 101)], [LoopRegion(start: 60, end: 60)], [LoopRegion(start: -1, end: 10)],
            Array(repeating: LoopRegion(start: 0, end: 10), count: 17),
        ]
        for loops in cases {
            do {
                try AudioFileEncoder.write(
                    buffer, to: dir + "/l.wav", options: EncodeOptions(format: .wav16, loops: loops))
                Issue.record("accepted \(loops.count) loop(s) \(loops.first!)")
            } catch {
                #expect(error.detail == .invalidArgument)
                #expect(error.message.contains(dir + "/l.wav"))
            }
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir)) == [])
    }
}
