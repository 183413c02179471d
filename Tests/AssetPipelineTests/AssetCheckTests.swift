import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

@Suite("AssetCheck")
struct AssetCheckTests {
    @Test func tinyPackPasses() throws {
        let dir = ToolRunner.temporaryDirectory("asset-check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TinyPack.make(in: dir)
        let report = AssetCheck.run(directory: dir)
        let problems = report.assets.flatMap { a in
            a.findings.filter { $0.status != .pass }.map { "\(a.id): \($0.message)" }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(report.verdict == .pass)
        #expect(report.exitCode(strict: true) == 0)
        #expect(report.assets.map(\.id) == ["bowl", "noise"])
        let checks = Set(report.assets.flatMap { $0.findings.map(\.check) })
        #expect(
            checks.isSuperset(of: [
                "file", "loudness", "manifest-loudness", "loop", "bell-decay", "bell-tail", "bell-samples",
                "bell-audition", "bell-defects",
            ]))
    }

    @Test func missingFileIsAnErrorNamingTheFile() throws {
        let dir = ToolRunner.temporaryDirectory("asset-check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TinyPack.make(in: dir)
        try FileManager.default.removeItem(atPath: dir + "/noise.flac")
        let report = AssetCheck.run(directory: dir)
        #expect(report.verdict == .error)
        #expect(report.exitCode(strict: false) == 2)
        let noise = try #require(report.assets.first { $0.id == "noise" })
        #expect(noise.findings.first?.check == "file")
        #expect(noise.findings.first?.message.contains("noise.flac") == true)
        // The other asset is still checked.
        #expect(report.assets.first { $0.id == "bowl" }?.verdict == .pass)
    }

    @Test func loudnessOffTargetFails() throws {
        let dir = ToolRunner.temporaryDirectory("asset-check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var pack = try TinyPack.make(in: dir)
        // The file is at -22 LUFS; a -26 target puts it 4 LU off, beyond the ±1 LU tolerance.
        pack.entries[0].loudness.target = -26
        try pack.writeManifest()
        let report = AssetCheck.run(directory: dir)
        #expect(report.verdict == .fail)
        #expect(report.exitCode(strict: false) == 1)
        let bowl = try #require(report.assets.first { $0.id == "bowl" })
        let finding = try #require(bowl.findings.first { $0.check == "loudness" })
        #expect(finding.status == .fail)
        #expect(finding.message.contains("bells/bowl.flac"))
        #expect(finding.message.contains("target -26.0"))
    }

    @Test func manifestLoudnessThatDisagreesWithTheFileFails() throws {
        let dir = ToolRunner.temporaryDirectory("asset-check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var pack = try TinyPack.make(in: dir)
        pack.entries[1].loudness.integrated -= 0.5
        try pack.writeManifest()
        let noise = try #require(AssetCheck.run(directory: dir).assets.first { $0.id == "noise" })
        let finding = try #require(noise.findings.first { $0.check == "manifest-loudness" })
        #expect(finding.status == .fail)
        #expect(finding.message.contains("assets[noise].loudness.integrated"))
    }

    @Test func loopOutsideTheFileFailsAndACutLoopFailsTheSeam() throws {
        let dir = ToolRunner.temporaryDirectory("asset-check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var pack = try TinyPack.make(in: dir)
        pack.entries[1].loop = LoopRegion(start: 0, end: FramePosition(10 * TinyPack.rate))
        try pack.writeManifest()
        let outside = try #require(AssetCheck.run(directory: dir).assets.first { $0.id == "noise" })
        #expect(outside.verdict == .fail)
        #expect(outside.findings.first?.message.contains("does not fit") == true)
        // A loop that ends mid-period of the noise joins two unrelated waveforms: the seam must fail.
        pack.entries[1].loop = LoopRegion(start: 0, end: FramePosition(2 * TinyPack.rate + 123))
        try pack.writeManifest()
        let cut = try #require(AssetCheck.run(directory: dir).assets.first { $0.id == "noise" })
        #expect(cut.findings.first { $0.check == "loop" }?.status == .fail)
    }

    /// A soundscape whose channels cancel in the mono mix, or whose one channel is dead, fails `soundscape-channels`
    /// with the `enso convert` that mends it (#43 §4); mended so, it passes.
    @Test func channelProblemsOfASoundscapeFailNamingTheFix() throws {
        let dir = ToolRunner.temporaryDirectory("asset-check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TinyPack.make(in: dir)
        let file = dir + "/noise.flac"
        let original = try AudioFileDecoder.decode(path: file).buffer
        func check(_ b: AudioBuffer) throws -> AssetCheck.Finding? {
            try AudioFileEncoder.write(b, to: file, options: EncodeOptions(format: .flac))
            let noise = try #require(AssetCheck.run(directory: dir).assets.first { $0.id == "noise" })
            return noise.findings.first { $0.check == "soundscape-channels" }
        }
        #expect(try check(original)?.status == .pass)
        let inverted = ChannelMapper.invertChannel(original, 1)
        let phase = try #require(try check(inverted))
        #expect(phase.status == .fail && phase.message.hasSuffix("mend it: enso convert IN OUT --invert-channel 2"))
        #expect(try check(ChannelMapper.invertChannel(inverted, 1))?.status == .pass)
        var dead = original
        dead.withMutableChannel(0) { p in for i in p.indices { p[i] = 0 } }
        let silent = try #require(try check(dead))
        #expect(
            silent.message.contains(
                "the left channel is digitally silent; mend it: enso convert IN OUT --use-channel 2"))
        #expect(try check(ChannelMapper.useChannel(dead, 1))?.status == .pass)
    }

    @Test func aShortBellFailsTheDecayCheck() throws {
        let dir = ToolRunner.temporaryDirectory("asset-check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TinyPack.make(in: dir)
        // A notification-like blip: T60 of 0.6 s falls 20 dB in 0.2 s.
        let blip = SignalGenerator.bell(partials: [(880, 0.5, 0.6)], seconds: 2, sampleRate: TinyPack.rate)
        let buffer = try TinyPack.normalized(
            SignalGenerator.buffer(blip, channels: 2, sampleRate: TinyPack.rate), to: -22)
        try AudioFileEncoder.write(buffer, to: dir + "/bells/bowl.flac", options: EncodeOptions(format: .flac))
        let bowl = try #require(AssetCheck.run(directory: dir).assets.first { $0.id == "bowl" })
        let decay = try #require(bowl.findings.first { $0.check == "bell-decay" })
        #expect(decay.status == .fail)
        #expect(decay.message.contains("strike spacing"))
        // The audition agrees: a fast-decaying single partial is a notification, not a bell.
        #expect(bowl.findings.first { $0.check == "bell-audition" }?.status == .fail)
    }

    @Test func unreadableManifestIsAnError() {
        let dir = ToolRunner.temporaryDirectory("asset-check")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(writeTestFile(dir + "/manifest.json", Data("[]".utf8)))
        let report = AssetCheck.run(directory: dir)
        #expect(report.verdict == .error)
        #expect(report.manifestError?.contains("manifest.json") == true)
    }
}
