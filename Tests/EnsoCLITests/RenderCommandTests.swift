import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@Suite("enso render")
struct RenderCommandTests {
    @Test("renders the whole session to a file with every strike on its planned frame")
    func render() throws {
        let dir = ToolRunner.temporaryDirectory("render")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let planArgs = [
            "--bell", bell, "--sit", "3s", "--strikes", "3", "--spacing", "0.5", "--breath", "1", "--repeat", "3",
            "--fade-out", "0.5", "--rate", "8000",
        ]
        let plan = try ToolRunner.run("enso", ["plan", "--json"] + planArgs)
        #expect(plan.exitCode == 0, "\(plan.stderr)")
        let report = try JSONDecoder().decode(PlanCommandTests.Report.self, from: Data(plan.stdout.utf8))
        let out = dir + "/session.wav"
        let r = try ToolRunner.run("enso", ["render", "-o", out] + planArgs)
        #expect(r.exitCode == 0, "\(r.stderr)")
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

    @Test("--format flac writes FLAC")
    func flac() throws {
        let dir = ToolRunner.temporaryDirectory("render-flac")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let out = dir + "/s.audio"
        let r = try ToolRunner.run("enso", ["render", "-o", out, "--format", "flac", "--bell", bell, "--sit", "2s", "--strikes", "1", "--rate", "8000"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(try AudioFileDecoder.info(path: out).format.uppercased().contains("FLAC"))
    }

    @Test("forever, a missing -o and an unwritable folder are refused, leaving nothing behind")
    func failures() throws {
        let dir = ToolRunner.temporaryDirectory("render-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let forever = try ToolRunner.run("enso", ["render", "-o", dir + "/f.wav", "--bell", bell, "--repeat", "forever"])
        #expect(forever.exitCode == 64)
        #expect(forever.stderr.contains("--repeat: forever runs until stopped"), "\(forever.stderr)")
        let noOutput = try ToolRunner.run("enso", ["render", "--bell", bell])
        #expect(noOutput.exitCode == 64)
        #expect(noOutput.stderr.contains("missing -o FILE"))
        let badFolder = try ToolRunner.run("enso", ["render", "-o", dir + "/no/such/dir/x.wav", "--bell", bell, "--sit", "2s", "--strikes", "1"])
        #expect(badFolder.exitCode == 1)
        #expect(badFolder.stderr.contains("x.wav"), "\(badFolder.stderr)")
        let badStrikes = try ToolRunner.run("enso", ["render", "-o", dir + "/k.wav", "--bell", bell, "--strikes", "4"])
        #expect(badStrikes.exitCode == 64)
        #expect(!FileManager.default.fileExists(atPath: dir + "/k.wav"))
    }
}
