import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@Suite("enso info")
struct InfoCommandTests {
    /// This test's folder (``CLIFixture``): `dir`.
    let fixture = CLIFixture("info")
    var dir: String { fixture.dir }

    /// A 0.5 s stereo 48 kHz WAV with a loop, peak 0.5.
    static func makeLoopedWAV(in dir: String) throws -> String {
        let sine = SignalGenerator.sine(
            frequency: 1000, amplitude: 0.5, frames: 24_000, sampleRate: 48_000, phase: .pi / 2)
        return try CLIFixture.writeStereo(
            sine, rate: 48_000, format: .wav24, loop: LoopRegion(start: 4_800, end: 24_000), to: dir + "/looped.wav")
    }

    @Test("text output shows format, rate, channels, frames, peak and loops")
    func text() throws {
        let path = try Self.makeLoopedWAV(in: dir)
        let r = try CLIFixture.succeeds(["info", path])
        #expect(r.stderr.isEmpty)
        for line in [
            path, "WAV PCM_24", "48000 Hz", "channels  2", "frames    24000 (0.500 s)", "peak      0.5000 (-6.0 dBFS)",
            "loops     4800..<24000",
        ] {
            #expect(r.stdout.contains(line), "missing \"\(line)\" in:\n\(r.stdout)")
        }
    }

