import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// A 16- or 24-bit format clips what lies beyond full scale. `convert` and `loops bake` wrote such files without a
/// word (sox says "rate clipped 12727 samples; decrease volume?"): they now count them and name the gain that keeps
/// them, which `convert --gain` applies.
@Suite("enso convert and loops bake: samples beyond full scale")
struct ClippedSamplesTests {
    let fixture = CLIFixture("clipped-samples")
    var dir: String { fixture.dir }

    /// A square wave 0.1 dB under full scale: resampled, its edges ring about 0.9 dB over (Gibbs).
    func square() throws -> String {
        let frames = 44_100
        let x: [Float] = (0..<frames).map { (i: Int) -> Float in (i / 50) % 2 == 0 ? 0.988 : -0.988 }
        let path = dir + "/square.wav"
        try AudioFileEncoder.write(
            SignalGenerator.buffer(x, sampleRate: 44_100), to: path, options: EncodeOptions(format: .wav16))
        return path
    }

    @Test("an integer format: the clipped samples counted, the peak and the gain that keeps them; wavf keeps them")
    func integerOutputSaysWhatItClipped() throws {
        let input = try square()
        let r = try CLIFixture.succeeds(["convert", input, dir + "/s48.wav", "--rate", "48000"])
        let warning = try #require(r.stderr.split(separator: "\n").first { $0.contains("beyond full scale") })
        #expect(warning.contains("\(dir)/s48.wav: ") && warning.contains("clipped in wav16"), "\(warning)")
        // What the float output holds: the count and peak the warning must give.
        try CLIFixture.succeeds(["convert", input, dir + "/s48f.wav", "--rate", "48000", "--format", "wavf"])
        let float = try AudioFileDecoder.decode(path: dir + "/s48f.wav").buffer
        let over = float.samples.filter { abs($0) > 1 }.count
        #expect(over > 100)
        #expect(warning.contains(" \(over) samples beyond full scale"), "\(warning) (\(over) over)")
        let peak = 20 * log10(Double(float.peak))
        #expect(warning.contains(String(format: "(peak %+.2f dBFS)", peak)), "\(warning)")
        let keep = (-peak * 10).rounded(.down) / 10
        #expect(warning.contains(String(format: "--gain %.1f keeps them", keep)), "\(warning)")

        // The gain it names keeps them: no warning, and the peak at or under full scale.
        let kept = try CLIFixture.succeeds([
            "convert", input, dir + "/kept.wav", "--rate", "48000", "--gain", String(format: "%.1f", keep),
        ])
        #expect(!kept.stderr.contains("beyond full scale"), "\(kept.stderr)")
        try CLIFixture.succeeds([
            "convert", input, dir + "/keptf.wav", "--rate", "48000", "--format", "wavf", "--gain",
            String(format: "%.1f", keep),
        ])
        let lowered = try AudioFileDecoder.decode(path: dir + "/keptf.wav").buffer
        #expect(lowered.peak <= 1 && lowered.peak > 0.98, "peak \(lowered.peak)")
        // --gain is a plain factor: every sample 10^(g/20) of the unlowered one.
        let factor = Float(pow(10, keep / 20))
        #expect(zip(lowered.samples, float.samples).allSatisfy { abs($0 - $1 * factor) <= 1e-6 })

        // Float WAV stores them: no warning.
        let f = try CLIFixture.succeeds(["convert", input, dir + "/again.wav", "--rate", "48000", "--format", "wavf"])
        #expect(!f.stderr.contains("beyond full scale"), "\(f.stderr)")
        // A write that fails clips nothing and says nothing of it.
        let failed = try ToolRunner.run("enso", ["convert", input, dir + "/missing/s.wav", "--rate", "48000"])
        #expect(failed.exitCode == 1 && !failed.stderr.contains("beyond full scale"), "\(failed.stderr)")
        // Nothing over full scale, nothing said: the same square at the same rate.
        let plain = try CLIFixture.succeeds(["convert", input, dir + "/same.flac"])
        #expect(!plain.stderr.contains("beyond full scale"), "\(plain.stderr)")
    }

    @Test("a gain that clips is counted too, and the one to give is lowered from it")
    func aGainThatClipsIsCounted() throws {
        let input = try square()
        let r = try CLIFixture.succeeds(["convert", input, dir + "/loud.flac", "--gain", "3", "--format", "flac24"])
        // 0.988 × 10^(3/20) = 1.396: every sample is beyond full scale, 2.90 dB over.
        #expect(r.stderr.contains("44100 samples beyond full scale (peak +2.90 dBFS) clipped in flac24"), "\(r.stderr)")
        #expect(r.stderr.contains("--gain 0.1 keeps them"), "\(r.stderr)")
        let bad = try ToolRunner.run("enso", ["convert", input, dir + "/x.wav", "--gain", "30"])
        #expect(bad.exitCode == 64 && bad.stderr.contains("--gain"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.wav"))
    }

    /// An equal-power crossfade adds two parts that do not cancel: Gaussian noise peaking at 0.999 crossfaded into
    /// itself peaks over full scale.
    @Test("loops bake: a crossfade that lifts noise over full scale says so, and the convert that keeps it")
    func bakeSaysWhatTheCrossfadeClipped() throws {
        var rng = SeededRandom(seed: 48)
        let noise = (0..<(6 * 44_100)).map { _ in Float(max(-0.999, min(0.999, 0.3 * rng.nextGaussian()))) }
        let input = dir + "/noise.wav"
        try AudioFileEncoder.write(
            SignalGenerator.buffer(noise, sampleRate: 44_100), to: input, options: EncodeOptions(format: .wav16))
        let r = try ToolRunner.run("enso", ["loops", "bake", input, dir + "/baked.wav", "--crossfade", "0.5s"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let warning = try #require(r.stderr.split(separator: "\n").first { $0.contains("beyond full scale") })
        #expect(warning.contains("\(dir)/baked.wav: ") && warning.contains("clipped in wav16"), "\(warning)")
        let prefix = "enso convert \(input) QUIETER.wav --gain "
        let given = try #require(warning.range(of: prefix).map { String(warning[$0.upperBound...]) })
        let gain = try #require(Double(given), "\(warning)")
        #expect(gain < 0 && gain > -3.1, "\(warning)")
        // The convert it names keeps them.
        try CLIFixture.succeeds(["convert", input, dir + "/quieter.wav", "--gain", given])
        let again = try ToolRunner.run(
            "enso", ["loops", "bake", dir + "/quieter.wav", dir + "/baked2.wav", "--crossfade", "0.5s"])
        #expect(again.exitCode == 0 && !again.stderr.contains("beyond full scale"), "\(again.stderr)")
    }
}
