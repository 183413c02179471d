import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `enso play` end to end: the paced null output and the raw file output need no sound card.
@Suite("enso play", .serialized)
struct PlayCommandTests {
    /// This test's folder (``CLIFixture``): `dir`.
    let fixture = CLIFixture("play")
    var dir: String { fixture.dir }

    /// A 0.8 s mono bell (decaying 523 Hz) as a 48 kHz WAV.
    static func bell(in dir: String) throws -> String {
        let path = dir + "/bell.wav"
        let samples = SignalGenerator.bell(
            partials: [(523, 0.5, 0.6), (1410, 0.2, 0.3)], seconds: 0.8, sampleRate: 48_000)
        try AudioFileEncoder.write(
            SignalGenerator.buffer(samples, sampleRate: 48_000), to: path, options: EncodeOptions(format: .wav16))
        return path
    }

    /// A short plan: 1 s sitting, 2 strikes 0.5 s apart, no breath, 0.1 s fades, once.
    static func plan(_ bell: String) -> [String] {
        [
            "--sit", "1", "--strikes", "2", "--spacing", "0.5", "--breath", "0", "--fade-in", "0.1", "--fade-out",
            "0.1", "--bell", bell,
        ]
    }

    @Test("the live path writes exactly what enso render writes")
    func fileOutputEqualsRender() throws {
        let plan = Self.plan(try Self.bell(in: dir))
        try CLIFixture.succeeds(["render"] + plan + ["-o", dir + "/offline.wav", "--format", "wavf"])
        let play = try CLIFixture.succeeds(
            ["play", "--no-journal"] + plan + ["--output", "file:\(dir)/live.raw", "--period", "256"])
        #expect(play.stdout.contains("strike 1/2 cycle 1"))
        #expect(play.stderr.contains("written to \(dir)/live.raw"))
        let offline = try AudioFileDecoder.decode(path: dir + "/offline.wav").buffer.interleaved()
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/live.raw"))
        let live = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(live.count == offline.count && !live.isEmpty)
        // Bit-exact: the engine's output is already within ±1, so clipping changes nothing.
        #expect(live == offline)
    }

    @Test("the summary's sat time is the journal's: up to the closing bell, not its ring and the fade")
    func summarySatTimeEndsAtTheClosingBell() throws {
        // The closing group starts at 1 s (the sitting); the 0.8 s bell and the fade after it are not sat.
        let play = try CLIFixture.succeeds(
            ["play", "--no-journal"] + Self.plan(try Self.bell(in: dir)) + ["--output", "file:\(dir)/x.raw"])
        #expect(play.stderr.contains("Session over: 0:00:01.000 sat"), "\(play.stderr)")
    }

