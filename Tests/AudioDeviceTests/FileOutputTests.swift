import AudioCore
import Foundation
import Testing

@testable import AudioDevice

@Suite struct FileOutputTests {
    @Test func writesTheConvertedStreamAtomically() throws {
        let dir = ToolDir()
        defer { dir.remove() }
        let path = dir.path + "/out.raw"
        let output = try FileOutput(path: path, sampleFormat: .int16)
        try output.start(ToneSource(), startFrame: 0, frameLimit: 10_001)
        try waitUntilStopped(output, seconds: 5)
        // Nothing at the destination until the file is complete.
        #expect(!FileManager.default.fileExists(atPath: path))
        output.stop(drain: true)
        #expect(output.failure == nil)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let floats = ToneSource.offline(frames: 10_001, block: 10_001)
        var expected = [UInt8](repeating: 0, count: floats.count * 2)
        floats.withUnsafeBufferPointer { src in
            expected.withUnsafeMutableBytes {
                SampleFormat.int16.convert(src.baseAddress!, count: floats.count, into: $0.baseAddress!)
            }
        }
        #expect(bytes == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.raw"])
    }

    @Test func stopWithoutDrainLeavesNothing() throws {
        let dir = ToolDir()
        defer { dir.remove() }
        let output = try FileOutput(path: dir.path + "/out.raw")
        try output.start(ToneSource(), startFrame: 0, frameLimit: 4_096)
        try waitUntilStopped(output, seconds: 5)
        output.stop(drain: false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func missingFolderIsNamed() {
        do {
            _ = try FileOutput(path: "/nonexistent-enso-dir/out.raw")
            Issue.record("writing into a missing folder succeeded")
        } catch {
            #expect(error.kind == .unavailable)
            #expect(error.message.contains("/nonexistent-enso-dir/out.raw"))
        }
    }
}
