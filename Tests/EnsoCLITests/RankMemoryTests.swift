import AudioTestSupport
import Foundation
import Glibc
import Testing

/// `bells rank` holds small rows (docs/scale.md, "Memory"): its peak memory grows with the rows by the small rows'
/// size, not the rows' (the sort keys, the table's cells and the likeness signature, where a whole row decoded is
/// tens of kilobytes); and what it prints from them (`--json`, `--csv`, the table; from a file or standard input)
/// is what it printed holding the whole rows.
@Suite struct RankMemoryTests {
    let fixture = CLIFixture("rank-memory")

    /// The lines of one `bells audition --jsonl` run over 12 bells, repeated as `count` rows of distinct files
    /// (copy N of each under `copy-N/`): near-duplicate groups of many members, as a curator's batch of variations
    /// makes.
    func results(_ count: Int, from lines: [Substring], name: String) throws -> String {
        var text = ""
        for i in 0..<count {
            let line = lines[i % lines.count]
            let copy = "copy-\(i / lines.count)/"
            text +=
                line.replacingOccurrences(of: #""relativePath":""#, with: #""relativePath":"\#(copy)"#)
                .replacingOccurrences(of: "/bells/bell-", with: "/bells/\(copy)bell-") + "\n"
        }
        let path = fixture.dir + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The peak resident memory of `enso ARGUMENTS` in KiB (`wait4`'s `ru_maxrss` of that one process), its output
    /// sent to /dev/null.
    static func peakKiB(_ arguments: [String]) throws -> Int {
        let argv = [ToolRunner.executablePath("enso")] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, environ)
        #expect(spawned == 0)
        var status: Int32 = 0
        var usage = rusage()
        // A deadline: the rank of a few thousand rows takes about a second; a hung one is killed after 120 s.
        let deadline = Date().addingTimeInterval(120)
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                Issue.record("enso \(arguments.joined(separator: " ")) did not finish in 120 s")
                break
            }
            usleep(20_000)
        }
        return Int(usage.ru_maxrss)
    }

    @Test func rankMemoryGrowsBySmallRowsAndItsOutputIsUnchanged() throws {
        let dir = fixture.dir + "/bells"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try BatchCommandTests.makeBells(in: dir, count: 12)
        let run = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "--progress", "none", dir])
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 12 && lines.allSatisfy { $0.contains(#""likeness":{"#) }, "\(run.stderr)")
        let small = try results(300, from: lines, name: "300.jsonl")
        let large = try results(3_300, from: lines, name: "3300.jsonl")

        // 3 000 rows more: a few KiB each (the signature is most of it), not the ~35 KiB a whole row decoded takes.
        let (smallPeak, largePeak) = (
            try Self.peakKiB(["bells", "rank", "--json", small]), try Self.peakKiB(["bells", "rank", "--json", large])
        )
        #expect(
            smallPeak > 0 && largePeak - smallPeak < 3_000 * 8, "300 rows: \(smallPeak) KiB, 3 300: \(largePeak) KiB")

        // The views of the rows are those of the whole rows, from a file and from standard input alike.
        let text = try String(contentsOfFile: large, encoding: .utf8)
        for view in [["--json"], ["--csv"], [], ["--unique", "--top", "5", "--json"]] {
            let fromFile = try ToolRunner.run("enso", ["bells", "rank"] + view + [large])
            let fromStdin = try ToolRunner.run("enso", ["bells", "rank"] + view + ["-"], stdin: text)
            #expect(fromFile.exitCode <= 1 && fromFile.exitCode == fromStdin.exitCode, "\(view): \(fromFile.stderr)")
            #expect(fromFile.stdout == fromStdin.stdout, "\(view)")
        }
        let json = try ToolRunner.run("enso", ["bells", "rank", "--json", large]).stdout
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(rows.count == 3_300 && rows.map { $0["rank"] as? Int } == (1...3_300).map { $0 })
        // Each sound's 275 copies are one near-duplicate group.
        #expect(Set(rows.compactMap { $0["group"] as? Int }).count <= 12)
    }
}
