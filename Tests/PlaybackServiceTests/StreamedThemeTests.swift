import AssetLoading
import AssetPipeline
import AudioCore
import AudioEngine
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// A theme over ``AmbientStreaming/loadLimitSeconds`` is streamed from disk through a bounded ring; it must sound as
/// the same theme loaded whole, frame for frame: intro, loop wraps, rate conversion, gain, crossfades, scheduled
/// changes, pause and resume, and preview. The files here are short, and the limit is lowered to stream them.
@Suite struct StreamedThemeTests {
    static let rate = SampleRate(checked: 44_100)

    /// Theme A: 48 kHz stereo WAV, 0.5 s of intro, a 2 s loop of periodic noise (seamless), 0.3 s never played.
    /// Theme B: 48 kHz mono FLAC, 1.5 s looped whole.
    static func writeThemes(in dir: String) throws -> (a: String, b: String) {
        let a = dir + "/a.wav"
        let noise = LoopSignals.periodicNoise(period: 96_000, frames: 24_000 + 96_000 + 14_400, seed: 11)
        // The intro is the same noise shifted: what matters is that it differs from the loop's start.
        try AudioFileEncoder.write(
            noise, to: a, options: EncodeOptions(format: .wav24, loops: [LoopRegion(start: 24_000, end: 120_000)]))
        let b = dir + "/b.flac"
        let mono = LoopSignals.periodicNoise(period: 72_000, frames: 72_000, channels: 1, smoothingHz: 2_000, seed: 12)
        try AudioFileEncoder.write(mono, to: b, options: EncodeOptions(format: .flac24))
        return (a, b)
    }

    static func load(_ path: String, gainDB: Double, streamed: Bool) throws -> LoadedAsset {
        try EngineAssetLoader.load(
            path: path, id: (path as NSString).lastPathComponent, kind: .soundscape, rate: rate, loop: .file,
            gainDB: gainDB, streamAbove: streamed ? 0 : .infinity)
    }

    static let bell: LoadedAsset = {
        let frames = 4_410
        let tone = (0..<frames).map { i in Float(0.4 * sin(Double(i) * 0.06) * exp(-Double(i) / 800)) }
        return try! LoadedAsset(id: "bell", buffer: AudioBuffer(channelData: [tone], sampleRate: rate))
    }()

    /// A whole session with `a` as its theme, rendered in random block sizes with the streams pulled before each
    /// block: a scheduled crossfade to `b` at 3 s, a pause, a switch back to `a` (a second play of it), the end.
    static func renderSession(a: LoadedAsset, b: LoadedAsset) throws -> (audio: [Float], events: [String]) {
        let plan = SessionPlan(
            sitting: 8, strikes: 1, strikeSpacing: 0.5, breath: 1, fadeIn: 0.2, fadeOut: 0.5, repeatMode: .times(1))
        let timeline = try SessionTimeline(plan: plan, sampleRate: rate, bellTail: bell.decayFrames())
        let engine = try SessionEngine(plan: plan, timeline: timeline, assets: EngineAssets(bell: bell, ambient: a))
        engine.prepare(maxFrames: 1024)
        engine.setTheme(b, atSessionFrame: 3 * 44_100, crossfadeFrames: 22_050)
        var rng = SeededRandom(seed: 5)
        var audio: [Float] = []
        var events: [String] = []
        var buffer = [Float](repeating: 0, count: 2048)
        var block = 0
        while engine.state != .ended && audio.count < 2 * 20 * 44_100 {
            if block == 100 { engine.pause() }
            if block == 140 { engine.resume() }
            if block == 420 { engine.setTheme(a, crossfadeFrames: 44_100) }
            let n = 1 + Int(rng.next() % 1024)
            engine.pullStreams()
            buffer.withUnsafeMutableBufferPointer { engine.render(into: $0.baseAddress!, frames: n) }
            audio += buffer[0..<(2 * n)]
            while let e = engine.pollEvent() {
                if case .retired = e { continue }
                events.append("\(e)")
            }
            block += 1
        }
        return (audio, events)
    }

