import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// A long file's seam is judged from the window around it (``SeamWindow``), read once with memory bounded by the
/// window: for a loop the window holds whole, every figure equals the whole decode's; for a longer one, the
/// window is the loop's head and tail, and the verdict of a clear seam is the whole file's.
@Suite struct SeamWindowTests {
    /// Three loops: seamless periodic noise with an intro and a tail (embedded loop), a tone whose loop ends half a
    /// cycle out of phase (fails), and 5.1 noise looped whole through a sidecar-free file.
    static func writeFiles(in dir: String, loopSeconds: Double) throws -> [String] {
        let loopFrames = Int(loopSeconds * 48_000)
        let noise = LoopSignals.periodicNoise(period: loopFrames, frames: 24_000 + loopFrames + 30_000, seed: 41)
        try AudioFileEncoder.write(
            noise, to: dir + "/noise.wav",
            options: EncodeOptions(
                format: .wav24, loops: [LoopRegion(start: 24_000, end: Int64(24_000 + loopFrames))]))
        let hz = LoopSignals.wholeCycleFrequency(near: 330, frames: loopFrames, sampleRate: 48_000, extraCycle: 0.5)
        let tone = LoopSignals.addingNoise(
            to: LoopSignals.tones(frequencies: [hz], frames: loopFrames), amplitude: 0.01, seed: 42)
        try AudioFileEncoder.write(tone, to: dir + "/tone.flac", options: EncodeOptions(format: .flac24))
        let six = LoopSignals.periodicNoise(period: loopFrames / 4, frames: loopFrames, channels: 6, seed: 43)
        try AudioFileEncoder.write(six, to: dir + "/six.wav", options: EncodeOptions(format: .wavf))
        return ["noise.wav", "tone.flac", "six.wav"].map { dir + "/" + $0 }
    }

    @Test func aWindowHoldingTheWholeLoopJudgesAsTheWholeDecode() throws {
        let dir = ToolRunner.temporaryDirectory("seam-window-whole")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for path in try Self.writeFiles(in: dir, loopSeconds: 6) {
            let whole = LoopVerifier.verify(path: path)
            let windowed = LoopVerifier.verifyWindow(path: path)
            #expect(whole.verdict != .error, "\(whole.reasons)")
            #expect(windowed.verdict == whole.verdict, "\(path)")
            #expect(windowed.metrics == whole.metrics, "\(path): every figure as the whole decode's")
            #expect(windowed.reasons == whole.reasons)
            #expect(windowed.loop == whole.loop && windowed.source == whole.source)
            #expect(windowed.sampleRate == whole.sampleRate)
        }
        let verdicts = try Self.writeFiles(in: dir, loopSeconds: 6).map { LoopVerifier.verifyWindow(path: $0).verdict }
        #expect(verdicts[0] == .pass && verdicts[1] == .fail, "\(verdicts)")
        // `--loop` is read from the header alone, as the whole decode reads it.
        let option = try #require(LoopVerifier.LoopOption(parsing: "0.5s:4.5s"))
        let path = dir + "/noise.wav"
        let a = LoopVerifier.verify(path: path, loopOption: option)
        let b = LoopVerifier.verifyWindow(path: path, loopOption: option)
        #expect(a.metrics == b.metrics && a.loop == b.loop && b.source == .option)
    }

