import AudioCore
import Foundation
import Testing

@testable import AudioFile

#if canImport(Glibc)
    import Glibc
#endif

/// The decode limits and path checks (issue 18, items 5 and 13).
@Suite struct DecodeLimitsTests {
    /// A sparse 16-bit stereo 48 kHz WAV whose valid header declares `dataBytes` (no disk space used).
    static func hugeWAV(in dir: String, dataBytes: Int = 1 << 32 - 64) -> String {
        let path = dir + "/huge.wav"
        let fmt =
            TestFiles.le16(1) + TestFiles.le16(2) + TestFiles.le32(48_000) + TestFiles.le32(192_000)
            + TestFiles.le16(4) + TestFiles.le16(16)
        let header =
            Array("RIFF".utf8) + TestFiles.le32(36 + dataBytes) + Array("WAVE".utf8) + TestFiles.chunk("fmt ", fmt)
            + Array("data".utf8) + TestFiles.le32(dataBytes)
        TestFiles.write(header, to: path)
        precondition(truncate(path, off_t(header.count + dataBytes)) == 0, "cannot make a sparse test file")
        return path
    }

    @Test func aFileOverTheBudgetIsRefusedBeforeAnySampleIsRead() throws {
        let dir = TestFiles.folder("huge")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = Self.hugeWAV(in: dir)
        // The header alone is fine: 6 h 12 min of stereo.
        let info = try AudioFileDecoder.info(path: path)
        #expect(info.frames == Int64((1 << 32 - 64) / 4))
        do {
            _ = try AudioFileDecoder.decode(path: path)
            Issue.record("a 4 GB file must not be decoded whole")
        } catch {
            #expect(error.detail == .tooLarge)
            #expect(error.message.contains(path) && error.message.contains("6 h 12 min"), "\(error.message)")
        }
        #expect(DecodeLimits.maxDecodedSamples == 1 << 27)
    }

    @Test func samplesBeyondTheRangeAreRefused() throws {
        let dir = TestFiles.folder("range")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var samples = [Float](repeating: 0.1, count: 4_800)
        samples[2_400] = -1e30
        let path = dir + "/loud.wav"
        try AudioFileEncoder.write(
            AudioBuffer(planarSamples: samples, channels: .mono, sampleRate: .hz48000), to: path,
            options: EncodeOptions(format: .wavf))
        do {
            _ = try AudioFileDecoder.decode(path: path)
            Issue.record("a sample of -1e30 must be refused")
        } catch {
            #expect(error.detail == .malformed)
            #expect(
                error.message.contains(path) && error.message.contains("0.05 s") && error.message.contains("±16"),
                "\(error.message)")
        }
        // +24 dBFS is still a sample.
        samples[2_400] = 15.9
        try AudioFileEncoder.write(
            AudioBuffer(planarSamples: samples, channels: .mono, sampleRate: .hz48000), to: path,
            options: EncodeOptions(format: .wavf))
        #expect(try AudioFileDecoder.decode(path: path).buffer.peak > 15)
    }

    /// The range check's eight-lane pass and its sample-by-sample walk agree: a culprit anywhere (in the lanes, in
    /// the tail past the last full eight, in the second channel) is named with its time and channel; NaN, ±infinity
    /// and exactly ±16 pass.
    @Test func theRangeCheckFindsTheFirstCulpritWhereverItIs() throws {
        let frames = 4_803  // 600 full lanes of eight per channel and a tail of 3
        func check(_ edits: [Int: Float]) -> String? {
            var samples = [Float](repeating: -0.5, count: 2 * frames)
            for (k, v) in edits { samples[k] = v }
            let buffer = AudioBuffer(planarSamples: samples, channels: .stereo, sampleRate: .hz48000)
            do {
                try DecodeLimits.checkRange(buffer, path: "x.wav")
                return nil
            } catch {
                #expect(error.detail == .malformed)
                return error.message
            }
        }
        #expect(check([5: .nan, 6: .infinity, 7: -.infinity, frames - 1: 16, frames: -16]) == nil)
        let inLanes = try #require(check([2_400: 16.5, 3_000: -1e30]))
        #expect(inLanes.contains("sample 16.5 at 0.05 s (channel 1)"), "\(inLanes)")
        let inTail = try #require(check([frames - 1: -17]))
        #expect(inTail.contains("sample -17.0 at 0.1 s (channel 1)"), "\(inTail)")
        let second = try #require(check([frames + 4_800: 1e30, frames + 4_802: .nan]))
        #expect(second.contains("at 0.1 s (channel 2)") && second.contains("±16"), "\(second)")
    }

    @Test func aFIFOAndADeviceAreNotRegularFiles() throws {
        let dir = TestFiles.folder("fifo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe.wav"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, "/dev/zero"] {
            do {
                _ = try AudioFileDecoder.info(path: path)
                Issue.record("\(path) must be refused")
            } catch {
                #expect(error.detail == .notRegularFile, "\(path)")
                #expect(error.message.contains("not a regular file"), "\(error.message)")
            }
        }
    }

    @Test func aNULInThePathIsRefused() {
        do {
            _ = try AudioFileDecoder.info(path: "/etc/passwd\u{0}.wav")
            Issue.record("the prefix before a NUL must never be opened")
        } catch {
            #expect(error.detail == .invalidArgument)
            #expect(error.message.contains("NUL"), "\(error.message)")
        }
    }
}
