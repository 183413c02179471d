import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// A two-asset pack made in the test: a slowly decaying inharmonic bell and a perfectly periodic noise loop, each
/// normalised to its kind's target and stored as FLAC at 16 kHz (small and fast to analyse). One file for both test
/// targets: AssetReportsTests holds a symbolic link to it.
enum TinyPack {
    static let rate = 16_000

    static func normalized(_ buffer: AudioBuffer, to target: Double) throws -> AudioBuffer {
        var out = buffer
        for _ in 0..<3 {
            let lufs = try #require(try AssetPack.measureLoudness(out))
            let g = Float(pow(10, (target - lufs) / 20))
            for i in out.samples.indices { out.samples[i] *= g }
        }
        return out
    }

    @discardableResult
    static func make(in dir: String) throws -> AssetPack {
        try FileManager.default.createDirectory(atPath: dir + "/bells", withIntermediateDirectories: true)
        // Partials at the ratios of a bowl's ring modes; T60 of 10 s so it falls 20 dB in about 3.3 s.
        let bellSamples = SignalGenerator.bell(
            partials: [(300, 0.5, 10), (848, 0.3, 6), (1627, 0.15, 4)], seconds: 10, sampleRate: rate)
        let bell = try normalized(
            SignalGenerator.buffer(bellSamples, channels: 2, sampleRate: rate), to: AssetPack.Kind.bell.loudnessTarget)
        // 200 Hz completes exactly 600 cycles in 3 s, so tone plus 3 s of noise loops seamlessly; a cut
        // elsewhere leaves a phase jump in the tone that the seam metrics must catch.
        let tone = SignalGenerator.sine(frequency: 200, amplitude: 0.2, frames: 3 * rate, sampleRate: rate)
        let hiss = SignalGenerator.periodicNoise(period: 3 * rate, frames: 3 * rate, amplitude: 0.05, seed: 7)
        let noise = zip(tone, hiss).map { $0 + $1 }
        let loop = try normalized(
            SignalGenerator.buffer(noise, channels: 2, sampleRate: rate), to: AssetPack.Kind.soundscape.loudnessTarget)
        try AudioFileEncoder.write(bell, to: dir + "/bells/bowl.flac", options: EncodeOptions(format: .flac))
        try AudioFileEncoder.write(loop, to: dir + "/noise.flac", options: EncodeOptions(format: .flac))
        func stored(_ file: String) throws -> Double {
            let decoded = try AudioFileDecoder.decode(path: dir + "/" + file)
            return try #require(try AssetPack.measureLoudness(decoded.buffer))
        }
        let pack = AssetPack(
            name: "Tiny",
            entries: [
                AssetPack.Entry(
                    id: "bowl", displayName: "Bowl", kind: .bell, file: "bells/bowl.flac", loop: nil,
                    loudness: .init(
                        integrated: try stored("bells/bowl.flac"), target: AssetPack.Kind.bell.loudnessTarget),
                    licence: "CC0-1.0", command: "AssetCheckTests"),
                AssetPack.Entry(
                    id: "noise", displayName: "Noise", kind: .soundscape, file: "noise.flac",
                    loop: LoopRegion(start: 0, end: FramePosition(3 * rate)),
                    loudness: .init(
                        integrated: try stored("noise.flac"), target: AssetPack.Kind.soundscape.loudnessTarget),
                    licence: "CC0-1.0", command: "AssetCheckTests"),
            ],
            directory: dir)
        try pack.writeManifest()
        return pack
    }
}
