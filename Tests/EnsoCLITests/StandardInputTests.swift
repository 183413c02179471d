import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `-` (standard input) wherever a command reads an audio file: `bells audition|trim|normalize -`, `loops
/// verify|find|bake -`, through real pipes, named `-` in rows and messages; refused in words (64) where it cannot
/// work: as OUT of a command without `--format`, with `loops find --write`, with `--listen`.
@Suite struct StandardInputTests {
    let fixture = CLIFixture("stdin")

    /// Runs `script` in bash (pipefail) in the fixture's folder, `$ENSO` set.
    func shell(_ script: String) throws -> ToolRunner.Result {
        try ToolRunner.run(
            "/bin/bash", ["-o", "pipefail", "-c", script], environment: ["ENSO": StandardStreamTests.enso],
            currentDirectory: fixture.dir)
    }

    func rows(_ r: ToolRunner.Result) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], "\(r.stderr)")
    }

    @Test func batchCommandsReadStandardInputAsARowNamedDash() throws {
        _ = try PlanCommandTests.makeImpulseBell(in: fixture.dir)
        let loop = LoopSignals.periodicNoise(period: 12_000, frames: 12_000 * 6, seed: 1)
        try AudioFileEncoder.write(loop, to: fixture.dir + "/loop.wav", options: EncodeOptions(format: .wav16))
        let audition = try shell("\"$ENSO\" bells audition --json - < impulse.wav")
        #expect(audition.exitCode != 2 && !audition.stderr.contains("No such file"), "\(audition.stderr)")
        #expect(try rows(audition).first?["file"] as? String == "-")
        let verify = try shell("cat loop.wav | \"$ENSO\" loops verify --json -")
        #expect(verify.exitCode == 0, "\(verify.stderr)")
        let row = try #require(try rows(verify).first)
        #expect(row["file"] as? String == "-" && row["verdict"] as? String == "pass", "\(row)")
        let listen = try shell("cat loop.wav | \"$ENSO\" loops verify --listen -")
        #expect(listen.exitCode == 64 && listen.stderr.contains("can be read once"), "\(listen.stderr)")
    }

    @Test func singleFileCommandsReadStandardInput() throws {
        _ = try PlanCommandTests.makeImpulseBell(in: fixture.dir)
        let cut = LoopSignals.periodicNoise(period: 12_000, frames: 12_000 * 5 + 3_333, seed: 4)
        try AudioFileEncoder.write(cut, to: fixture.dir + "/cut.wav", options: EncodeOptions(format: .wav16))
        let find = try shell("cat cut.wav | \"$ENSO\" loops find --json -")
        #expect(find.exitCode == 0, "\(find.stderr)")
        #expect(find.stdout.contains("\"file\": \"-\""), "\(find.stdout)")
        let write = try shell("cat cut.wav | \"$ENSO\" loops find --write -")
        #expect(write.exitCode == 64 && write.stderr.contains("--write"), "\(write.stderr)")
        let bake = try shell("cat cut.wav | \"$ENSO\" loops bake - baked.wav")
        #expect(bake.exitCode == 0, "\(bake.stderr)")
        #expect(try AudioFileDecoder.info(path: fixture.dir + "/baked.wav").loops.count == 1)
        let trim = try shell("cat impulse.wav | \"$ENSO\" bells trim - trimmed.wav")
        #expect(trim.exitCode == 0, "\(trim.stderr)")
        #expect(FileManager.default.fileExists(atPath: fixture.dir + "/trimmed.wav"))
        for command in ["bells trim", "bells normalize", "loops bake"] {
            let out = try shell("cat impulse.wav | \"$ENSO\" \(command) - -")
            #expect(out.exitCode == 64 && out.stderr.contains("OUT '-' (standard output)"), "\(command): \(out.stderr)")
            #expect(out.stdout.isEmpty)
        }
        let missing = try shell("\"$ENSO\" bells trim missing.wav out.wav")
        #expect(missing.exitCode == 2, "\(missing.stderr)")
    }
}
