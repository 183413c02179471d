import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@Suite("enso convert")
struct ConvertCommandTests {
    /// This test's folder (``CLIFixture``): `dir`.
    let fixture = CLIFixture("convert")
    var dir: String { fixture.dir }

    /// One second of a 44.1 kHz stereo 16-bit WAV with the loop 11025..<33075.
    static func source(in dir: String) throws -> String {
        try CLIFixture.writeStereo(
            SignalGenerator.whiteNoise(frames: 44_100, amplitude: 0.5, seed: 21), rate: 44_100, format: .wav16,
            loop: LoopRegion(start: 11_025, end: 33_075), to: dir + "/source.wav")
    }

    /// A file of 1, 2 or 3 frames has no loop and converts (a 1-frame file was refused: "the loop holds fewer than
    /// 2 frames", exit 2, though `info` said "loops none"); only `--loop`, which asks for the whole file as a loop,
    /// refuses a file too short to loop, and says so; `loops verify` says the same.
    @Test("a file of 1, 2 or 3 frames converts; --loop on 1 frame says it is too short to loop")
    func tinyFilesConvert() throws {
        for n in 1...3 {
            let input = dir + "/tiny\(n).wav"
            try AudioFileEncoder.write(
                SignalGenerator.buffer(Array(([0.25, -0.5, 0.125] as [Float]).prefix(n)), sampleRate: 44_100),
                to: input, options: EncodeOptions(format: .wav16))
            for out in ["o\(n).flac", "o\(n).wav", "o\(n)-48k.wav"] {
                let rate = out.contains("48k") ? ["--rate", "48000"] : []
                let r = try CLIFixture.succeeds(["convert", input, dir + "/" + out] + rate)
                #expect(r.stdout.contains(n == 1 ? ", 1 frame" : ", \(n) frames"), "\(r.stdout)")
            }
            let back = try AudioFileDecoder.decode(path: dir + "/o\(n).flac")
            #expect(back.buffer.frameCount == n && back.info.loops.isEmpty)
        }
        let tooShort =
            "tiny1.wav: the file holds 1 frame, too short to loop as a whole (a loop holds at least 2 frames)"
        let loop = try ToolRunner.run("enso", ["convert", "--loop", dir + "/tiny1.wav", dir + "/l.wav"])
        #expect(loop.exitCode == 2 && loop.stderr.contains(tooShort), "\(loop.stderr)")
        #expect(try CLIFixture.succeeds(["convert", "--loop", dir + "/tiny2.wav", dir + "/l2.wav"]).exitCode == 0)
        let verify = try ToolRunner.run("enso", ["loops", "verify", dir + "/tiny1.wav"])
        #expect(verify.exitCode == 2 && verify.stderr.contains(tooShort), "\(verify.stderr)")
    }

    @Test("rate change scales the loop points (within ±1 frame) and keeps the channel count")
    func rateChangeKeepsLoops() throws {
        let input = try Self.source(in: dir)
        let output = dir + "/out.wav"
        let r = try CLIFixture.succeeds(["convert", input, output, "--rate", "48000", "--resampler", "fastest"])
        #expect(r.stdout.contains("\(output): wav16, 48000 Hz, stereo, 48000 frames, loops 12000..<36000"))
        let info = try AudioFileDecoder.info(path: output)
        #expect(info.sampleRate == .hz48000)
        #expect(info.frames == 48_000)
        #expect(info.channels == .stereo)
        let loop = try #require(info.loops.first)
        // 11025 × 48000/44100 = 12000 and 33075 × 48000/44100 = 36000 exactly; ±1 frame allows the converter's rounding of a position.
        #expect(abs(loop.start - 12_000) <= 1 && abs(loop.end - 36_000) <= 1)
    }

