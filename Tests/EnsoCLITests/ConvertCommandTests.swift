import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@Suite("enso convert")
struct ConvertCommandTests {
    /// One second of a 44.1 kHz stereo 16-bit WAV with the loop 11025..<33075.
    static func source(in dir: String) throws -> String {
        let path = dir + "/source.wav"
        let noise = SignalGenerator.whiteNoise(frames: 44_100, amplitude: 0.5, seed: 21)
        try AudioFileEncoder.write(
            SignalGenerator.buffer(noise, channels: 2, sampleRate: 44_100), to: path,
            options: EncodeOptions(format: .wav16, loops: [LoopRegion(start: 11_025, end: 33_075)]))
        return path
    }

    @Test("rate change scales the loop points (within ±1 frame) and keeps the channel count")
    func rateChangeKeepsLoops() throws {
        let dir = ToolRunner.temporaryDirectory("convert")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Self.source(in: dir)
        let output = dir + "/out.wav"
        let r = try ToolRunner.run("enso", ["convert", input, output, "--rate", "48000", "--resampler", "fastest"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\(output): wav16, 48000 Hz, stereo, 48000 frames, loops 12000..<36000"))
        let info = try AudioFileDecoder.info(path: output)
        #expect(info.sampleRate == .hz48000)
        #expect(info.frames == 48_000)
        #expect(info.channels == .stereo)
        let loop = try #require(info.loops.first)
        // 11025 × 48000/44100 = 12000 and 33075 × 48000/44100 = 36000 exactly; the issue allows ±1 frame.
        #expect(abs(loop.start - 12_000) <= 1 && abs(loop.end - 36_000) <= 1)
    }

    @Test("format from the extension, channel mapping, explicit --format and lossy quality")
    func formats() throws {
        let dir = ToolRunner.temporaryDirectory("convert-fmt")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Self.source(in: dir)
        let flac = try ToolRunner.run("enso", ["convert", input, dir + "/mono.flac", "--channels", "1"])
        #expect(flac.exitCode == 0, "\(flac.stderr)")
        #expect(flac.stderr.contains("Warning: flac cannot store loop points; 1 loop(s) dropped"))
        let flacInfo = try AudioFileDecoder.decode(path: dir + "/mono.flac")
        #expect(flacInfo.info.format == "FLAC" && flacInfo.info.channels == .mono && flacInfo.info.subtype == "PCM_16")
        // Stereo to mono averages the (identical) channels, so the samples are unchanged.
        let original = try AudioFileDecoder.decode(path: input)
        #expect(Array(flacInfo.buffer.channel(0)) == Array(original.buffer.channel(0)))

        // And back up to stereo at a new rate: both channels carry the same resampled signal.
        let up = try ToolRunner.run(
            "enso", ["convert", dir + "/mono.flac", dir + "/up.wav", "--channels", "2", "--rate", "48000", "--resampler", "fastest"])
        #expect(up.exitCode == 0, "\(up.stderr)")
        let upmixed = try AudioFileDecoder.decode(path: dir + "/up.wav")
        #expect(upmixed.info.channels == .stereo && upmixed.info.sampleRate == .hz48000 && upmixed.info.frames == 48_000)
        #expect(Array(upmixed.buffer.channel(0)) == Array(upmixed.buffer.channel(1)))

        let ogg = try ToolRunner.run(
            "enso", ["convert", input, dir + "/x.bin", "--format", "ogg", "--quality", "0.3"])
        #expect(ogg.exitCode == 0, "\(ogg.stderr)")
        #expect(try AudioFileDecoder.info(path: dir + "/x.bin").subtype == "VORBIS")

        let f24 = try ToolRunner.run("enso", ["convert", input, dir + "/deep.wav", "--format", "wav24"])
        #expect(f24.exitCode == 0)
        let deep = try AudioFileDecoder.decode(path: dir + "/deep.wav")
        #expect(deep.info.subtype == "PCM_24")
        #expect(deep.info.loops == [LoopRegion(start: 11_025, end: 33_075)])
        #expect(deep.buffer == original.buffer)
    }

    @Test("errors: unreadable input 2, unwritable output 1, usage 64; no partial output")
    func errors() throws {
        let dir = ToolRunner.temporaryDirectory("convert-err")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Self.source(in: dir)

        let missing = try ToolRunner.run("enso", ["convert", dir + "/none.wav", dir + "/o.wav"])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("Error: \(dir)/none.wav: No such file or directory"))

        let opus = try ToolRunner.run("enso", ["convert", input, dir + "/o.opus"])
        #expect(opus.exitCode == 1)
        #expect(opus.stderr.contains("\(dir)/o.opus: Opus holds 8, 12, 16, 24 or 48 kHz"))

        let noFolder = try ToolRunner.run("enso", ["convert", input, dir + "/absent/o.wav"])
        #expect(noFolder.exitCode == 1)
        #expect(noFolder.stderr.contains("\(dir)/absent/o.wav"))

        let unknown = try ToolRunner.run("enso", ["convert", input, dir + "/o.mp3"])
        #expect(unknown.exitCode == 64)
        #expect(unknown.stderr.contains("cannot tell the format from"))

        let badRate = try ToolRunner.run("enso", ["convert", input, dir + "/o.wav", "--rate", "10"])
        #expect(badRate.exitCode == 64)
        #expect(badRate.stderr.contains("--rate: 10 is out of range"))

        let oneFile = try ToolRunner.run("enso", ["convert", input])
        #expect(oneFile.exitCode == 64)

        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["source.wav"])
    }
}
