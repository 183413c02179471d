import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `loops find PATH...` on the one batch runner (issue 44 §1): several files and folders, `--jobs`, `--ordered`,
/// `--jsonl`; what it prints for several files is what it prints for each alone.
@Suite struct LoopsFindBatchTests {
    let fixture = CLIFixture("loops-find-batch")

    /// Three short loops of noise (one in a folder), each repeating every second, one with a click at its end.
    func files() throws -> [String] {
        try FileManager.default.createDirectory(atPath: fixture.dir + "/more", withIntermediateDirectories: true)
        var paths: [String] = []
        for (i, name) in ["a.wav", "b.wav", "more/c.wav"].enumerated() {
            var noise = LoopSignals.periodicNoise(
                period: 48_000, frames: 2 * 48_000, smoothingHz: 2_000, poles: 2, seed: UInt64(11 + i))
            if i == 1 { noise = LoopSignals.addingClick(to: noise, at: 2 * 48_000 - 3, amplitude: 0.5, frames: 3) }
            try AudioFileEncoder.write(noise, to: fixture.dir + "/" + name, options: EncodeOptions(format: .wavf))
            paths.append(fixture.dir + "/" + name)
        }
        return paths
    }

    static func run(_ arguments: [String]) throws -> ToolRunner.Result {
        try ToolRunner.run("enso", ["loops", "find"] + arguments, environment: ["COLUMNS": "400"])
    }

    @Test func severalFilesInOrderEqualOneByOneRuns() throws {
        let paths = try files()
        let options = ["--min-length", "0.5", "--top", "2"]
        let batch = try Self.run(
            options + ["--jsonl", "--jobs", "2", "--ordered", paths[0], paths[1], fixture.dir + "/more"])
        #expect(batch.exitCode == 0, "\(batch.stderr)")
        var alone = ""
        for path in paths {
            let r = try Self.run(options + ["--jsonl", path])
            #expect(r.exitCode == 0, "\(r.stderr)")
            alone += r.stdout
        }
        #expect(batch.stdout.split(separator: "\n").count == 3, "\(batch.stdout)")
        // A file found in a folder has that folder as its root, as it has given alone: the same bytes.
        #expect(batch.stdout == alone)

        // --json: an array of the objects each file prints alone; the table: each file's under its name.
        let json = try Self.run(options + ["--json", "--jobs", "2"] + paths)
        #expect(json.exitCode == 0, "\(json.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [NSDictionary])
        var objects: [NSDictionary] = []
        for path in paths {
            let one = try Self.run(options + ["--json", path])
            objects.append(try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? NSDictionary))
        }
        // Each row of the array is the object one file prints, with `error` (null) as every per-file row has.
        #expect(array.allSatisfy { $0["error"] is NSNull }, "\(json.stdout)")
        let rows = array.map { row -> NSDictionary in
            let kept = row.mutableCopy() as! NSMutableDictionary
            kept.removeObject(forKey: "error")
            return kept
        }
        #expect(rows == objects)
        let table = try Self.run(options + ["--jobs", "2"] + paths)
        for path in paths {
            let one = try Self.run(options + [path])
            #expect(table.stdout.contains(path + ":\n" + one.stdout), "\(table.stdout)")
        }
    }

    /// A file that cannot be read is its own error row; the rest are still searched, and the exit code is 2.
    @Test func anUnreadableFileIsItsOwnRow() throws {
        let paths = try files()
        let missing = fixture.dir + "/missing.wav"
        let r = try Self.run(["--jsonl", "--ordered", "--min-length", "0.5", paths[0], missing])
        #expect(r.exitCode == 2, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(r.stdout)")
        #expect(lines.last?.contains("\"error\"") == true && lines.last?.contains("missing.wav") == true)
        #expect(r.stderr.contains("Error: ") && r.stderr.contains("missing.wav"), "\(r.stderr)")
        let json = try Self.run(["--json", "--min-length", "0.5", paths[0], missing])
        #expect(json.exitCode == 2)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [NSDictionary])
        try #require(array.count == 2, "\(json.stdout)")
        #expect(array[1]["error"] is NSDictionary && array[0]["error"] is NSNull, "\(json.stdout)")
    }
}