    @Test("--channels 2 folds a 5.1 file by ITU-R BS.775 (L + 0.707 C + 0.707 Ls) and a quad one (L + 0.707 Ls)")
    func surroundFoldsToStereo() throws {
        // Channel k of the 5.1 file holds 0.1 × (k + 1) throughout.
        for n in [6, 4] {
            let input = dir + "/surround\(n).wav"
            let buffer = AudioBuffer(
                channelData: (0..<n).map { k in [Float](repeating: 0.1 * Float(k + 1), count: 4_800) },
                sampleRate: .hz48000)
            try AudioFileEncoder.write(buffer, to: input, options: EncodeOptions(format: .wav24))
            let output = dir + "/folded\(n).wav"
            try CLIFixture.succeeds(["convert", input, output, "--channels", "2", "--format", "wav24"])
            let folded = try AudioFileDecoder.decode(path: output)
            #expect(folded.info.channels == .stereo)
            let c = 0.707_106_77
            let expected: (Double, Double) =
                n == 6 ? (0.1 + c * 0.3 + c * 0.5, 0.2 + c * 0.3 + c * 0.6) : (0.1 + c * 0.3, 0.2 + c * 0.4)
            // 24-bit output: 1.2e-7 a step; 1e-5 leaves room for the rounding of the sums.
            #expect(
                abs(Double(folded.buffer[0, 2_400]) - expected.0) < 1e-5, "\(n) channels: \(folded.buffer[0, 2_400])")
            #expect(
                abs(Double(folded.buffer[1, 2_400]) - expected.1) < 1e-5, "\(n) channels: \(folded.buffer[1, 2_400])")
        }
    }

    @Test("format from the extension, channel mapping, explicit --format and lossy quality")
    func formats() throws {
        let input = try Self.source(in: dir)
        let flac = try CLIFixture.succeeds(["convert", input, dir + "/mono.flac", "--channels", "1"])
        // FLAC has no loop chunk: the loop goes to a sidecar that verify, play and the engine read.
        #expect(flac.stdout.contains("loop 11025..<33075 in \(dir)/mono.flac.loop.json"), "\(flac.stdout)")
        #expect(!flac.stderr.contains("Warning"), "\(flac.stderr)")
        let flacInfo = try AudioFileDecoder.decode(path: dir + "/mono.flac")
        #expect(flacInfo.info.format == "FLAC" && flacInfo.info.channels == .mono && flacInfo.info.subtype == "PCM_16")
        // Stereo to mono averages the (identical) channels, so the samples are unchanged.
        let original = try AudioFileDecoder.decode(path: input)
        #expect(Array(flacInfo.buffer.channel(0)) == Array(original.buffer.channel(0)))

        // And back up to stereo at a new rate: both channels carry the same resampled signal.
        try CLIFixture.succeeds([
            "convert", dir + "/mono.flac", dir + "/up.wav", "--channels", "2", "--rate", "48000", "--resampler",
            "fastest",
        ])
        let upmixed = try AudioFileDecoder.decode(path: dir + "/up.wav")
        #expect(
            upmixed.info.channels == .stereo && upmixed.info.sampleRate == .hz48000 && upmixed.info.frames == 48_000)
        #expect(Array(upmixed.buffer.channel(0)) == Array(upmixed.buffer.channel(1)))

        try CLIFixture.succeeds(["convert", input, dir + "/x.bin", "--format", "ogg", "--quality", "0.3"])
        #expect(try AudioFileDecoder.info(path: dir + "/x.bin").subtype == "VORBIS")

        let f24 = try ToolRunner.run("enso", ["convert", input, dir + "/deep.wav", "--format", "wav24"])
        #expect(f24.exitCode == 0)
        let deep = try AudioFileDecoder.decode(path: dir + "/deep.wav")
        #expect(deep.info.subtype == "PCM_24")
        #expect(deep.info.loops == [LoopRegion(start: 11_025, end: 33_075)])
        #expect(deep.buffer == original.buffer)
    }

    /// A seamless loop stays seamless at another rate: the loop is converted on its own in periodic mode. A plain
    /// conversion bent the wrap of a 250 Hz + 1 kHz loop (continuity 9.8×, fail) going from 48 to 44.1 kHz.
    @Test("resampling keeps a loop seamless: whole-file, with an intro and a tail, to a sidecar, and --loop")
    func resamplingKeepsTheSeam() throws {
        // 4 s of whole cycles (1000 of 250 Hz), then the same with a 0.5 s intro and a 0.7 s tail around it.
        let loopFrames = 192_000
        let tone = LoopSignals.tones(frequencies: [250, 1_000], frames: loopFrames + 57_600, amplitude: 0.3)
        let whole = tone.slice(frames: 0..<loopFrames)
        try AudioFileEncoder.write(
            whole, to: dir + "/whole.wav",
            options: EncodeOptions(format: .wav24, loops: [LoopRegion(start: 0, end: FramePosition(loopFrames))]))
        try AudioFileEncoder.write(whole, to: dir + "/bare.wav", options: EncodeOptions(format: .wav24))
        let inner = LoopRegion(start: 24_000, end: FramePosition(24_000 + loopFrames))
        try AudioFileEncoder.write(tone, to: dir + "/inner.wav", options: EncodeOptions(format: .wav24, loops: [inner]))
        let runs: [(args: [String], out: String, loop: LoopRegion, source: String)] = [
            (["whole.wav", "w.wav"], "w.wav", LoopRegion(start: 0, end: 176_400), "embedded"),
            (["inner.wav", "i.wav"], "i.wav", LoopRegion(start: 22_050, end: 22_050 + 176_400), "embedded"),
            (["whole.wav", "w.flac"], "w.flac", LoopRegion(start: 0, end: 176_400), "sidecar"),
            (["bare.wav", "b.wav", "--loop"], "b.wav", LoopRegion(start: 0, end: 176_400), "whole-file"),
        ]
        for run in runs {
            let r = try ToolRunner.run(
                "enso",
                ["convert"] + run.args.map { $0.hasSuffix("--loop") ? $0 : dir + "/" + $0 } + ["--rate", "44100"])
            #expect(r.exitCode == 0 && !r.stderr.contains("Warning"), "\(run.args): \(r.stderr)")
            let verify = try ToolRunner.run("enso", ["loops", "verify", "--json", dir + "/" + run.out])
            #expect(verify.exitCode == 0, "\(run.args): \(verify.stdout)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [[String: Any]]
            ).first
            let loop = json?["loop"] as? [String: Any]
            #expect(
                loop?["start"] as? Int == Int(run.loop.start) && loop?["end"] as? Int == Int(run.loop.end),
                "\(run.args): \(String(describing: loop))")
            #expect(
                json?["loopSource"] as? String == run.source && json?["verdict"] as? String == "pass",
                "\(run.args): \(verify.stdout)")
        }
        // Without --loop, a file is resampled as a one-shot, against silence past its ends. A loop whose ends are
        // not near zero (a cosine: 1000 whole cycles of 250 Hz from its crest) loses its seam, and convert says so,
        // naming --loop; with --loop it is kept.
        let crest = SignalGenerator.sine(
            frequency: 250, amplitude: 0.3, frames: loopFrames, sampleRate: 48_000, phase: .pi / 2)
        try AudioFileEncoder.write(
            SignalGenerator.buffer(crest, sampleRate: 48_000), to: dir + "/crest.wav",
            options: EncodeOptions(format: .wav24))
        #expect(try ToolRunner.run("enso", ["loops", "verify", dir + "/crest.wav"]).exitCode == 0)
        let oneShot = try CLIFixture.succeeds(["convert", dir + "/crest.wav", dir + "/c1.wav", "--rate", "44100"])
        #expect(
            oneShot.stderr.contains("Warning: \(dir)/crest.wav loops seamlessly as a whole")
                && oneShot.stderr.contains("add --loop to keep it"), "\(oneShot.stderr)")
        #expect(try ToolRunner.run("enso", ["loops", "verify", dir + "/c1.wav"]).exitCode == 1)
        let kept = try CLIFixture.succeeds(
            ["convert", dir + "/crest.wav", dir + "/c2.wav", "--rate", "44100", "--loop"])
        #expect(!kept.stderr.contains("Warning"), "\(kept.stderr)")
        // Vorbis smears a stream's first milliseconds: a pure-tone loop from frame 0 loses its seam there, and
        // convert says so (exit 0: the file is written; `loops verify` gates it).
        let head = LoopSignals.tones(frequencies: [250], frames: loopFrames + 96_000, amplitude: 0.3)
        try AudioFileEncoder.write(
            head, to: dir + "/head.wav",
            options: EncodeOptions(format: .wav24, loops: [LoopRegion(start: 0, end: FramePosition(loopFrames))]))
        let ogg = try CLIFixture.succeeds(["convert", dir + "/head.wav", dir + "/h.ogg"])
        #expect(
            ogg.stderr.contains("Warning: \(dir)/h.ogg: after ogg encoding the loop's seam does not pass verify"),
            "\(ogg.stderr)")
        let flac = try ToolRunner.run("enso", ["convert", dir + "/head.wav", dir + "/h.flac"])
        #expect(flac.exitCode == 0 && !flac.stderr.contains("Warning"), "\(flac.stderr)")
        // The intro and the tail around an inner loop keep their lengths: 0.5 s + 4 s + 0.7 s at 44.1 kHz.
        #expect(try AudioFileDecoder.info(path: dir + "/i.wav").frames == 22_050 + 176_400 + 30_870)
    }

    @Test("errors: unreadable input 2, unwritable output 1, usage 64; no partial output")
    func errors() throws {
        let input = try Self.source(in: dir)

        let missing = try ToolRunner.run("enso", ["convert", dir + "/none.wav", dir + "/o.wav"])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("Error: \(dir)/none.wav: No such file or directory"))

        // A combination known to fail is bad usage, before any work.
        let opus = try ToolRunner.run("enso", ["convert", input, dir + "/o.opus"])
        #expect(opus.exitCode == 64)
        #expect(opus.stderr.contains("\(dir)/o.opus: Opus holds 8, 12, 16, 24 or 48 kHz"))

        let noFolder = try ToolRunner.run("enso", ["convert", input, dir + "/absent/o.wav"])
        #expect(noFolder.exitCode == 1)
        #expect(noFolder.stderr.contains("\(dir)/absent/o.wav"))

        let unknown = try ToolRunner.run("enso", ["convert", input, dir + "/o.xyz"])
        #expect(unknown.exitCode == 64)
        #expect(unknown.stderr.contains("cannot tell the format from"))

        let badRate = try ToolRunner.run("enso", ["convert", input, dir + "/o.wav", "--rate", "10"])
        #expect(badRate.exitCode == 64)
        #expect(badRate.stderr.contains("--rate 10 is outside 1000...768000"))

        let oneFile = try ToolRunner.run("enso", ["convert", input])
        #expect(oneFile.exitCode == 64)

        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["source.wav"])
    }
}