    /// A float file of NaN only has no peak: `info` says so, where it printed "0.0000 (-inf dBFS) over the finite
    /// samples", the peak of digital silence, though no sample is finite (`--json`: no `peak`); `loops verify` and
    /// `bells audition` name the NaN.
    @Test("a file of NaN only has no peak, and every command says NaN, not silent")
    func allNaN() throws {
        let path = dir + "/nan.wav"
        try AudioFileEncoder.write(
            SignalGenerator.buffer([Float](repeating: .nan, count: 4_800), sampleRate: 48_000), to: path,
            options: EncodeOptions(format: .wavf))
        let r = try CLIFixture.succeeds(["info", path])
        #expect(r.stdout.contains("peak      none: all 4800 samples are NaN or infinite"), "\(r.stdout)")
        let json = try CLIFixture.succeeds(["info", "--json", path])
        #expect(
            !json.stdout.contains("\"peak\"") && json.stdout.contains("\"nonFiniteSamples\": 4800"), "\(json.stdout)")
        let verify = try ToolRunner.run("enso", ["loops", "verify", path])
        #expect(
            verify.exitCode == 2 && verify.stderr.contains("a NaN sample in channel 1 at frame 0"), "\(verify.stderr)")
        let audition = try ToolRunner.run("enso", ["bells", "audition", path])
        #expect(
            audition.exitCode == 2
                && audition.stderr.contains("non-finite: all 4800 samples are NaN or infinite: no sound to measure")
                && !audition.stderr.contains("silent"), "\(audition.stderr)")
    }

    /// A peak a hair under full scale reads 0.0 dBFS, not "-0.0" (Debian's game sounds at 0.99997).
    @Test("a peak just under full scale reads 0.0 dBFS")
    func fullScale() throws {
        let sine = SignalGenerator.sine(
            frequency: 1000, amplitude: 0.99999, frames: 4_800, sampleRate: 48_000, phase: .pi / 2)
        let path = try CLIFixture.writeStereo(
            sine, rate: 48_000, format: .wav24, loop: LoopRegion(start: 0, end: 4_800), to: dir + "/full.wav")
        let r = try CLIFixture.succeeds(["info", path])
        #expect(r.stdout.contains("(0.0 dBFS)") && !r.stdout.contains("-0.0"), "\(r.stdout)")
    }

    @Test("--json prints one object per file with the documented fields; unreadable files exit 2")
    func json() throws {
        let path = try Self.makeLoopedWAV(in: dir)
        let missing = dir + "/missing.flac"
        let r = try ToolRunner.run("enso", ["info", "--json", path, missing])
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("Error: \(missing)"))
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 2)
        let first = objects[0]
        #expect(first["file"] as? String == path)
        #expect(first["format"] as? String == "WAV")
        #expect(first["subtype"] as? String == "PCM_24")
        #expect(first["sampleRate"] as? Int == 48_000)
        #expect(first["channels"] as? Int == 2)
        #expect(first["frames"] as? Int == 24_000)
        #expect(first["duration"] as? Double == 0.5)
        // 0.5 quantised to 24 bits: within one 24-bit step.
        #expect(abs((first["peak"] as? Double ?? 0) - 0.5) < 1.0 / 8_388_608 + 1e-9)
        let loops = try #require(first["loops"] as? [[String: Int]])
        #expect(loops == [["start": 4_800, "end": 24_000]])
        #expect(objects[1]["file"] as? String == missing)
        let error = try #require(objects[1]["error"] as? [String: Any])
        #expect(error["code"] as? String == "not-found" && error["file"] as? String == missing)
    }

    @Test("a file that is not audio exits 2 and names the file")
    func notAudio() throws {
        let path = dir + "/notes.wav"
        precondition(
            FileManager.default.createFile(
                atPath: path, contents: Data(String(repeating: "not audio ", count: 50).utf8)),
            "cannot write a test fixture")
        let r = try ToolRunner.run("enso", ["info", path])
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("Error: \(path): not an audio file"))
        #expect(r.stdout.isEmpty)
    }

    @Test("a loop sidecar is shown, or why it is ignored")
    func sidecar() throws {
        let path = dir + "/rain.flac"
        try AudioFileEncoder.write(
            SignalGenerator.buffer(
                SignalGenerator.whiteNoise(frames: 48_000, amplitude: 0.1, seed: 1), sampleRate: 48_000),
            to: path, options: EncodeOptions(format: .flac))
        let sidecar =
            #"{"version": 1, "file": "rain.flac", "sampleRate": 48000, "frames": 48000, "loop": {"start": 100, "end": 47000}}"#
        try Data(sidecar.utf8).write(to: URL(fileURLWithPath: path + ".loop.json"))
        let text = try ToolRunner.run("enso", ["info", path])
        #expect(
            text.exitCode == 0 && text.stdout.contains("sidecar   100..<47000 (rain.flac.loop.json)"), "\(text.stdout)")
        let json = try ToolRunner.run("enso", ["info", "--json", path])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first?["sidecarLoop"] as? [String: Int] == ["start": 100, "end": 47000], "\(json.stdout)")
        try Data(sidecar.replacingOccurrences(of: "48000,", with: "44100,").utf8).write(
            to: URL(fileURLWithPath: path + ".loop.json"))
        let stale = try ToolRunner.run("enso", ["info", path])
        #expect(
            stale.exitCode == 0 && stale.stdout.contains("sidecar   ignored:") && stale.stdout.contains("stale"),
            "\(stale.stdout)")
    }

    @Test("no file is a usage error (64)")
    func usage() throws {
        let r = try ToolRunner.run("enso", ["info"])
        #expect(r.exitCode == 64)
        #expect(r.stderr.contains("Usage: enso info"))
    }

    /// As root: a copy of `enso` in a world-readable folder that `nobody` can run through `setpriv`, or `nil`
    /// when that is impossible here (no setpriv, or the toolchain's libraries are unreadable to `nobody`).
    static let ensoForNobody: String? = {
        guard geteuid() == 0 else { return nil }
        let setpriv = "/usr/bin/setpriv"
        guard FileManager.default.isExecutableFile(atPath: setpriv) else { return nil }
        let dir = NSTemporaryDirectory() + "enso-nobody-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(dir, 0o755)
        let copy = dir + "/enso"
        try? FileManager.default.removeItem(atPath: copy)
        guard (try? FileManager.default.copyItem(atPath: ToolRunner.executablePath("enso"), toPath: copy)) != nil else {
            return nil
        }
        chmod(copy, 0o755)
        return runAsNobody([copy, "--version"]).exitCode == 0 ? copy : nil
    }()

    static func runAsNobody(_ argv: [String]) -> (exitCode: Int32, stderr: String) {
        let args = ["--reuid=65534", "--regid=65534", "--clear-groups"] + argv
        guard let r = try? ToolRunner.run("/usr/bin/setpriv", args) else { return (-1, "") }
        return (r.exitCode, r.stderr)
    }

    @Test(
        "unreadable file (mode 000): as root, enso runs as nobody through setpriv",
        .enabled(if: geteuid() != 0 || ensoForNobody != nil, "root, but nobody cannot run a copy of enso here"))
    func permissionDenied() throws {
        let path = try Self.makeLoopedWAV(in: dir)
        chmod(dir, 0o755)
        chmod(path, 0)
        let exitCode: Int32
        let stderr: String
        if let enso = Self.ensoForNobody {
            defer { try? FileManager.default.removeItem(atPath: (enso as NSString).deletingLastPathComponent) }
            // Root can read mode-000 files; drop to nobody for the one process under test.
            (exitCode, stderr) = Self.runAsNobody([enso, "info", path])
        } else {
            let r = try ToolRunner.run("enso", ["info", path])
            (exitCode, stderr) = (r.exitCode, r.stderr)
        }
        #expect(exitCode == 2, "\(stderr)")
        #expect(stderr.contains("Error: \(path): cannot read: Permission denied"), "\(stderr)")
    }
}
