import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// Issue #42 §1, one set of short-time spectra per loop: `loops verify` reads the texture signature from the frames
/// the seam's spectral metric transforms (``TextureSpectra``), so the signature costs no transform of its own, while
/// every seam figure stays what ``SeamMetrics/measure(_:loop:goOn:)`` alone gives, bit for bit.
@Suite struct TextureSpectraTests {
    /// Drips over a rumble, stereo 48 kHz (the bench loops' material), `frames` long.
    static func material(frames: Int, rate: Int = 48_000) -> AudioBuffer {
        var mix = LoopSignals.drips(period: 19_207, frames: frames, seed: 21)
        let bed = LoopSignals.periodicNoise(
            period: 19_207, frames: frames, amplitude: 0.2, smoothingHz: 1_200, poles: 2, seed: 22)
        for k in mix.samples.indices { mix.samples[k] = mix.samples[k] * 0.5 + bed.samples[k] }
        return mix
    }

    @Test func theSpectralMetricFeedsTheSignatureEveryFrameItReads() {
        let buffer = Self.material(frames: 4 * 48_000)
        let view = LoopView(checking: buffer, loop: 0..<buffer.frameCount)
        var spectra: TextureSpectra? = view.mono.withUnsafeBufferPointer {
            TextureSpectra(mono: $0, sampleRate: view.sampleRate)
        }
        _ = SeamMetrics.measure(view, goOn: { _ in true }, texture: &spectra)
        // 4 s at 48 kHz: frames of 1024 every 512 samples, all of those within the loop added by the spectral metric
        // itself; the one across the loop's end (from 373 · 512 to 375 · 512, its second half the loop's start) is
        // left to the signature.
        #expect(spectra!.size == 1024)
        #expect(spectra!.frameLimit == (4 * 48_000 - 1024) / 512 + 1)
        #expect(spectra!.framesRead == spectra!.frameLimit)
        #expect(spectra!.wrapFrames == 1 && !spectra!.isComplete)
        #expect(spectra!.power.count == spectra!.frameLimit / TextureSpectra.framesPerStep * spectra!.bands)
        #expect(spectra!.groupPower.count == spectra!.frameLimit * spectra!.groups)
        view.mono.withUnsafeBufferPointer { spectra!.readRest($0) }
        #expect(spectra!.isComplete && spectra!.framesRead == 4 * 48_000 / 512)
    }

    /// A loop plays as a cycle, so a rotation of it (the same loop started elsewhere) is the same texture: every
    /// moment is read alike, the frames across its end included, and the silence it starts or ends in is part of it
    /// (a gap heard every time round).
    @Test func aRotationOfALoopByWholeFramesHasItsSignature() throws {
        // A dry groove: hits over silence, the first at the file's first sample.
        // 1.92 s: 180 half frames, so a rotation by whole half frames reads the same frames.
        let loop = LoopSignals.beatLoop(bars: 1, bpm: 125, sampleRate: 48_000, bed: 0, held: false, drone: 0)
        let a = try #require(LikenessSignature.texture(loop))
        for hops in [1, 7, 94, 187] {
            let b = try #require(LikenessSignature.texture(LoopSignals.rotated(loop, by: hops * 512)))
            let bands = zip(a.bandLevels, b.bandLevels).map { abs($0 - $1) }.max() ?? 0
            let depths = zip(a.modulation.joined(), b.modulation.joined()).map { abs($0 - $1) }.max() ?? 0
            #expect(bands < 1e-6 && depths < 1e-6, "rotated \(hops) half frames: \(bands) dB, \(depths) dB")
        }
    }

    @Test func aLoopLongerThanTheTextureReadIsNotACycle() {
        let long = Self.material(frames: 61 * 48_000)
        let spectra = long.finiteMonoMix().withUnsafeBufferPointer { TextureSpectra(mono: $0, sampleRate: 48_000) }
        #expect(spectra.wrapFrames == 0)
        let short = Self.material(frames: 2 * 48_000 + 100)
        let cycle = short.finiteMonoMix().withUnsafeBufferPointer { TextureSpectra(mono: $0, sampleRate: 48_000) }
        // Frames start every 512 samples up to the loop's end: ⌈96 100 / 512⌉ = 188, 186 of them within it.
        #expect(cycle.frameLimit == 186 && cycle.wrapFrames == 2)
    }

    @Test func sharedSpectraGiveTheReportAndTheSignatureOfEachAlone() throws {
        let buffer = Self.material(frames: 5 * 48_000)
        // The whole file (frames shared), and a loop inside it (the signature still of the whole file).
        for loop in [0..<buffer.frameCount, 12_345..<(4 * 48_000 + 7)] {
            let (measures, texture) = SeamMetrics.measureWithTexture(buffer, loop: loop)
            #expect(measures == SeamMetrics.measure(buffer, loop: loop))
            let signature = try #require(texture)
            #expect(signature == LikenessSignature.texture(buffer))
        }
    }

    @Test func aLoopTooShortForTheSpectralMetricIsReadAlone() throws {
        // 0.15 s: the spectral metric reads it a sixteenth of a frame apart, so the signature reads its own frames.
        let buffer = Self.material(frames: 7_200)
        let (_, texture) = SeamMetrics.measureWithTexture(buffer, loop: 0..<buffer.frameCount)
        let s = try #require(texture)
        #expect(s == LikenessSignature.texture(buffer))
        #expect(s.bandLevels.max() == 0)
    }

    @Test func aFileShorterThanOneStepIsOneStepAndOneShorterThanAFrameHasNoSignature() throws {
        // 40 ms: three frames, one partial step; still band levels to compare.
        let short = try #require(LikenessSignature.texture(Self.material(frames: 1_920)))
        #expect(short.bandLevels.count == PerceptualBands.count(nyquist: 24_000))
        #expect(short.bandLevels.max() == 0)
        // 15 ms: no whole frame; an empty signature would be a near-duplicate of every sound.
        #expect(LikenessSignature.texture(Self.material(frames: 720)) == nil)
    }

    @Test func aSilentFileHasNoSignatureAndOnlyTheFirstMinuteIsRead() {
        // A hum 3 dB under −60 dBFS: a seam to judge, but no texture to tell apart.
        let hum = (0..<48_000).map { Float(0.0007 * sin(Double($0) * 2 * .pi * 100 / 48_000)) }
        let silent = AudioBuffer(channelData: [hum], sampleRate: .hz48000)
        #expect(SeamMetrics.measureWithTexture(silent, loop: 0..<48_000).texture == nil)
        let long = Self.material(frames: 61 * 48_000)
        let spectra = long.finiteMonoMix().withUnsafeBufferPointer { TextureSpectra(mono: $0, sampleRate: 48_000) }
        #expect(spectra.frameLimit == (60 * 48_000 - 1024) / 512 + 1)
    }
}
