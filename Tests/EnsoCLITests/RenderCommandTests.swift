import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@Suite("enso render")
struct RenderCommandTests {
    /// This test's folder (``CLIFixture``): `dir`.
    let fixture = CLIFixture("render")
    var dir: String { fixture.dir }

    @Test("renders the whole session to a file with every strike on its planned frame")
    func render() throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let planArgs = [
            "--bell", bell, "--sit", "3s", "--strikes", "3", "--spacing", "0.5", "--breath", "1", "--repeat", "3",
            "--fade-out", "0.5", "--rate", "8000",
        ]
        let plan = try CLIFixture.succeeds(["plan", "--json"] + planArgs)
        let report = try JSONDecoder().decode(PlanCommandTests.Report.self, from: Data(plan.stdout.utf8))
        let out = dir + "/session.wav"
        let r = try CLIFixture.succeeds(["render", "-o", out] + planArgs)
        #expect(r.stdout.contains("session.wav"))
        let decoded = try AudioFileDecoder.decode(path: out)
        #expect(decoded.info.subtype.contains("16"))
        #expect(decoded.buffer.channels == 2)
        #expect(Int64(decoded.buffer.frameCount) == report.endFrame)
        let left = Array(decoded.buffer.channel(0))
        let hits = left.indices.filter { left[$0] != 0 }.map { Int64($0) }
        #expect(hits == report.events.filter { $0.kind == "strike" }.map(\.frame))
        // 0.5 quantised to 16 bits (0.5 * 32768 = 16384 exactly) reads back as exactly 0.5.
        #expect(left[0] == 0.5)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    /// `--ambient ""` names no asset: bad usage naming the option, before anything is rendered (it rendered the
    /// session without an ambient, exit 0). `--ambient none` is the way to say none.
    @Test("an empty --ambient is bad usage; none is no ambient")
    func emptyAmbient() throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let plan = ["--bell", bell, "--sit", "10", "--strikes", "1", "--rate", "8000", "--progress", "none"]
        let out = dir + "/e.wav"
        let r = try ToolRunner.run("enso", ["render", "-o", out, "--ambient", ""] + plan)
        #expect(r.exitCode == 64, "\(r.stderr)")
        #expect(
            r.stderr.hasPrefix(
                "Error: --ambient is empty: an empty id names no asset; give an asset id, a sound file or none for silence\n"
            ), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let theme = try ToolRunner.run("enso", ["render", "-o", out, "--theme-at", "5="] + plan)
        #expect(theme.exitCode == 64 && theme.stderr.contains("--theme-at"), "\(theme.stderr)")
        try CLIFixture.succeeds(["render", "-o", out, "--ambient", "none", "--theme-at", "5=none"] + plan)
    }

    @Test("an ambient whose seam fails is crossfaded with one warning line; --no-seam-fix plays it as it is")
    func seamFix() throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir, rate: 48_000)
        let hum = dir + "/hum.wav"
        try AudioFileEncoder.write(
            LoopSignals.brownNoise(frames: 96_000, amplitude: 0.3, seed: 5), to: hum,
            options: EncodeOptions(format: .wav24))
        let args = [
            "--bell", bell, "--sit", "5s", "--strikes", "1", "--ambient", hum, "--ambient-volume", "1", "--fade-in",
            "0",
            "--format", "wavf",
        ]
        let fixed = try CLIFixture.succeeds(["render", "-o", dir + "/fixed.wav"] + args)
        let lines = fixed.stderr.split(separator: "\n").filter {
            $0.hasPrefix("Warning: --ambient \(hum): the loop's seam is not seamless")
        }
        #expect(lines.count == 1, "\(fixed.stderr)")
        let plain = try ToolRunner.run("enso", ["render", "-o", dir + "/plain.wav", "--no-seam-fix"] + args)
        #expect(plain.exitCode == 0 && !plain.stderr.contains("Warning"), "\(plain.stderr)")
        // The 2 s file wraps at 2 s and 4 s: as is, its samples jump there; fixed, the render differs from it.
        let a = Array(try AudioFileDecoder.decode(path: dir + "/fixed.wav").buffer.channel(0))
        let b = Array(try AudioFileDecoder.decode(path: dir + "/plain.wav").buffer.channel(0))
        let jump = { (x: [Float]) in abs(x[96_000] - x[95_999]) }
        #expect(jump(b) > 5 * jump(a), "as is \(jump(b)), fixed \(jump(a))")
    }

    @Test("--format flac writes FLAC")
    func flac() throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let out = dir + "/s.audio"
        try CLIFixture.succeeds([
            "render", "-o", out, "--format", "flac", "--bell", bell, "--sit", "2s", "--strikes", "1", "--rate",
            "8000",
        ])
        #expect(try AudioFileDecoder.info(path: out).format.uppercased().contains("FLAC"))
    }

    @Test("forever, a missing -o and an unwritable folder are refused, leaving nothing behind")
    func failures() throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let forever = try ToolRunner.run(
            "enso", ["render", "-o", dir + "/f.wav", "--bell", bell, "--repeat", "forever"])
        #expect(forever.exitCode == 64)
        #expect(forever.stderr.contains("--repeat: forever runs until stopped"), "\(forever.stderr)")
        let noOutput = try ToolRunner.run("enso", ["render", "--bell", bell])
        #expect(noOutput.exitCode == 64)
        #expect(noOutput.stderr.contains("missing -o FILE"))
        let badFolder = try ToolRunner.run(
            "enso", ["render", "-o", dir + "/no/such/dir/x.wav", "--bell", bell, "--sit", "2s", "--strikes", "1"])
        #expect(badFolder.exitCode == 1)
        #expect(badFolder.stderr.contains("x.wav"), "\(badFolder.stderr)")
        let badStrikes = try ToolRunner.run("enso", ["render", "-o", dir + "/k.wav", "--bell", bell, "--strikes", "4"])
        #expect(badStrikes.exitCode == 64)
        #expect(!FileManager.default.fileExists(atPath: dir + "/k.wav"))
    }
}
