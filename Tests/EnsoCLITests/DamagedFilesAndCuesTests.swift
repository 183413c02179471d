import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// Files as users bring them (issue 46, section 4): a damaged Ogg or FLAC that `info` reads is converted with
/// `--salvage`; a cut MP3 that states its length is found cut; cue points and their labels survive `convert` and
/// `loops bake`, or a warning says they cannot.
@Suite struct DamagedFilesAndCuesTests {
    let fixture = CLIFixture("damaged-cues")
    var dir: String { fixture.dir }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// A 3 s stereo 440 Hz tone at 48 kHz in `format`.
    func tone(_ name: String, _ format: EncodeFormat) throws -> String {
        let tone = SignalGenerator.sine(frequency: 440, amplitude: 0.5, frames: 144_000, sampleRate: 48_000)
        let path = dir + "/" + name
        try AudioFileEncoder.write(
            SignalGenerator.buffer(tone, channels: 2, sampleRate: 48_000), to: path,
            options: EncodeOptions(format: format))
        return path
    }

    /// An Ogg cut inside its last page (no end of stream) and a FLAC cut in half.
    func damaged() throws -> [String] {
        let full = try Self.bytes(try tone("full.ogg", .ogg))
        let magic = Array("OggS".utf8)
        let last = try #require((0..<(full.count - 4)).last { Array(full[$0..<($0 + 4)]) == magic })
        try Data(full[..<(last + 60)]).write(to: URL(fileURLWithPath: dir + "/cut.ogg"))
        let flac = try Self.bytes(try tone("full.flac", .flac))
        try Data(flac.prefix(flac.count / 2)).write(to: URL(fileURLWithPath: dir + "/cut.flac"))
        return [dir + "/cut.ogg", dir + "/cut.flac"]
    }

