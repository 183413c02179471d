import AssetPipeline
import AudioCore
import AudioDSP
import AudioEngine
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetLoading
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
            let asset = try EngineAssetLoader.load(
                path: path, id: "drone", kind: .soundscape, rate: rate, loop: .file, gainDB: 0)
            let scale = Double(rate.hertz) / 48_000
            #expect(asset.loop == LoopRegion(start: FramePosition(24_000 * scale), end: FramePosition(216_000 * scale)))
            let seam = SeamRules.judge(Self.loopOf(asset), loop: 0..<Int(asset.loop.length))
            #expect(seam.verdict == .pass, "\(rate.hertz) Hz: \(seam.reasons)")
        }
        // From a pack, the manifest decides: no loop there means the whole file, whatever the file embeds (as
        // `enso assets check` judges it).
        let packed = try EngineAssetLoader.load(
            path: path, id: "drone", kind: .soundscape, rate: .hz48000, loop: .manifest(nil), gainDB: 0)
        #expect(packed.loop == LoopRegion(start: 0, end: FramePosition(tone.frameCount)))
        // The same through the server's library.
        let library = AssetLibrary(directory: nil)
        let served = try library.load(path, kind: .soundscape, rate: SampleRate(checked: 44_100), field: "theme")
        #expect(SeamRules.judge(Self.loopOf(served), loop: 0..<Int(served.loop.length)).verdict == .pass)
        // A loop over the whole file, as the bundled pack's manifest gives its themes: nothing around it to filter
        // with, so only periodic resampling keeps the wrap (a plain conversion bent it: continuity ~9×, fail).
        let whole = tone.slice(frames: 0..<192_000)
        try AudioFileEncoder.write(whole, to: dir + "/whole.flac", options: EncodeOptions(format: .flac24))
        let whole44 = try EngineAssetLoader.load(
            path: dir + "/whole.flac", id: "whole", kind: .soundscape, rate: SampleRate(checked: 44_100),
            loop: .manifest(nil), gainDB: 0)
        #expect(whole44.loop == LoopRegion(start: 0, end: 176_400) && whole44.frameCount == 176_400)
        let seam = SeamRules.judge(Self.loopOf(whole44), loop: 0..<Int(whole44.loop.length))
        #expect(seam.verdict == .pass, "\(seam.reasons)")
    }

    /// Whether any of the verifier's cheap metrics (the ones the loader judges by) fails for the asset's loop as the
    /// engine plays it.
    static func seamFails(
        _ asset: LoadedAsset, judgedBy cheap: Set<SeamMetrics.Name> = [.continuity, .click, .dcOffset, .rhythm, .dip]
    ) -> Bool {
        return SeamRules.judge(loopOf(asset), loop: 0..<Int(asset.loop.length)).metrics.contains {
            cheap.contains($0.name) && $0.status == .fail
        }
    }

    /// 2 s of brown noise, as a user's field recording cut anywhere: the whole-file loop jumps at every wrap.
    static func writeFailingDrone(in dir: String) throws -> String {
        let path = dir + "/hum.wav"
        try AudioFileEncoder.write(
            LoopSignals.brownNoise(frames: 96_000, amplitude: 0.3, seed: 5), to: path,
            options: EncodeOptions(format: .wav24))
        return path
    }

    /// A user's loop that fails verification played with a click at every wrap, silently: now its seam is
    /// crossfaded in memory as `loops bake` would, with one warning naming the file and the reason.
    @Test func aFailingSeamIsCrossfadedAtLoadWithOneWarning() throws {
        let dir = ToolRunner.temporaryDirectory("asset-seam-fix")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.writeFailingDrone(in: dir)
        var warnings: [String] = []
        let raw = try EngineAssetLoader.load(
            path: path, id: "hum", kind: .soundscape, rate: .hz48000, loop: .file, gainDB: 0, seamFix: false,
            warn: { warnings.append($0) })
        #expect(warnings.isEmpty)
        #expect(Self.seamFails(raw))
        for rate in [SampleRate.hz48000, SampleRate(checked: 44_100)] {
            warnings = []
            let fixed = try EngineAssetLoader.load(
                path: path, id: "hum", kind: .soundscape, rate: rate, loop: .file, gainDB: 0,
                warn: { warnings.append($0) })
            #expect(warnings.count == 1)
            #expect(warnings.first?.hasPrefix(path + ": the loop's seam is not seamless (") == true, "\(warnings)")
            #expect(
                warnings.first?.contains("crossfade at the seam") == true
                    && warnings.first?.contains("--no-seam-fix") == true)
            // What a crossfade mends: the wrap's jump, its click, a dip (the periodicity judgement of noise is the
            // verifier's calibration, not the seam's continuity).
            #expect(
                !Self.seamFails(fixed, judgedBy: [.continuity, .click, .dip]),
                "\(rate.hertz) Hz: \(SeamRules.passes(Self.loopOf(fixed), loop: 0..<Int(fixed.loop.length)).reasons)")
            // The wrap as the engine plays it: the loop's last frame into its first, no larger than the drone's own steps.
            let l = Int(fixed.loop.start)
            let e = Int(fixed.loop.end)
            let wrap = abs(fixed.sample(channel: 0, frame: l) - fixed.sample(channel: 0, frame: e - 1))
            let own = (l + 1..<e).map {
                abs(fixed.sample(channel: 0, frame: $0) - fixed.sample(channel: 0, frame: $0 - 1))
            }.max()!
            #expect(wrap <= own * 1.05, "wrap step \(wrap), largest elsewhere \(own)")
        }
        // The server's library: the warning (with the field) at every use, cached or not; seamFix false apart.
        let library = AssetLibrary(directory: nil)
        var served: [String] = []
        for _ in 0..<2 {
            _ = try library.load(path, kind: .soundscape, rate: .hz48000, field: "ambient", warn: { served.append($0) })
        }
        #expect(served.count == 2 && served.allSatisfy { $0.hasPrefix("ambient: " + path + ": the loop's seam") })
        var none: [String] = []
        let asIs = try library.load(
            path, kind: .soundscape, rate: .hz48000, field: "ambient", seamFix: false, warn: { none.append($0) })
        #expect(none.isEmpty && Self.seamFails(asIs))
    }

    /// A streamed theme's bake is made while its seam is judged (``EngineAssetLoader/fixedSeam``'s
    /// `bakingWhileJudging`) and kept only when the seam fails: the same warning and the same baked frames, bit for
    /// bit, as a bake made after the verdict; a seam that passes is still untouched.
    @Test func theBakeMadeWhileJudgingIsTheOneMadeAfterTheVerdict() throws {
        let dir = ToolRunner.temporaryDirectory("asset-seam-ahead")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let failing = try AudioFileDecoder.decode(path: try Self.writeFailingDrone(in: dir))
        let loop = try EngineAssetLoader.loopRegion(.file, of: failing, path: "hum")
        let after = try #require(EngineAssetLoader.fixedSeam(failing.buffer, region: loop, path: "hum"))
        let ahead = try #require(
            EngineAssetLoader.fixedSeam(failing.buffer, region: loop, path: "hum", bakingWhileJudging: true))
        #expect(ahead.warning == after.warning)
        let a = try #require(ahead.baked)
        let b = try #require(after.baked)
        #expect(a.buffer == b.buffer && a.loop == b.loop && a.source == b.source && a.crossfade == b.crossfade)
        #expect(a.placement == b.placement && a.dcRemoved == b.dcRemoved)
        let passing = LoopSignals.tones(frequencies: [250, 1_000], frames: 96_000, amplitude: 0.3)
        let whole = LoopRegion(start: 0, end: 96_000)
        #expect(EngineAssetLoader.fixedSeam(passing, region: whole, path: "d", bakingWhileJudging: true) == nil)
    }

    /// A theme that passes (every bundled one) is untouched: the same samples with or without the seam fix.
    @Test func aPassingThemeIsBitIdenticalWithTheSeamFix() throws {
        let dir = ToolRunner.temporaryDirectory("asset-seam-pass")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/drone.flac"
        try AudioFileEncoder.write(
            LoopSignals.tones(frequencies: [250, 1_000], frames: 96_000, amplitude: 0.3), to: path,
            options: EncodeOptions(format: .flac24))
        var warnings: [String] = []
        let fixed = try EngineAssetLoader.load(
            path: path, id: "d", kind: .soundscape, rate: .hz48000, loop: .manifest(nil), gainDB: 0,
            warn: { warnings.append($0) })
        let asIs = try EngineAssetLoader.load(
            path: path, id: "d", kind: .soundscape, rate: .hz48000, loop: .manifest(nil), gainDB: 0, seamFix: false)
        #expect(warnings.isEmpty)
        #expect(fixed.loop == asIs.loop && fixed.frameCount == asIs.frameCount)
        #expect(
            (0..<fixed.frameCount).allSatisfy {
                fixed.sample(channel: 0, frame: $0) == asIs.sample(channel: 0, frame: $0)
            })
    }

    /// Every bundled theme passes verification, so the seam fix leaves it bit-identical (the demo's renders with it).
    @Test func theBundledThemesAreUntouched() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Assets").path
        let pack = try AssetPack.load(directory: root)
        let themes = pack.entries(kind: .soundscape)
        #expect(themes.count >= 4)
        for entry in themes {
            var warnings: [String] = []
            let fixed = try EngineAssetLoader.load(
                path: pack.path(of: entry), id: entry.id, kind: .soundscape, rate: .hz48000,
                loop: .manifest(entry.loop),
                gainDB: entry.gainDB, warn: { warnings.append($0) })
            let asIs = try EngineAssetLoader.load(
                path: pack.path(of: entry), id: entry.id, kind: .soundscape, rate: .hz48000,
                loop: .manifest(entry.loop),
                gainDB: entry.gainDB, seamFix: false)
            #expect(warnings.isEmpty, "\(entry.id): \(warnings)")
            #expect(fixed.loop == asIs.loop && fixed.frameCount == asIs.frameCount, "\(entry.id)")
            let same = (0..<fixed.channels).allSatisfy { c in
                (0..<fixed.frameCount).allSatisfy {
                    fixed.sample(channel: c, frame: $0) == asIs.sample(channel: c, frame: $0)
                }
            }
            #expect(same, "\(entry.id)")
        }
    }

    /// The protocol: a `warnings` entry in the `start` reply; `"seamFix": false` plays the file as it is.
    @Test func theStartReplyCarriesTheWarningAndSeamFixFalseSilencesIt() throws {
        let assets = ServerFixtures.assets()
        defer { try? FileManager.default.removeItem(atPath: assets) }
        let hum = try Self.writeFailingDrone(in: assets)
        let server = try ServerProcess(["--stdio", "--output", "null", "--journal", assets + "/j.jsonl"])
        let start =
            #"{"id":ID,"command":"start","sitting":60,"bell":"\#(assets)/bell.wav","strikes":1,"ambient":"\#(hum)"SEAM}"#
        server.send(start.replacingOccurrences(of: "ID", with: "1").replacingOccurrences(of: "SEAM", with: ""))
        let reply = try #require(server.lines.reply(1))
        #expect(reply["ok"] == true)
        guard case .array(let w)? = reply["data"]?["warnings"], case .string(let text)? = w.first else {
            Issue.record("no warnings in \(reply)")
            return
        }
        #expect(w.count == 1 && text.hasPrefix("ambient: \(hum): the loop's seam is not seamless"), "\(text)")
        server.send(#"{"id":2,"command":"stop","bell":false}"#)
        #expect(server.lines.reply(2)?["ok"] == true)
        #expect(server.lines.event("session.ended") != nil)
        server.send(
            start.replacingOccurrences(of: "ID", with: "3").replacingOccurrences(of: "SEAM", with: #","seamFix":false"#)
        )
        let plain = try #require(server.lines.reply(3))
        #expect(plain["ok"] == true && plain["data"]?["warnings"] == nil, "\(plain)")
        server.closeInput()
        _ = server.wait()
    }

    @Test func referencesAreFilesOrIdsTheSameEverywhere() {
        #expect(!EngineAssetLoader.isFile("rain"))
        #expect(
            EngineAssetLoader.isFile("rain.ogg") && EngineAssetLoader.isFile("bell.AIFF")
                && EngineAssetLoader.isFile("./rain"))
        #expect(EngineAssetLoader.isFile("loops/rain"))
    }

    @Test func unusableFilesAreNamed() throws {
        let dir = ToolRunner.temporaryDirectory("asset-loader-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AudioFileEncoder.write(
            LoopSignals.tones(frequencies: [440], frames: 4_800, channels: 6), to: dir + "/six.wav",
            options: EncodeOptions(format: .wav16))
        // A float file with a NaN (a broken export): there, but unusable.
        var broken = LoopSignals.tones(frequencies: [440], frames: 4_800, channels: 1)
        broken.samples[100] = .nan
        try AudioFileEncoder.write(broken, to: dir + "/nan.wav", options: EncodeOptions(format: .wavf))
        #expect(throws: EnsoError.self) {
            try EngineAssetLoader.load(
                path: dir + "/nan.wav", id: "nan", kind: .bell, rate: .hz48000, loop: .file, gainDB: 0)
        }
        // The kind survives the loader: a file that is there but unusable is not "unavailable".
        do {
            _ = try EngineAssetLoader.load(
                path: dir + "/nan.wav", id: "nan", kind: .bell, rate: .hz48000, loop: .file, gainDB: 0)
        } catch {
            #expect(error.kind == .invalidInput)
        }
        do {
            _ = try EngineAssetLoader.load(
                path: dir + "/none.wav", id: "none", kind: .bell, rate: .hz48000, loop: .file, gainDB: 0)
        } catch {
            #expect(error.kind == .unavailable && error.detail == .notFound, "\(error.message)")
        }
        // Six channels are folded to stereo now (they were refused); a manifest loop past the end still is.
        #expect(
            try EngineAssetLoader.load(
                path: dir + "/six.wav", id: "six", kind: .bell, rate: .hz48000, loop: .file, gainDB: 0
            ).channels == 2)
        do {
            _ = try EngineAssetLoader.load(
                path: dir + "/six.wav", id: "six", kind: .soundscape, rate: .hz48000,
                loop: .manifest(LoopRegion(start: 0, end: 9_999)), gainDB: 0)
            Issue.record("a loop past the end was accepted")
        } catch {
            #expect(error.message == "\(dir)/six.wav: loop 0..<9999 does not fit in 4800 frames")
        }
    }
}
