import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// What `enso` does with the terminal it writes to: tables fitted to `COLUMNS` (also when piped), and a reader that
/// stops early (`| head -c 10`, `| soxi -`) ended quietly.
@Suite struct TerminalOutputTests {
    let fixture = CLIFixture("terminal")

    /// The lines of `text` longer than `width`.
    static func over(_ width: Int, _ text: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.count > width }
    }

    /// `loops verify` and `bells audition` tables: at COLUMNS=100 no line passes 100 and the reasons wrap under
    /// their column, whole; piped without COLUMNS each row stays on one line (the same tables are wider than 100).
    @Test func tablesFitColumnsAlsoWhenPiped() throws {
        let dir = fixture.dir
        let cut = LoopSignals.periodicNoise(period: 12_000, frames: 12_000 * 6 + 4_321, seed: 2)
        try AudioFileEncoder.write(cut, to: dir + "/cut.flac", options: EncodeOptions(format: .flac))
        _ = try PlanCommandTests.makeImpulseBell(in: dir, amplitude: 1, name: "a-rather-long-candidate-name.wav")
        for command in [["loops", "verify", "cut.flac"], ["bells", "audition", "a-rather-long-candidate-name.wav"]] {
            let wide = try ToolRunner.run("enso", command, currentDirectory: dir)
            #expect(!Self.over(100, wide.stdout).isEmpty, "\(command): the table fits 100 already:\n\(wide.stdout)")
            let fitted = try ToolRunner.run("enso", command, environment: ["COLUMNS": "100"], currentDirectory: dir)
            #expect(fitted.exitCode == wide.exitCode)
            #expect(Self.over(100, fitted.stdout).isEmpty, "\(command):\n\(fitted.stdout)")
            // Wrapped, not cut: every character of the wide table's rows is there (the rules aside).
            let content = { (s: String) in
                s.split(separator: "\n").filter { !$0.allSatisfy { " -".contains($0) } }.joined()
                    .filter { !$0.isWhitespace }
            }
            #expect(content(fitted.stdout).sorted() == content(wide.stdout).sorted())
            #expect(fitted.stdout.split(separator: "\n").count > wide.stdout.split(separator: "\n").count)
        }
    }

    /// Runs `enso` with its stdout a pipe nobody reads any more (the read end closed before it starts, so the
    /// first write meets it, whatever the machine's speed); returns the exit status and stderr.
    static func runWithClosedOutput(
        _ arguments: [String], temporaryFolder: String
    ) throws -> (status: Int32, signaled: Bool, stderr: String) {
        BrokenPipes.ignore()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.executablePath("enso"))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporaryFolder]) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try out.fileHandleForReading.close()
        try process.run()
        try out.fileHandleForWriting.close()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        let deadline = Date().addingTimeInterval(ToolRunner.defaultTimeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (
            process.terminationStatus, process.terminationReason == .uncaughtSignal,
            String(decoding: stderr, as: UTF8.self)
        )
    }

    /// `info --json | head -c 10` and `convert IN - | soxi -`: no "Broken pipe", exit 141 (docs/cli.md), and no
    /// temporary file left.
    @Test func aReaderThatStopsEarlyEndsQuietly() throws {
        let input = try ConvertCommandTests.source(in: fixture.dir)
        let tmp = fixture.dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        for arguments in [
            ["info", "--json", input], ["convert", input, "-", "--format", "wav16"], ["loops", "verify", input],
        ] {
            let r = try Self.runWithClosedOutput(arguments, temporaryFolder: tmp)
            #expect(!r.signaled && r.status == 141 && r.stderr.isEmpty, "\(arguments): \(r)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
    }
}
