import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDevice

/// The live ALSA write path, checked bit for bit through alsa-lib's `file` plugin (no sound card needed):
/// what the render thread writes must be exactly the offline render after the same format conversion.
@Suite struct ALSAOutputTests {
    /// Plays `frames` frames of ``ToneSource`` to `file:FILE=…,FORMAT=raw` and returns the file's bytes.
    func playToFilePlugin(frames: Int, config base: OutputConfig) throws -> (
        bytes: [UInt8], format: StreamFormat, xruns: Int
    ) {
        let dir = ToolDir()
        defer { dir.remove() }
        let path = dir.path + "/live.raw"
        var config = base
        config.device = "file:FILE=\(path),FORMAT=raw"
        config.lockMemory = false
        let format: StreamFormat
        let xruns: Int
        do {
            let output = try ALSAOutput(config: config)
            format = output.format
            try output.start(ToneSource(channels: format.channels.count), startFrame: 0, frameLimit: FrameCount(frames))
            try waitUntilStopped(output, seconds: 10)
            output.stop(drain: true)
            #expect(output.failure == nil)
            xruns = output.xrunCount
        }  // the output closes here; the plugin flushes the file on close
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return ([UInt8](data), format, xruns)
    }

    /// The offline render of the same source converted to `format`.
    func offlineBytes(frames: Int, channels: Int, format: SampleFormat) -> [UInt8] {
        // A block size unrelated to the device period: the source is frame-addressed, so this also
        // shows the live path does not depend on how the frames are cut.
        let floats = ToneSource.offline(frames: frames, channels: channels, block: 441)
        var out = [UInt8](repeating: 0, count: floats.count * format.bytesPerSample)
        floats.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBytes { format.convert(src.baseAddress!, count: floats.count, into: $0.baseAddress!) }
        }
        return out
    }

    @Test(arguments: SampleFormat.allCases)
    func livePathIsBitExact(sampleFormat: SampleFormat) throws {
        var config = OutputConfig()
        config.formats = [sampleFormat]
        // Not a multiple of the period: the last, partial period must be written too.
        let frames = 48_000 + 777
        let (bytes, format, xruns) = try playToFilePlugin(frames: frames, config: config)
        #expect(format.sampleFormat == sampleFormat)
        #expect(format.periodFrames == 2048 && format.bufferFrames == 8192)
        let expected = offlineBytes(frames: frames, channels: 2, format: sampleFormat)
        #expect(bytes.count == expected.count)
        let firstDifference = zip(bytes, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "first differing byte at \(firstDifference ?? -1)")
        #expect(xruns == 0)
    }

    @Test func monoStreamAndSmallPeriods() throws {
        var config = OutputConfig()
        config.channels = .mono
        config.periodFrames = 256
        config.bufferFrames = 1024
        let frames = 10_000
        let (bytes, format, _) = try playToFilePlugin(frames: frames, config: config)
        #expect(format.channels == .mono && format.periodFrames == 256)
        #expect(bytes == offlineBytes(frames: frames, channels: 1, format: format.sampleFormat))
    }

    @Test func missingDeviceNamesItAndWhatToTry() {
        var config = OutputConfig(device: "no_such_device_enso")
        config.lockMemory = false
        do {
            _ = try ALSAOutput(config: config)
            Issue.record("opening a missing device succeeded")
        } catch {
            #expect(error.kind == .unavailable)
            #expect(error.message.contains("'no_such_device_enso'"))
            #expect(error.message.contains("enso devices"))
            #expect(error.code != nil)
            // alsa-lib's own diagnostic is quoted in the error instead of printed to stderr before it.
            #expect(error.message.contains("(alsa-lib: Unknown PCM no_such_device_enso)"), "\(error.message)")
        }
    }

    @Test func theCLIPrintsOneErrorForAMissingDevice() throws {
        let r = try ToolRunner.run("enso", ["play", "--sit", "1", "--strikes", "1", "--device", "no_such_device_enso"])
        #expect(r.exitCode == 1)
        #expect(!r.stderr.contains("ALSA lib"), "\(r.stderr)")
        #expect(r.stderr.hasPrefix("Error: cannot open device 'no_such_device_enso'"), "\(r.stderr)")
    }

    @Test func sourceWithWrongChannelCountIsRefused() throws {
        var config = OutputConfig(device: "null")
        config.lockMemory = false
        let output = try ALSAOutput(config: config)
        #expect(throws: EnsoError.self) { try output.start(ToneSource(channels: 1)) }
    }

    @Test func playbackDevicesListNullLikeAplay() throws {
        let devices = try PlaybackDevice.all()
        let null = try #require(devices.first { $0.name == "null" })
        #expect(null.description.first?.hasPrefix("Discard all samples") == true)
    }
}

/// Waits until `output`'s render thread has ended, or fails the test after `seconds`.
func waitUntilStopped(_ output: any AudioOutput, seconds: Double) throws {
    let deadline = AudioClock.monotonicNow() + Int64(seconds * 1e9)
    while output.isRunning {
        if AudioClock.monotonicNow() > deadline {
            output.stop(drain: false)
            throw DeviceTestError("the output did not stop within \(seconds) s")
        }
        usleep(2_000)
    }
}

struct DeviceTestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A temporary folder for one test.
struct ToolDir {
    let path: String
    init() {
        path = ToolRunner.temporaryDirectory("enso-device")
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