    @Test("--theme-at switches themes live on the same frames as enso render")
    func themeChangesEqualRender() throws {
        // Two 0.3 s noise loops as themes; changes at 0.4 s (to the second), 0.9 s (to none) and 1.1 s (back).
        for (name, seed) in [("a", UInt64(1)), ("b", 2)] {
            let loop = LoopSignals.periodicNoise(period: 14_400, frames: 14_400, amplitude: 0.2, seed: seed)
            try AudioFileEncoder.write(loop, to: "\(dir)/\(name).wav", options: EncodeOptions(format: .wavf))
        }
        let plan =
            Self.plan(try Self.bell(in: dir)) + [
                "--ambient", "\(dir)/a.wav", "--theme-at", "0.4=\(dir)/b.wav", "--theme-at", "0.9=none",
                "--theme-at", "1.1=\(dir)/a.wav", "--theme-crossfade", "0.05",
            ]
        try CLIFixture.succeeds(["render"] + plan + ["-o", dir + "/offline.wav", "--format", "wavf"])
        let play = try CLIFixture.succeeds(
            ["play", "--no-journal"] + plan + ["--output", "file:\(dir)/live.raw", "--period", "256"])
        #expect(
            play.stdout.contains("b.wav  (frame 19200)") && play.stdout.contains("theme none  (frame 43200)"),
            "\(play.stdout)")
        let offline = try AudioFileDecoder.decode(path: dir + "/offline.wav").buffer.interleaved()
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/live.raw"))
        let live = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(live.count == offline.count && !live.isEmpty)
        #expect(live == offline)
        let tooMany = (0..<33).flatMap { ["--theme-at", "0.\($0 / 10)\($0 % 10)=none"] }
        let refused = try ToolRunner.run(
            "enso", ["play", "--no-journal"] + Self.plan(dir + "/bell.wav") + tooMany + ["--output", "null"])
        #expect(refused.exitCode == 64 && refused.stderr.contains("at most 32"), "\(refused.stderr)")
    }

    @Test("the paced null output plays in real time and prints each event when heard")
    func nullOutputIsPaced() throws {
        let t0 = Date()
        let r = try ToolRunner.run(
            "enso", ["play", "--no-journal"] + Self.plan(try Self.bell(in: dir)) + ["--output", "null"], timeout: 60)
        let elapsed = Date().timeIntervalSince(t0)
        #expect(r.exitCode == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("strike 1/2 cycle 1  (frame 0)") })
        #expect(lines.contains { $0.contains("strike 2/2 cycle 1  (frame 24000)") })
        #expect(lines.last?.contains("end cycle 1") == true)
        #expect(r.stderr.contains("Playing on 'null (paced)'"))
        // The summary counts xruns; not that there were none: the null output has no real-time priority, so a loaded
        // machine can deschedule it for longer than its buffer.
        #expect(r.stderr.contains(" xrun(s)"))
        // The session is about 2 s of audio (sitting, two groups, bell tail); unpaced it would take ms. How much
        // longer it takes depends on the machine's load: only a hang is bounded, by the run's 60 s timeout.
        #expect(elapsed > 1.5, "took \(elapsed) s")
    }

    @Test("SIGTERM stops with a fade, exits 0 and journals a stopped sitting; a second SIGINT exits 130 at once")
    func signalsStopGracefully() throws {
        let journal = dir + "/j.jsonl"
        let bell = try Self.bell(in: dir)
        func args(fadeOut: Double) -> [String] {
            [
                "play", "--sit", "60", "--fade-out", "\(fadeOut)", "--bell", bell, "--output", "null", "--journal",
                journal,
            ]
        }
        let term = try SignalledRun(args(fadeOut: 0.3), signals: [SIGTERM], after: 1.0)
        #expect(term.exitCode == 0, "\(term.stderr)")
        #expect(term.stderr.contains("Stopping: fading out"))
        #expect(term.stdout.contains("stopping"))
        #expect(term.stdout.contains("end cycle 1"))
        // Stopped by the signal, not by the 60 s sitting's end (however slow a loaded machine makes the stop).
        #expect(term.seconds < 30, "graceful stop took \(term.seconds) s")
        // The stopped sitting, as serve records one: sat time up to the stop, the 60 s planned, no checkpoint left.
        let stopped = try PlayJournalTests.records(journal)
        #expect(stopped.count == 1, "\(stopped)")
        #expect(stopped.first?["outcome"] as? String == "stopped")
        #expect(stopped.first?["plannedSeconds"] as? Double == 60)
        let sat = stopped.first?["satSeconds"] as? Double ?? -1
        #expect(sat >= 0 && sat < 60, "sat \(sat) s")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: journal + ".inprogress").filter {
                $0.hasSuffix(".json")
            }.isEmpty)
        // Cut off at once (during a 5 s fade, so long before the sitting could end): its checkpoint stays, and the
        // next reader recovers it as interrupted, once.
        let twice = try SignalledRun(args(fadeOut: 5), signals: [SIGINT, SIGINT], after: 1.0)
        #expect(twice.exitCode == 130)
        #expect(twice.stderr.contains("Interrupted."))
        let list = try CLIFixture.succeeds(["sessions", "list", "--json", "--journal", journal])
        #expect(list.stderr.contains("recovered interrupted session"), "\(list.stderr)")
        #expect(try PlayJournalTests.records(journal).map { $0["outcome"] as? String } == ["stopped", "interrupted"])
    }

    @Test("errors name the device and what to try; bad sizes are usage errors")
    func errors() throws {
        let bell = try Self.bell(in: dir)
        let missing = try ToolRunner.run("enso", ["play", "--no-journal", "--bell", bell, "--device", "no_such_pcm"])
        #expect(missing.exitCode == 1)
        #expect(missing.stderr.contains("Error: cannot open device 'no_such_pcm'"))
        #expect(missing.stderr.contains("enso devices"))
        let period = try ToolRunner.run(
            "enso", ["play", "--no-journal", "--bell", bell, "--output", "null", "--period", "1000"])
        #expect(period.exitCode == 64)
        #expect(period.stderr.contains("--period: 1000 is not a power of two"))
        let kind = try ToolRunner.run("enso", ["play", "--no-journal", "--bell", bell, "--output", "speaker"])
        #expect(kind.exitCode == 64)
        #expect(kind.stderr.contains("--output: 'speaker' is not alsa[:DEVICE], null or file:PATH"))
        let forever = try ToolRunner.run(
            "enso", ["play", "--no-journal", "--bell", bell, "--repeat", "forever", "--output", "file:\(dir)/x.raw"])
        #expect(forever.exitCode == 64)
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.raw"))
        let both = try ToolRunner.run("enso", ["play", "--no-journal", "--journal", dir + "/j.jsonl", "--bell", bell])
        #expect(both.exitCode == 64 && both.stderr.contains("give one of --journal and --no-journal"), "\(both.stderr)")
        let device = try ToolRunner.run(
            "enso", ["play", "--no-journal", "--bell", bell, "--output", "null", "--device", "hw:0"])
        #expect(device.exitCode == 64, "\(device.stderr)")
        #expect(
            device.stderr.contains("--device: 'hw:0' names an ALSA device, but --output is null"), "\(device.stderr)")
        let twoDevices = try ToolRunner.run(
            "enso", ["play", "--no-journal", "--bell", bell, "--output", "alsa:a", "--device", "b"])
        #expect(twoDevices.exitCode == 64 && twoDevices.stderr.contains("--device: 'b' contradicts --output alsa:a"))
        // --device X is --output alsa:X spelt long: the same device, the same error.
        let long = try ToolRunner.run("enso", ["play", "--no-journal", "--bell", bell, "--output", "alsa:no_such_pcm"])
        #expect(long.exitCode == 1 && long.stderr.contains("Error: cannot open device 'no_such_pcm'"), "\(long.stderr)")
    }
}

