import AssetPipeline
import AudioCore
import AudioDSP
import AudioEngine
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import PlaybackService

/// `enso render|play` and `enso serve` load themes one way: the loop resampled on its own in periodic mode, an intro
/// before it kept. The server resampled a theme with a loop plainly, so at 44.1 kHz a seamless 48 kHz loop bent at
/// its wrap (the CLI cut the intro and resampled periodically: the two heard different things).
@Suite struct EngineAssetLoaderTests {
    /// The asset's loop as a buffer, as the engine plays it round and round.
    static func loopOf(_ asset: LoadedAsset) -> AudioBuffer {
        let frames = Int(asset.loop.start)..<Int(asset.loop.end)
        let data = (0..<asset.channels).map { c in frames.map { asset.sample(channel: c, frame: $0) } }
        return AudioBuffer(channelData: data, sampleRate: asset.sampleRate)
    }

    @Test func aSeamlessThemeStaysSeamlessAtAnotherRateWithItsIntro() throws {
        let dir = ToolRunner.temporaryDirectory("asset-loader")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 0.5 s of intro, then 4 s of whole 250 Hz and 1 kHz cycles marked as the loop, then 0.2 s never played.
        let tone = LoopSignals.tones(frequencies: [250, 1_000], frames: 24_000 + 192_000 + 9_600, amplitude: 0.3)
        let path = dir + "/drone.wav"
        try AudioFileEncoder.write(
            tone, to: path, options: EncodeOptions(format: .wav24, loops: [LoopRegion(start: 24_000, end: 216_000)]))
        for rate in [SampleRate.hz48000, SampleRate(checked: 44_100)] {
            let asset = try EngineAssetLoader.load(path: path, id: "drone", kind: .soundscape, rate: rate, loop: .file, gainDB: 0)
            let scale = Double(rate.hertz) / 48_000
            #expect(asset.loop == LoopPoints(start: FramePosition(24_000 * scale), end: FramePosition(216_000 * scale)))
            let seam = SeamMetrics.analyze(Self.loopOf(asset), loop: 0..<Int(asset.loop.length))
            #expect(seam.verdict == .pass, "\(rate.hertz) Hz: \(seam.reasons)")
        }
        // From a pack, the manifest decides: no loop there means the whole file, whatever the file embeds (as
        // `enso assets check` judges it).
        let packed = try EngineAssetLoader.load(path: path, id: "drone", kind: .soundscape, rate: .hz48000, loop: .manifest(nil), gainDB: 0)
        #expect(packed.loop == LoopPoints(start: 0, end: FramePosition(tone.frameCount)))
        // The same through the server's library.
        let library = AssetLibrary(directory: nil)
        let served = try library.load(path, kind: .soundscape, rate: SampleRate(checked: 44_100), field: "theme")
        #expect(SeamMetrics.analyze(Self.loopOf(served), loop: 0..<Int(served.loop.length)).verdict == .pass)
        // A loop over the whole file, as the bundled pack's manifest gives its themes: nothing around it to filter
        // with, so only periodic resampling keeps the wrap (a plain conversion bent it: continuity ~9×, fail).
        let whole = tone.slice(frames: 0..<192_000)
        try AudioFileEncoder.write(whole, to: dir + "/whole.flac", options: EncodeOptions(format: .flac24))
        let whole44 = try EngineAssetLoader.load(
            path: dir + "/whole.flac", id: "whole", kind: .soundscape, rate: SampleRate(checked: 44_100),
            loop: .manifest(nil), gainDB: 0)
        #expect(whole44.loop == LoopPoints(start: 0, end: 176_400) && whole44.frameCount == 176_400)
        let seam = SeamMetrics.analyze(Self.loopOf(whole44), loop: 0..<Int(whole44.loop.length))
        #expect(seam.verdict == .pass, "\(seam.reasons)")
    }

    @Test func referencesAreFilesOrIdsTheSameEverywhere() {
        #expect(!EngineAssetLoader.isFile("rain"))
        #expect(EngineAssetLoader.isFile("rain.ogg") && EngineAssetLoader.isFile("bell.AIFF") && EngineAssetLoader.isFile("./rain"))
        #expect(EngineAssetLoader.isFile("loops/rain"))
    }

    @Test func unusableFilesAreNamed() throws {
        let dir = ToolRunner.temporaryDirectory("asset-loader-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AudioFileEncoder.write(
            LoopSignals.tones(frequencies: [440], frames: 4_800, channels: 6), to: dir + "/six.wav", options: EncodeOptions(format: .wav16))
        #expect(throws: EngineAssetLoader.Failure.self) {
            try EngineAssetLoader.load(path: dir + "/six.wav", id: "six", kind: .bell, rate: .hz48000, loop: .file, gainDB: 0)
        }
        do {
            _ = try EngineAssetLoader.load(
                path: dir + "/six.wav", id: "six", kind: .soundscape, rate: .hz48000, loop: .manifest(LoopRegion(start: 0, end: 9_999)), gainDB: 0)
        } catch {
            #expect(error.message == "\(dir)/six.wav: 6 channels; use a mono or stereo file")
        }
    }
}
