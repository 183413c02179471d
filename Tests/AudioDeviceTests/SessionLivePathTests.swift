import AudioCore
import AudioEngine
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDevice

/// A real session (engine, timeline, bell, looping ambient) played live through `ALSAOutput` into alsa-lib's
/// `file` plugin equals the offline render of the same plan, frame for frame, after the same conversion.
@Suite struct SessionLivePathTests {
    static let rate = SampleRate.hz48000

    /// A short session: 2 s sitting, 3 strikes 0.5 s apart, a 0.5 s breath, 0.2 s fades, twice.
    static func plan() -> SessionPlan {
        SessionPlan(
            sitting: 2, strikes: 3, strikeSpacing: 0.5, breath: 0.5, ambientVolume: 0.5, fadeIn: 0.2, fadeOut: 0.2,
            repeatMode: .times(2))
    }

    static func engine() throws -> SessionEngine {
        let bellSamples = SignalGenerator.bell(
            partials: [(523, 0.5, 1.2), (1410, 0.25, 0.6), (2690, 0.1, 0.3)], seconds: 1.5, sampleRate: rate.hertz)
        let bell = try LoadedAsset(id: "test-bell", buffer: SignalGenerator.buffer(bellSamples, sampleRate: rate.hertz))
        let noise = SignalGenerator.periodicNoise(period: 24_000, frames: 24_000, amplitude: 0.3, seed: 7)
        let ambient = try LoadedAsset(
            id: "test-ambient", buffer: SignalGenerator.buffer(noise, channels: 2, sampleRate: rate.hertz))
        let plan = plan()
        let timeline = try SessionTimeline(
            plan: plan, sampleRate: rate, bellTail: bell.decayFrames(gain: plan.bellVolume))
        return try SessionEngine(plan: plan, timeline: timeline, assets: EngineAssets(bell: bell, ambient: ambient))
    }

    @Test(arguments: [SampleFormat.float32, .int16, .int24])
    func liveSessionEqualsOfflineRender(sampleFormat: SampleFormat) throws {
        // Offline, as `enso render` does it.
        let offlineEngine = try Self.engine()
        var offline: [Float] = []
        let total = try OfflineRenderer(engine: offlineEngine, blockFrames: 4096).run { block, _ in
            offline.append(contentsOf: block)
        }
        #expect(total > 7 * 48_000)  // two 2 s sittings, strikes, breath and tails
        #expect(offline.contains { $0 != 0 })

        // Live, through the device layer.
        let dir = ToolDir()
        defer { dir.remove() }
        let path = dir.path + "/live.raw"
        var config = OutputConfig(device: "file:FILE=\(path),FORMAT=raw")
        config.formats = [sampleFormat]
        config.lockMemory = false
        do {
            let output = try ALSAOutput(config: config)
            let engine = try Self.engine()
            engine.prepare(maxFrames: output.format.periodFrames)
            try output.start(engine, startFrame: 0, frameLimit: total)
            try waitUntilStopped(output, seconds: 20)
            output.stop(drain: true)
            #expect(output.failure == nil && output.xrunCount == 0)
            #expect(engine.state == .ended)
        }
        let live = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var expected = [UInt8](repeating: 0, count: offline.count * sampleFormat.bytesPerSample)
        offline.withUnsafeBufferPointer { src in
            expected.withUnsafeMutableBytes {
                sampleFormat.convert(src.baseAddress!, count: offline.count, into: $0.baseAddress!)
            }
        }
        #expect(live.count == expected.count)
        let frameBytes = 2 * sampleFormat.bytesPerSample
        let firstDifference = zip(live, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "first differing frame \((firstDifference ?? 0) / frameBytes)")
    }
}