    @Test func aDamagedOggOrFLACIsRefusedAndSalvagedWithAWarning() throws {
        for cut in try damaged() {
            let out = cut + ".wav"
            let refused = try ToolRunner.run("enso", ["convert", cut, out])
            #expect(refused.exitCode == 2, "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
            let r = try CLIFixture.succeeds(["convert", "--salvage", cut, out])
            let kept = try AudioFileDecoder.info(path: out).frames
            #expect(kept > 0 && kept < 144_000, "\(kept)")
            #expect(
                r.stderr.contains("Warning: \(cut): damaged: the stream breaks or ends early; kept the \(kept) frames"),
                "\(r.stderr)")
        }
        // An undamaged file converts without a word about damage.
        let whole = try CLIFixture.succeeds(["convert", "--salvage", dir + "/full.flac", dir + "/whole.wav"])
        #expect(!whole.stderr.contains("damaged"))
    }

    @Test func renderSalvagesADamagedAmbientOnlyWhenAsked() throws {
        let bell = dir + "/bell.wav"
        try AudioFileEncoder.write(BellSignals.bell(seconds: 2), to: bell, options: EncodeOptions(format: .wav16))
        for cut in try damaged() {
            let base = [
                "render", "--sit", "5s", "--bell", bell, "--strikes", "1", "--ambient", cut, "--progress", "none",
            ]
            let refused = try ToolRunner.run("enso", base + ["-o", dir + "/refused.wav"])
            #expect(refused.exitCode == 1, "\(refused.stderr)")
            #expect(refused.stderr.contains(cut), "\(refused.stderr)")
            let r = try CLIFixture.succeeds(base + ["--salvage", "-o", dir + "/salvaged.wav"])
            #expect(
                r.stderr.contains("Warning: --ambient \(cut): damaged: the stream breaks or ends early"), "\(r.stderr)")
        }
    }

    @Test func aCutMP3ThatStatesItsLengthIsTruncated() throws {
        let mp3 = try tone("full.mp3", .mp3)
        let bytes = try Self.bytes(mp3)
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: dir + "/cut.mp3"))
        // The whole file is whole.
        let ok = try CLIFixture.succeeds(["info", "--json", mp3])
        #expect(ok.stdout.contains("\"truncated\": false"), "\(ok.stdout)")
        let info = try CLIFixture.succeeds(["info", "--json", dir + "/cut.mp3"])
        #expect(info.stdout.contains("\"truncated\": true"), "\(info.stdout)")
        #expect(info.stderr.contains("truncated"))
        let refused = try ToolRunner.run("enso", ["convert", dir + "/cut.mp3", dir + "/cut.wav"])
        #expect(refused.exitCode == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("truncated"), "\(refused.stderr)")
        let salvaged = try CLIFixture.succeeds(["convert", "--salvage", dir + "/cut.mp3", dir + "/cut.wav"])
        #expect(salvaged.stderr.contains("damaged"), "\(salvaged.stderr)")
    }

    /// A WAV with two labelled cue points.
    func cued() throws -> String {
        let path = dir + "/cued.wav"
        let noise = SignalGenerator.whiteNoise(frames: 48_000, seed: 3).map { $0 * 0.3 }
        try AudioFileEncoder.write(
            SignalGenerator.buffer(noise, sampleRate: 48_000), to: path,
            options: EncodeOptions(
                format: .wav24,
                cues: [
                    CuePoint(id: 1, position: 12_000, name: "inhale"),
                    CuePoint(id: 2, position: 36_000, name: "exhale"),
                ]))
        return path
    }

    @Test func convertCarriesCuePointsAndLabelsScaledOnARateChange() throws {
        let input = try cued()
        // Labels included: libsndfile writes and reads positions only; Enso writes and reads the adtl list itself.
        #expect(try AudioFileDecoder.info(path: input).cues.map(\.position) == [12_000, 36_000])
        #expect(try AudioFileDecoder.info(path: input).cues.map(\.name) == ["inhale", "exhale"])
        try CLIFixture.succeeds(["convert", input, dir + "/same.wav"])
        let same = try AudioFileDecoder.info(path: dir + "/same.wav").cues
        #expect(same.map(\.position) == [12_000, 36_000])
        let labels = try AudioFileDecoder.info(path: input).cues.map(\.name)
        #expect(same.map(\.name) == labels)
        try CLIFixture.succeeds(["convert", "--rate", "44100", input, dir + "/44k.wav"])
        let resampled = try AudioFileDecoder.info(path: dir + "/44k.wav").cues
        #expect(resampled.map(\.position) == [11_025, 33_075])
        #expect(resampled.map(\.name) == ["inhale", "exhale"])
        let flac = try CLIFixture.succeeds(["convert", input, dir + "/x.flac"])
        // wav24 in, so flac24 out: a FLAC has no cue chunk.
        #expect(flac.stderr.contains("flac24 cannot store cue points; 2 dropped"), "\(flac.stderr)")
    }

    @Test func loopsBakeKeepsTheCuePointsInsideTheLoop() throws {
        let input = try cued()
        let r = try ToolRunner.run("enso", ["loops", "bake", input, dir + "/baked.wav"])
        #expect(r.exitCode == 0 || r.exitCode == 1, "\(r.stderr)")
        let baked = try AudioFileDecoder.info(path: dir + "/baked.wav")
        // Every cue of IN is in OUT or named as dropped; none is lost without a word.
        #expect(!baked.cues.isEmpty || r.stderr.contains("cue point(s) outside the baked loop"), "\(r.stderr)")
        #expect(baked.cues.count == 2 || r.stderr.contains("dropped"), "\(r.stderr)")
        let ogg = try ToolRunner.run("enso", ["loops", "bake", input, dir + "/baked.ogg"])
        #expect(ogg.stderr.contains("cannot store cue points") || ogg.stderr.contains("outside the baked loop"))
    }

    @Test func renderTakesConvertsQualityOption() throws {
        let bell = dir + "/bell.wav"
        try AudioFileEncoder.write(BellSignals.bell(seconds: 2), to: bell, options: EncodeOptions(format: .wav16))
        var sizes: [Int] = []
        for q in ["0", "1"] {
            let out = dir + "/q\(q).ogg"
            try CLIFixture.succeeds([
                "render", "--sit", "5s", "--bell", bell, "--strikes", "1", "--ambient", "none", "--quality", q, "-o",
                out,
                "--progress", "none",
            ])
            sizes.append(try Self.bytes(out).count)
        }
        #expect(sizes[0] < sizes[1], "\(sizes)")
        let bad = try ToolRunner.run(
            "enso", ["render", "--sit", "5s", "--bell", bell, "--quality", "2", "-o", dir + "/x.ogg"])
        #expect(bad.exitCode == 64 && bad.stderr.contains("--quality"), "\(bad.stderr)")
        let ignored = try CLIFixture.succeeds([
            "render", "--sit", "5s", "--bell", bell, "--strikes", "1", "--quality", "0.5", "-o", dir + "/x.wav",
            "--progress", "none",
        ])
        #expect(ignored.stderr.contains("--quality applies to ogg, opus and mp3 only"))
    }
}