    @Test func aLongLoopIsReadAsItsHeadAndTailOnly() throws {
        let dir = ToolRunner.temporaryDirectory("seam-window-split")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.writeFiles(in: dir, loopSeconds: 20)
        let path = files[0]
        let loop = LoopRegion(start: 24_000, end: 24_000 + 20 * 48_000)
        let window = try SeamWindow.read(path: path, loop: loop, sideSeconds: 3, foldingToStereo: false)
        #expect(!window.holdsWholeLoop)
        // The loop's first 3 s and its last 3 s (to 50 ms more, where the tail continues the head best), 0.5 s of
        // intro before (all there is) and 0.625 s after (all there is).
        let shift = 288_000 + 2_400 - Int(window.loop.length)
        #expect((0..<2_400).contains(shift))
        #expect(window.loop == LoopRegion(start: 24_000, end: Int64(24_000 + 288_000 + 2_400 - shift)))
        #expect(window.buffer.frameCount == Int(window.loop.end) + 30_000)
        #expect(window.framesLeftOut == 20 * 48_000 - window.loop.length)
        let decoded = try AudioFileDecoder.decode(path: path).buffer
        let tailStart = 984_000 - 144_000 - 2_400 + shift
        let last = window.buffer.frameCount - 1
        let pairs = [(0, 0), (24_000, 24_000), (167_999, 167_999), (168_000, tailStart), (last, 1_013_999)]
        for (w, f) in pairs {
            #expect(window.buffer[1, w] == decoded[1, f], "window frame \(w) is file frame \(f)")
        }
        // Judged from 6 s of a 20 s loop, the clear seams keep their verdicts (the tone's head and tail meet in
        // phase: cut anywhere, they would meet in a phase jump as its seam does, and excuse it).
        let verdicts = files.map { LoopVerifier.verifyWindow(path: $0, sideSeconds: 3) }
        #expect(
            verdicts.map(\.verdict) == files.map { LoopVerifier.verify(path: $0).verdict },
            "\(verdicts.map(\.reasons))")
        #expect(verdicts[0].verdict == .pass && verdicts[1].verdict == .fail)
        #expect(verdicts[1].reasons.last?.contains("s around the seam") == true, "\(verdicts[1].reasons)")
        // Folded as a played theme is: 5.1 reads as stereo.
        let six = try SeamWindow.read(
            path: files[2], loop: LoopRegion(start: 0, end: 20 * 48_000), sideSeconds: 3, foldingToStereo: true)
        #expect(six.buffer.channels == 2)
    }

    @Test func aWindowPastTheFilesEndOrWithANaNIsRefusedNamingTheFile() throws {
        let dir = ToolRunner.temporaryDirectory("seam-window-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var b = LoopSignals.periodicNoise(period: 48_000, frames: 96_000, seed: 44)
        b[0, 50_000] = .nan
        try AudioFileEncoder.write(b, to: dir + "/nan.wav", options: EncodeOptions(format: .wavf))
        #expect {
            try SeamWindow.read(
                path: dir + "/nan.wav", loop: LoopRegion(start: 0, end: 96_000), foldingToStereo: true)
        } throws: { ($0 as? EnsoError)?.message.contains("nan.wav: a NaN sample in channel 1 at frame 50000") == true }
        #expect {
            try SeamWindow.read(
                path: dir + "/nan.wav", loop: LoopRegion(start: 0, end: 96_001), foldingToStereo: true)
        } throws: { ($0 as? EnsoError)?.kind == .invalidInput }
    }

    /// A long loop's window is its head and its tail as the file's frames, bit for bit, in every sample (stereo,
    /// and 5.1 folded as a played theme is), as copied into channels in bulk (``SeamWindow/deinterleave(_:stride:frames:into:at:channels:)``).
    @Test func aLongLoopsWindowIsTheFilesFramesInEverySample() throws {
        let dir = ToolRunner.temporaryDirectory("seam-window-every")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.writeFiles(in: dir, loopSeconds: 26)
        for (path, fold) in [(files[0], false), (files[2], true)] {
            let info = try SoundFileReader(path: path).info
            let loop = info.loops.first ?? LoopRegion(start: 0, end: info.frames)
            let window = try SeamWindow.read(path: path, loop: loop, foldingToStereo: fold)
            #expect(!window.holdsWholeLoop)
            var decoded = try AudioFileDecoder.decode(path: path).buffer
            if fold { decoded = ChannelMapper.map(decoded, to: .stereo) }
            // The head from the loop's start less the margin; the tail up to the loop's end plus the margin.
            let headEnd = Int(window.loop.start) + 10 * 48_000
            let headToFile = Int(loop.start) - Int(window.loop.start)
            let tailToFile = Int(loop.end) - Int(window.loop.end)
            for c in 0..<window.buffer.channels {
                let head = (0..<headEnd).allSatisfy { window.buffer[c, $0] == decoded[c, $0 + headToFile] }
                let tail = (headEnd..<window.buffer.frameCount).allSatisfy {
                    window.buffer[c, $0] == decoded[c, $0 + tailToFile]
                }
                #expect(head && tail, "\(path): channel \(c) as the file's frames")
            }
        }
    }

    /// Read on two threads at once (a long loop's head and tail, a whole loop's two halves), the window is the one
    /// read part after part on one reader, bit for bit, in every format (lossy ones too: their head and tail are
    /// seeked to either way) and folded or not; a NaN in both halves is reported at the first, as in order.
    @Test func theWindowReadOnTwoThreadsIsTheOneReadInOrder() throws {
        let dir = ToolRunner.temporaryDirectory("seam-window-threads")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var paths: [String] = []
        for seconds in [6.0, 26.0] {
            let sub = dir + "/\(Int(seconds))"
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            paths += try Self.writeFiles(in: sub, loopSeconds: seconds)
            let noise = LoopSignals.periodicNoise(period: 48_000, frames: Int(seconds * 48_000), seed: 45)
            for (name, format) in [("noise.ogg", EncodeFormat.ogg), ("noise.mp3", .mp3), ("noise16.flac", .flac)] {
                try AudioFileEncoder.write(noise, to: sub + "/" + name, options: EncodeOptions(format: format))
                paths.append(sub + "/" + name)
            }
        }
        var split = 0
        for path in paths {
            let info = try SoundFileReader(path: path).info
            let loop = info.loops.first ?? LoopRegion(start: 0, end: info.frames)
            for fold in [false, true] {
                let inOrder = try SeamWindow.read(
                    path: path, loop: loop, sideSeconds: SeamWindow.sideSeconds, foldingToStereo: fold,
                    concurrently: false)
                let atOnce = try SeamWindow.read(path: path, loop: loop, foldingToStereo: fold)
                #expect(atOnce.buffer == inOrder.buffer, "\(path), folded \(fold): every sample")
                #expect(atOnce.loop == inOrder.loop && atOnce.holdsWholeLoop == inOrder.holdsWholeLoop, "\(path)")
            }
            if !SeamWindow.decodesAnywhereAlike(info) || loop.length > 20 * 48_000 { split += 1 }
        }
        #expect(split >= 6, "the lossy whole loops are read in one part, the long loops in two")
        var b = LoopSignals.periodicNoise(period: 48_000, frames: 144_000, seed: 46)
        b[1, 100_000] = .infinity
        b[0, 30_000] = .nan
        try AudioFileEncoder.write(b, to: dir + "/two.wav", options: EncodeOptions(format: .wavf))
        #expect {
            try SeamWindow.read(path: dir + "/two.wav", loop: LoopRegion(start: 0, end: 144_000), foldingToStereo: true)
        } throws: { ($0 as? EnsoError)?.message.contains("two.wav: a NaN sample in channel 1 at frame 30000") == true }
    }
}