    @Test func aStreamedSessionRendersAsTheLoadedOneBitForBit() throws {
        let dir = ToolRunner.temporaryDirectory("streamed-theme")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.writeThemes(in: dir)
        let loadedA = try Self.load(files.a, gainDB: -3, streamed: false)
        let loadedB = try Self.load(files.b, gainDB: 0, streamed: false)
        let streamedA = try Self.load(files.a, gainDB: -3, streamed: true)
        let streamedB = try Self.load(files.b, gainDB: 0, streamed: true)
        #expect(!loadedA.isStreamed && streamedA.isStreamed && streamedB.isStreamed)
        // Described alike: the converted length and the loop moved to 44.1 kHz.
        #expect(streamedA.frameCount == loadedA.frameCount && streamedA.loop == loadedA.loop)
        #expect(streamedB.frameCount == loadedB.frameCount && streamedB.loop == loadedB.loop)
        #expect(streamedA.residentBytes == 0, "the cached streamed theme holds no audio; each play holds its ring")

        let loaded = try Self.renderSession(a: loadedA, b: loadedB)
        let streamed = try Self.renderSession(a: streamedA, b: streamedB)
        // Long enough for A's 2 s loop to wrap, and not silence.
        #expect(loaded.audio.count > 2 * 8 * 44_100)
        #expect((loaded.audio.map(abs).max() ?? 0) > 0.05)
        #expect(streamed.audio.count == loaded.audio.count)
        let firstDifference = streamed.audio.indices.first { streamed.audio[$0] != loaded.audio[$0] }
        #expect(firstDifference == nil, "first differing sample at interleaved index \(firstDifference ?? -1)")
        #expect(streamed.events == loaded.events)
        #expect(!streamed.events.contains { $0.contains("streamUnderrun") })
    }

    /// Where a non-seamless theme's loop sits in its file, which decides how the seam fix bakes it: with material
    /// after the loop's end (crossfaded at the loop's head), with only material before its start (at its tail), or
    /// the whole file (the loop's end moved back to make room).
    enum SeamLayout: String, CaseIterable, Sendable {
        case head, tail, wholeFile
    }

    /// Theme C: 48 kHz stereo WAV, a 3 s loop of a tone that ends half a cycle out of phase (its seam clicks),
    /// under a little noise and a DC offset, laid out as `layout` says.
    static func writeNonSeamless(_ layout: SeamLayout, in dir: String) throws -> (
        path: String, loop: EngineAssetLoader.ThemeLoop
    ) {
        let loopFrames = 144_000
        let (intro, after) = layout == .head ? (24_000, 57_600) : layout == .tail ? (72_000, 0) : (0, 0)
        let hz = LoopSignals.wholeCycleFrequency(near: 220, frames: loopFrames, sampleRate: 48_000, extraCycle: 0.5)
        var tone = LoopSignals.tones(frequencies: [hz], frames: intro + loopFrames + after, amplitude: 0.25)
        tone = LoopSignals.addingNoise(to: tone, amplitude: 0.01, seed: 31)
        tone = LoopSignals.addingDC(to: tone, offset: 0.02)
        let path = dir + "/c-\(layout.rawValue).wav"
        let loops = layout == .wholeFile ? [] : [LoopRegion(start: Int64(intro), end: Int64(intro + loopFrames))]
        try AudioFileEncoder.write(tone, to: path, options: EncodeOptions(format: .wavf, loops: loops))
        return (path, layout == .wholeFile ? .manifest(nil) : .file)
    }

