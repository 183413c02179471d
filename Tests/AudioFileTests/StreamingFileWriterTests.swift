import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@Suite struct StreamingFileWriterTests {
    @Test func blocksWrittenIn16BitReadBackOnTheGridAndClipped() throws {
        let dir = ToolRunner.temporaryDirectory("stream-writer")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/out.wav"
        let writer = try StreamingFileWriter(path: path, format: .wav16, sampleRate: .hz48000, channels: .stereo)
        // Interleaved: exact grid values, a value to round, out-of-range values and a NaN.
        let samples: [Float] = [0.5, -0.5, 1.5, -1.5, 0.25, Float(3) / 32768 + 0.4 / 32768, .nan, 0]
        for start in stride(from: 0, to: samples.count, by: 4) {
            try samples[start..<start + 4].withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        try writer.finish()
        let decoded = try AudioFileDecoder.decode(path: path)
        #expect(decoded.buffer.frameCount == 4)
        let back = decoded.buffer.interleaved()
        // libsndfile reads 16-bit as q / 32768: grid values come back exactly; clips land on the extremes.
        let expected: [Float] = [0.5, -0.5, Float(32767) / 32768, -1, 0.25, Float(3) / 32768, -1, 0]
        #expect(back == expected)
    }

    @Test func aCancelledWriterLeavesNothing() throws {
        let dir = ToolRunner.temporaryDirectory("stream-cancel")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let writer = try StreamingFileWriter(
                path: dir + "/x.flac", format: .flac, sampleRate: .hz48000, channels: .mono)
            try [Float](repeating: 0.1, count: 1000).withUnsafeBufferPointer { try writer.write(interleaved: $0) }
            writer.cancel()
        }
        do {
            let dropped = try StreamingFileWriter(
                path: dir + "/y.wav", format: .wav24, sampleRate: .hz48000, channels: .mono)
            try [Float](repeating: 0.1, count: 10).withUnsafeBufferPointer { try dropped.write(interleaved: $0) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aMissingFolderIsANamedError() {
        #expect(throws: EnsoError.self) {
            try StreamingFileWriter(
                path: "/nonexistent-dir/out.wav", format: .wav16, sampleRate: .hz48000, channels: .stereo)
        }
    }
}
