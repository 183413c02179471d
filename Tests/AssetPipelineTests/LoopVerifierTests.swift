import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

@Suite struct LoopVerifierTests {
    static let period = 12_000

    @Test func directoriesAreSearchedRecursivelyAndErrorsDoNotStopTheBatch() throws {
        let dir = ToolRunner.temporaryDirectory("loop-verifier")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/a/b", withIntermediateDirectories: true)
        let good = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 6, seed: 1)
        try AudioFileEncoder.write(good, to: dir + "/a/b/deep.wav", options: EncodeOptions(format: .wav16))
        try AudioFileEncoder.write(good, to: dir + "/top.flac", options: EncodeOptions(format: .flac))
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: dir + "/a/junk.wav"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/readme.txt"))
        let (files, missing) = LoopVerifier.expand([dir, dir + "/nope.wav"])
        #expect(files == [dir + "/a/b/deep.wav", dir + "/a/junk.wav", dir + "/top.flac"])
        #expect(missing.count == 1 && missing[0].verdict == .error && missing[0].errorKind == "not-found")
        let results = LoopVerifier.verify(paths: files)
        #expect(results.map(\.verdict) == [.pass, .error, .pass])
        #expect(results[1].reasons.first?.hasPrefix(dir + "/a/junk.wav") == true)
        #expect(results[1].json.error?.code == results[1].errorKind && results[1].json.error?.file == results[1].file)
    }

    /// A damaged stream (a FLAC cut short) is judged as far as it decodes and fails with that reason; the same loop
    /// whole passes (the decoder used to refuse it, so the batch saw only an error).
    @Test func aDamagedStreamFailsWithThatReason() throws {
        let dir = ToolRunner.temporaryDirectory("loop-damaged")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 8, seed: 3)
        try AudioFileEncoder.write(good, to: dir + "/whole.flac", options: EncodeOptions(format: .flac))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.flac"))
        try bytes.prefix(bytes.count * 3 / 4).write(to: URL(fileURLWithPath: dir + "/cut.flac"))
        let whole = LoopVerifier.verify(path: dir + "/whole.flac")
        #expect(whole.verdict == .pass && !whole.truncated && whole.json.truncated == false)
        let cut = LoopVerifier.verify(path: dir + "/cut.flac")
        #expect(cut.verdict == .fail && cut.truncated && cut.json.truncated, "\(cut.verdict) \(cut.reasons)")
        #expect(cut.reasons.first?.hasPrefix("damaged stream: the file ends early") == true, "\(cut.reasons)")
        #expect(!cut.metrics.isEmpty, "what decoded is still measured")
    }

    /// A float file holding a NaN or an infinity (a broken export) cannot be measured: it is an error naming the
    /// sample, for verify, find and bake alike (verify passed a NaN as "seamless" and called an infinity a click
    /// "inf dB" loud; find crashed on a one-frame file).
    @Test func nonFiniteSamplesAndOneFrameLoopsAreErrors() throws {
        let dir = ToolRunner.temporaryDirectory("loop-nonfinite")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var b = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 6, seed: 3)
        b[1, 1_000] = .nan
        try AudioFileEncoder.write(b, to: dir + "/nan.wav", options: EncodeOptions(format: .wavf))
        b[1, 1_000] = 0
        b[0, 5] = -.infinity
        try AudioFileEncoder.write(b, to: dir + "/inf.wav", options: EncodeOptions(format: .wavf))
        try AudioFileEncoder.write(
            AudioBuffer(channelData: [[0.5]], sampleRate: .hz48000), to: dir + "/one.wav",
            options: EncodeOptions(format: .wavf))
        let results = LoopVerifier.verify(paths: ["nan", "inf", "one"].map { dir + "/\($0).wav" })
        #expect(results.map(\.verdict) == [.error, .error, .error])
        #expect(results.map(\.errorKind) == ["invalid-input", "invalid-input", "invalid-input"])
        #expect(
            results[0].reasons == [
                "\(dir)/nan.wav: a NaN sample in channel 2 at frame 1000: the file cannot be measured or played"
            ])
        #expect(
            results[1].reasons == [
                "\(dir)/inf.wav: an infinite sample in channel 1 at frame 5: the file cannot be measured or played"
            ])
        #expect(
            results[2].reasons == [
                "\(dir)/one.wav: the file holds 1 frame, too short to loop as a whole (a loop holds at least 2 frames)"
            ])
        #expect(throws: EnsoError.self) {
            try LoopFinder.find(AudioBuffer(channelData: [[0.5]], sampleRate: .hz48000))
        }
    }

    @Test func embeddedLoopThenSidecarThenWholeFile() throws {
        let dir = ToolRunner.temporaryDirectory("loop-region")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 6 periods plus a tail that would break the whole-file loop.
        let b = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 6 + 5_000, seed: 2)
        let loop = LoopRegion(start: 1_000, end: FramePosition(1_000 + Self.period * 5))
        try AudioFileEncoder.write(b, to: dir + "/embedded.wav", options: EncodeOptions(format: .wavf, loops: [loop]))
        let e = LoopVerifier.verify(path: dir + "/embedded.wav")
        #expect(e.source == .embedded && e.loop == loop && e.verdict == .pass)
        try AudioFileEncoder.write(b, to: dir + "/plain.flac", options: EncodeOptions(format: .flac))
        let whole = LoopVerifier.verify(path: dir + "/plain.flac")
        #expect(whole.source == .wholeFile && whole.verdict == .fail)
        try LoopSidecar(file: "plain.flac", sampleRate: 48_000, frames: FrameCount(b.frameCount), loop: loop).write(
            for: dir + "/plain.flac")
        let side = LoopVerifier.verify(path: dir + "/plain.flac")
        #expect(side.source == .sidecar && side.loop == loop && side.verdict == .pass)
        // A stale sidecar (wrong length) is an error naming the sidecar, not a silent fallback.
        try LoopSidecar(file: "plain.flac", sampleRate: 48_000, frames: 99, loop: LoopRegion(start: 0, end: 50)).write(
            for: dir + "/plain.flac")
        let stale = LoopVerifier.verify(path: dir + "/plain.flac")
        #expect(stale.verdict == .error)
        #expect(stale.reasons.first?.contains("plain.flac.loop.json: stale") == true, "\(stale.reasons)")
    }

    @Test func sidecarRoundTripsAndRejectsGarbage() throws {
        let dir = ToolRunner.temporaryDirectory("loop-sidecar")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = LoopSidecar(file: "x.ogg", sampleRate: 44_100, frames: 1_000, loop: LoopRegion(start: 10, end: 990))
        try s.write(for: dir + "/x.ogg")
        #expect(try LoopSidecar.read(for: dir + "/x.ogg", sampleRate: 44_100, frames: 1_000) == s)
        #expect(try LoopSidecar.read(for: dir + "/y.ogg", sampleRate: 44_100, frames: 1_000) == nil)
        try Data("{\"version\": 1}".utf8).write(to: URL(fileURLWithPath: dir + "/z.ogg.loop.json"))
        #expect {
            try LoopSidecar.read(for: dir + "/z.ogg", sampleRate: 44_100, frames: 1_000)
        } throws: { ($0 as? EnsoError)?.message.contains("file: missing") == true }
        // No temporary files are left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["x.ogg.loop.json", "z.ogg.loop.json"])
    }
}