    /// The seam fix works the same for a streamed theme: it is judged and baked from the window around its seam
    /// (here the whole loop), and the stream plays the baked loop, so a session with it renders as with the theme
    /// loaded whole and seam-fixed, bit for bit, with the same warning. (A streamed theme played its seam as it
    /// was, with a warning saying so.)
    @Test(arguments: SeamLayout.allCases)
    func aSeamFixedStreamedSessionRendersAsTheLoadedOneBitForBit(_ layout: SeamLayout) throws {
        let dir = ToolRunner.temporaryDirectory("streamed-seam-\(layout.rawValue)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.writeThemes(in: dir)
        let c = try Self.writeNonSeamless(layout, in: dir)
        var loadedWarnings: [String] = []
        var streamedWarnings: [String] = []
        let loadedC = try EngineAssetLoader.load(
            path: c.path, id: "c", kind: .soundscape, rate: Self.rate, loop: c.loop, gainDB: -3,
            streamAbove: .infinity, warn: { loadedWarnings.append($0) })
        let streamedC = try EngineAssetLoader.load(
            path: c.path, id: "c", kind: .soundscape, rate: Self.rate, loop: c.loop, gainDB: -3, streamAbove: 0,
            warn: { streamedWarnings.append($0) })
        #expect(!loadedC.isStreamed && streamedC.isStreamed)
        #expect(loadedWarnings.count == 1 && loadedWarnings.first?.contains("crossfade at the seam") == true)
        #expect(streamedWarnings == loadedWarnings)
        #expect(streamedC.frameCount == loadedC.frameCount && streamedC.loop == loadedC.loop)
        // What the cached theme holds is its crossfade (at most 1 s of stereo), counted against the memory bound;
        // a play holds its ring.
        #expect(streamedC.residentBytes > 0 && streamedC.residentBytes <= 48_000 * 2 * 4)
        #expect(streamedC.opened().residentBytes == 2 * AmbientStreaming.ringFrames(at: Self.rate) * 4)

        let loaded = try Self.renderSession(
            a: loadedC, b: try Self.load(files.b, gainDB: 0, streamed: false))
        let streamed = try Self.renderSession(
            a: streamedC, b: try Self.load(files.b, gainDB: 0, streamed: true))
        #expect(loaded.audio.count > 2 * 8 * 44_100)
        #expect(streamed.audio.count == loaded.audio.count)
        let firstDifference = streamed.audio.indices.first { streamed.audio[$0] != loaded.audio[$0] }
        #expect(firstDifference == nil, "first differing sample at interleaved index \(firstDifference ?? -1)")
        #expect(streamed.events == loaded.events)
    }

    /// A loop longer than the seam window (20 s) is judged and baked from its first and last 10 s: the stream
    /// plays the loaded theme's bake (its crossfade at the loop's head), except that the mean removed is the
    /// window's rather than the whole loop's, a constant far below hearing.
    @Test func aLongLoopsSeamIsFixedFromItsWindow() throws {
        let dir = ToolRunner.temporaryDirectory("streamed-seam-long")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loopFrames = 30 * 48_000
        let hz = LoopSignals.wholeCycleFrequency(near: 220, frames: loopFrames, sampleRate: 48_000, extraCycle: 0.5)
        var tone = LoopSignals.tones(frequencies: [hz], frames: 24_000 + loopFrames + 57_600, amplitude: 0.25)
        tone = LoopSignals.addingDC(to: LoopSignals.addingNoise(to: tone, amplitude: 0.01, seed: 32), offset: 0.02)
        let path = dir + "/long.wav"
        try AudioFileEncoder.write(
            tone, to: path,
            options: EncodeOptions(format: .wavf, loops: [LoopRegion(start: 24_000, end: Int64(24_000 + loopFrames))]))
        func render(streamed: Bool, seamFix: Bool = true) throws -> [Float] {
            var warnings: [String] = []
            let theme = try EngineAssetLoader.load(
                path: path, id: "long", kind: .soundscape, rate: .hz48000, loop: .file, gainDB: 0, seamFix: seamFix,
                streamAbove: streamed ? 0 : .infinity, warn: { warnings.append($0) })
            #expect(theme.isStreamed == streamed)
            #expect(warnings.count == (seamFix ? 1 : 0), "\(warnings)")
            let frames = loopFrames + 48_000
            let preview = PreviewSource(theme: theme, gain: 1, frames: FrameCount(frames))
            var out = [Float](repeating: 0, count: 2 * frames)
            for start in stride(from: 0, to: frames, by: 4_800) {
                preview.asset.stream?.fill()
                out.withUnsafeMutableBufferPointer {
                    preview.render(into: $0.baseAddress! + 2 * start, frames: min(4_800, frames - start))
                }
            }
            return out
        }
        let loaded = try render(streamed: false)
        let streamed = try render(streamed: true)
        let unfixed = try render(streamed: true, seamFix: false)
        #expect(streamed.count == loaded.count)
        // The same baked loop, wrap included, but for the mean removed: over 20 s of the tone instead of 30 s.
        let largest = zip(streamed, loaded).map { abs($0 - $1) }.max() ?? 1
        #expect(largest > 0 && largest < 1e-3, "largest difference \(largest)")
        // Unfixed, it plays the file's intro and its seam as they are: far from the bake.
        let apart = zip(unfixed, loaded).map { abs($0 - $1) }.max() ?? 0
        #expect(apart > 0.1, "the unfixed stream differs by at most \(apart)")
    }

    @Test func theOfflineRendererPullsStreamsItself() throws {
        let dir = ToolRunner.temporaryDirectory("streamed-offline")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.writeThemes(in: dir)
        func render(streamed: Bool) throws -> [Float] {
            let a = try Self.load(files.a, gainDB: 0, streamed: streamed)
            let b = try Self.load(files.b, gainDB: 2, streamed: streamed)
            let plan = SessionPlan(
                sitting: 6, strikes: 1, strikeSpacing: 0.5, breath: 1, fadeIn: 0.1, fadeOut: 0.3, repeatMode: .times(1))
            let timeline = try SessionTimeline(plan: plan, sampleRate: Self.rate, bellTail: Self.bell.decayFrames())
            let engine = try SessionEngine(
                plan: plan, timeline: timeline, assets: EngineAssets(bell: Self.bell, ambient: a))
            let renderer = OfflineRenderer(engine: engine, blockFrames: 777)
            renderer.scheduleTheme(b, atFrame: 2 * 44_100, crossfadeFrames: 10_000)
            renderer.scheduleTheme(a, atFrame: 4 * 44_100, crossfadeFrames: 30_000)
            var out: [Float] = []
            try renderer.run { block, _ in out += block }
            return out
        }
        let loaded = try render(streamed: false)
        let streamed = try render(streamed: true)
        #expect(loaded.count > 0 && streamed == loaded)
    }

    @Test func aStreamedPreviewPlaysAsTheLoadedOne() throws {
        let dir = ToolRunner.temporaryDirectory("streamed-preview")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.writeThemes(in: dir)
        func render(streamed: Bool) throws -> [Float] {
            let theme = try Self.load(files.a, gainDB: 0, streamed: streamed)
            let preview = PreviewSource(theme: theme, gain: 0.8, frames: 4 * 44_100)
            #expect(preview.asset.isStreamed == streamed && (preview.asset.stream != nil) == streamed)
            var out: [Float] = []
            var buffer = [Float](repeating: 0, count: 2 * 700)
            while out.count < 2 * 4 * 44_100 + 1400 {
                preview.asset.stream?.fill()
                buffer.withUnsafeMutableBufferPointer { preview.render(into: $0.baseAddress!, frames: 700) }
                out += buffer
            }
            return out
        }
        let loaded = try render(streamed: false)
        #expect(try render(streamed: true) == loaded)
    }

    @Test func onlyThemesOverTheLimitStreamAndAPlayHoldsOnlyItsRing() throws {
        let dir = ToolRunner.temporaryDirectory("streamed-limit")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.writeThemes(in: dir)
        // A is 2.8 s long: streamed over a 2 s limit, loaded under a 3 s one.
        #expect(
            try EngineAssetLoader.load(
                path: files.a, id: "a", kind: .soundscape, rate: Self.rate, loop: .file, gainDB: 0, streamAbove: 2
            ).isStreamed)
        #expect(
            try !EngineAssetLoader.load(
                path: files.a, id: "a", kind: .soundscape, rate: Self.rate, loop: .file, gainDB: 0, streamAbove: 3
            ).isStreamed)
        // `loops verify` judges from the seam window exactly the files the player streams and judges so.
        #expect(LoopVerifier.windowAboveSeconds == AmbientStreaming.loadLimitSeconds)
        let streamed = try Self.load(files.a, gainDB: 0, streamed: true)
        let play = streamed.opened()
        let ring = try #require(play.stream)
        #expect(play !== streamed && streamed.opened() !== play, "each play opens its own stream")
        #expect(ring.capacity == Int(Self.rate.frames(seconds: AmbientStreaming.ringSeconds)))
        #expect(play.residentBytes == 2 * ring.capacity * 4)
        // The prefill: what the first blocks need, decoded on the opening thread.
        #expect(ring.readable >= Int(Self.rate.frames(seconds: AmbientStreaming.prefillSeconds)))
    }

    @Test func aStreamedThemeWhoseFileVanishesFailsSilently() throws {
        let dir = ToolRunner.temporaryDirectory("streamed-gone")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.writeThemes(in: dir)
        let streamed = try Self.load(files.a, gainDB: 0, streamed: true)
        try FileManager.default.removeItem(atPath: files.a)
        let ring = try #require(streamed.opened().stream)
        #expect(ring.readable == 0)
        #expect(ring.failure?.message.contains("a.wav") == true)
    }

    @Test func surroundThemesAndBellsFoldToStereoAndStreamAsTheyLoad() throws {
        let dir = ToolRunner.temporaryDirectory("streamed-surround")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 5.1 noise, a different cycle per channel, looped whole.
        let six = LoopSignals.periodicNoise(period: 48_000, frames: 48_000, channels: 6, seed: 21)
        let path = dir + "/forest51.wav"
        try AudioFileEncoder.write(six, to: path, options: EncodeOptions(format: .wav24))
        let decoded = try AudioFileDecoder.decode(path: path).buffer
        // At the file's rate the fold is visible sample by sample: L + 0.707 C + 0.707 Ls (no LFE).
        let native = try EngineAssetLoader.load(
            path: path, id: "forest", kind: .soundscape, rate: .hz48000, loop: .file, gainDB: 0)
        #expect(native.channels == 2)
        for f in [0, 1_000, 33_333] {
            let l = decoded[0, f] + 0.707_106_77 * decoded[2, f] + 0.707_106_77 * decoded[4, f]
            let r = decoded[1, f] + 0.707_106_77 * decoded[2, f] + 0.707_106_77 * decoded[5, f]
            // Float sums in another order: 1e-6.
            #expect(abs(native.sample(channel: 0, frame: f) - l) < 1e-6)
            #expect(abs(native.sample(channel: 1, frame: f) - r) < 1e-6)
        }
        // Streamed at another rate, it plays as loaded.
        func preview(streamed: Bool) throws -> [Float] {
            let theme = try Self.load(path, gainDB: 0, streamed: streamed)
            let source = PreviewSource(theme: theme, gain: 0.5, frames: 2 * 44_100)
            var out = [Float](repeating: 0, count: 2 * 2 * 44_100)
            source.asset.stream?.fill()
            for start in stride(from: 0, to: 2 * 44_100, by: 1_000) {
                source.asset.stream?.fill()
                out.withUnsafeMutableBufferPointer {
                    source.render(into: $0.baseAddress! + 2 * start, frames: min(1_000, 2 * 44_100 - start))
                }
            }
            return out
        }
        #expect(try preview(streamed: true) == preview(streamed: false))
        // A 4-channel bell loads as stereo too (it was refused: "use a mono or stereo file").
        let quad = LoopSignals.periodicNoise(period: 4_800, frames: 4_800, channels: 4, seed: 22)
        try AudioFileEncoder.write(quad, to: dir + "/bell4.wav", options: EncodeOptions(format: .wav24))
        let bell = try EngineAssetLoader.load(
            path: dir + "/bell4.wav", id: "bell4", kind: .bell, rate: .hz48000, loop: .file, gainDB: 0)
        #expect(bell.channels == 2)
    }

    @Test func aLongThemesSummaryIsMeasuredInOnePassAsTheWholeOne() throws {
        let dir = ToolRunner.temporaryDirectory("streamed-summary")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.writeThemes(in: dir)
        let whole = try AssetSummary.measure(path: files.a, kind: .soundscape, loop: .file, gainDB: -2)
        let streamed = try AssetSummary.measure(
            path: files.a, kind: .soundscape, loop: .file, gainDB: -2, streamAbove: 0)
        #expect(streamed.durationSeconds == whole.durationSeconds && streamed.loopSeconds == whole.loopSeconds)
        #expect(whole.loopSeconds == 2)
        // The same BS.1770 hop energies and gating, fed in chunks rather than analysed whole: the same figure.
        let a = try #require(whole.loudnessLUFS)
        let b = try #require(streamed.loudnessLUFS)
        #expect(a == b, "whole \(a) LUFS, streamed \(b) LUFS")
    }
}
