import AudioCore
import AudioDSP
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// A long soundscape checked and added in chunks (``AssetCheck/analyseStreaming(_:path:info:strict:)``,
/// ``AssetPack/stageStreaming(_:info:in:strict:)``): read in chunks it gives the figures and findings a whole decode
/// gives, and `assets check` and `assets add` take the chunked path for a file over ``AssetCheck/streamAboveSeconds``
/// (before, a stereo 48 kHz file over 23 min 18 s was refused "too long to load whole").
@Suite struct LongSoundscapeTests {
    /// A seamless noise bed of `seconds` at `rate`, stereo, written as 16-bit FLAC at `path`.
    static func bed(_ path: String, seconds: Double, rate: Int = 48_000, seed: UInt64 = 3) throws {
        let n = Int(seconds * Double(rate))
        let b = LoopSignals.periodicNoise(period: n, frames: n, sampleRate: rate, amplitude: 0.05, seed: seed)
        try AudioFileEncoder.write(b, to: path, options: EncodeOptions(format: .flac))
    }

    static func entry(_ file: String, id: String = "bed") -> AssetPack.Entry {
        AssetPack.Entry(
            id: id, displayName: "Bed", kind: .soundscape, file: file, loop: nil,
            loudness: AssetPack.Loudness(integrated: -30, target: -30), licence: "CC0-1.0", command: "")
    }

    /// Read in chunks, a 12 s bed (its loop whole in the window) gives the whole decode's loudness, seam figures,
    /// channel figures and findings.
    @Test func chunksGiveTheWholeDecodesFindings() throws {
        let dir = ToolRunner.temporaryDirectory("long-soundscape")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/bed.flac"
        try Self.bed(path, seconds: 12)
        let decoded = try AudioFileDecoder.decode(path: path)
        let whole = AssetCheck.analyse(Self.entry("bed.flac"), decoded: decoded, path: path)
        let chunks = AssetCheck.analyseStreaming(Self.entry("bed.flac"), path: path, info: decoded.info, strict: false)
        // The same findings and words; values within rounding (the whole scan adds in Float lanes, the chunks in
        // Double).
        #expect(chunks.result.findings.map(\.check) == whole.result.findings.map(\.check))
        for (c, w) in zip(chunks.result.findings, whole.result.findings) {
            #expect(c.status == w.status && c.message == w.message, "\(c) against \(w)")
            #expect(abs((c.value ?? 0) - (w.value ?? 0)) <= 1e-6 * max(1, abs(w.value ?? 0)), "\(c) against \(w)")
        }
        #expect(chunks.result.loudness == whole.result.loudness)
        #expect(chunks.soundLoop == LoopRegion(start: 0, end: FramePosition(decoded.buffer.frameCount)))
        let a = try #require(AssetCheck.measure(Self.entry("bed.flac"), decoded: decoded, path: path).0.scan)
        var b = SignalDefectScan(decoded.buffer)
        let pass = try AssetCheck.pass(path: path)
        pass.channels.apply(to: &b)
        #expect(abs((a.channelCorrelation ?? 9) - (b.channelCorrelation ?? 0)) < 1e-6)
        #expect(abs(a.channelBalance - b.channelBalance) < 1e-6 && a.quietestChannel == b.quietestChannel)
        #expect(abs(a.dcOffset - b.dcOffset) < 1e-9 && a.peak == b.peak)
    }

    /// Over ``AssetCheck/streamAboveSeconds`` (a 130 s bed at 8 kHz, small to write), `assets add` stores the bed
    /// through the chunked path at the target, its manifest entry and findings as the whole path gives them, and
    /// `assets check` passes it, its seam judged from the window.
    @Test func aLongBedIsAddedAndCheckedInChunks() throws {
        let dir = ToolRunner.temporaryDirectory("long-soundscape")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/long bed.flac"
        try Self.bed(path, seconds: 130, rate: 8_000)
        #expect(AssetCheck.streams(.soundscape, try AudioFileDecoder.info(path: path)))
        let addition = AssetPack.Addition(
            source: path, kind: .soundscape, id: "long-bed", displayName: "Long Bed", licence: "CC0-1.0")
        let results = try AssetPack.add([addition], to: dir + "/pack")
        #expect(results.map(\.status) == [.added], "\(results.map(\.messages))")
        let pack = try AssetPack.load(directory: dir + "/pack")
        let e = try #require(pack.entry(id: "long-bed"))
        #expect(abs(e.loudness.integrated + 30) <= 0.05, "\(e.loudness)")
        #expect(e.loop == nil && e.command.contains("gain ") && e.command.hasSuffix("flac 24-bit"), "\(e.command)")
        let stored = try AudioFileDecoder.info(path: dir + "/pack/" + e.file)
        #expect(stored.subtype == "PCM_24" && stored.frames == 130 * 8_000)
        let report = AssetCheck.run(directory: dir + "/pack")
        #expect(report.verdict == .pass, "\(report.assets.flatMap(\.findings).filter { $0.status != .pass })")
        let seam = report.assets[0].findings.first { $0.check == "loop" }
        #expect(seam?.message.contains("judged from the 20 s around the seam") == true, "\(seam?.message ?? "")")
    }
}