/// Runs `enso` with `arguments`, sends `signals` (0.3 s apart) `after` seconds from when it handles them, and waits
/// for it.
struct SignalledRun {
    var exitCode: Int32
    var stdout: String
    var stderr: String
    /// Seconds from the first signal to the exit.
    var seconds: Double

    init(_ arguments: [String], signals: [Int32], after: Double) throws {
        let running = try ToolRunner.Running(ToolRunner.executablePath("enso"), arguments)
        // A signal sent before the process installs its handlers would kill it instead of stopping it gracefully,
        // and starting takes longer on a loaded machine: first wait until it catches them (up to a minute).
        _ = Self.awaitHandlers(of: running.processIdentifier, for: signals, timeout: 60)
        Thread.sleep(forTimeInterval: after)
        let t0 = Date()
        for (i, s) in signals.enumerated() {
            if i > 0 { Thread.sleep(forTimeInterval: 0.3) }
            kill(running.processIdentifier, s)
        }
        // A process that ignores them is killed after a minute (the test fails with a timeout), not waited for
        // forever.
        let result = try running.wait(timeout: 60)
        seconds = Date().timeIntervalSince(t0)
        (exitCode, stdout, stderr) = (result.exitCode, result.stdout, result.stderr)
    }

    /// Waits until process `pid` catches every one of `signals` (its `SigCgt` mask in `/proc`); `false` after
    /// `timeout` seconds or when it has gone.
    static func awaitHandlers(of pid: Int32, for signals: [Int32], timeout: Double) -> Bool {
        let wanted = signals.reduce(UInt64(0)) { $0 | 1 << UInt64($1 - 1) }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
            let caught = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
                .flatMap { UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
            if let caught, caught & wanted == wanted { return true }
            usleep(10_000)
        }
        return false
    }
}
