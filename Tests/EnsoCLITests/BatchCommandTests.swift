import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// Batches at any scale (docs/scale.md): `--jsonl` rows, `--shard`, `--resume`, `--jobs`, `--ordered`, and `bells
/// rank` / `loops report` reading the rows back, end to end on small synthesised bells.
@Suite struct BatchCommandTests {
    let fixture = CLIFixture("batch")

    /// `count` short bells, each a little different (decay, pitch, length), and, when `broken`, a file that is not
    /// audio: a folder that auditions in seconds.
    static func makeBells(in dir: String, count: Int, broken: Bool = false) throws {
        for i in 0..<count {
            let f = 220 * (1 + Double(i % 7) / 7)
            let partials = [
                BellSignals.Partial(f, 0.5, t60: 1.2 + Double(i % 5) * 0.3),
                BellSignals.Partial(f * 2.76, 0.25, t60: 0.9),
                BellSignals.Partial(f * 5.4, 0.1, t60: 0.5),
            ]
            try AudioFileEncoder.write(
                BellSignals.bell(partials, seconds: 1 + Double(i % 3) * 0.25), to: "\(dir)/bell-\(i).wav",
                options: EncodeOptions(format: .wav16))
        }
        if broken { try Data("not audio".utf8).write(to: URL(fileURLWithPath: "\(dir)/broken.wav")) }
    }

    /// The bells' folder under the fixture.
    func bells(count: Int, broken: Bool = false) throws -> String {
        let dir = fixture.dir + "/bells"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Self.makeBells(in: dir, count: count, broken: broken)
        return dir
    }

    /// Each line of a results file as a JSON object; the test fails on a line that is not one (a torn row).
    static func rows(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a whole row: \(line.prefix(80))", sourceLocation: sourceLocation)
            return object
        }
    }

    /// The size of the file at `path` in bytes (0 when it cannot be read).
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    static var hasParallel: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/parallel") }

    /// The docs/scale.md recipe: two shards run by Debian's GNU parallel, merged by `bells rank`, print exactly what
    /// one run prints (the JSON byte for byte, and the table).
    @Test(.enabled(if: hasParallel, "GNU parallel is not installed (make test-deps)"))
    func shardsRunByGNUParallelAndRankedEqualOneRun() throws {
        let dir = try bells(count: 12, broken: true)
        // Two near-duplicates (a copy 6 dB down of two bells): their groups must come out of the shards as whole.
        for i in [0, 3] {
            let original = try AudioFileDecoder.decode(path: "\(dir)/bell-\(i).wav").buffer
            try AudioFileEncoder.write(
                BellSignals.scaled(original, decibels: -6), to: "\(dir)/bell-\(i)-quieter.wav",
                options: EncodeOptions(format: .wav24))
        }
        let one = try ToolRunner.run("enso", ["bells", "audition", "--json", dir])
        #expect(one.exitCode == 2, "\(one.stderr)")
        let enso = ToolRunner.executablePath("enso")
        let all = fixture.dir + "/all.jsonl"
        let script = """
            parallel --will-cite -j 2 "$0" bells audition --jsonl --jobs 1 --progress none --shard {}/2 "$1" ::: 1 2 > "$2"
            """
        _ = try ToolRunner.Running("/bin/sh", ["-c", script, enso, dir, all]).wait()
        let text = try String(contentsOfFile: all, encoding: .utf8)
        let rows = Self.rows(text)
        #expect(rows.count == 15)
        #expect(Set(rows.map { $0["shard"] == nil }) == [true])
        let ranked = try ToolRunner.run("enso", ["bells", "rank", "--json", all])
        #expect(ranked.exitCode == 2, "\(ranked.stderr)")
        #expect(ranked.stdout == one.stdout)
        // The near-duplicates share a group of two, whichever shard each was in.
        let merged = try #require(try JSONSerialization.jsonObject(with: Data(ranked.stdout.utf8)) as? [[String: Any]])
        let sizes = Dictionary(grouping: merged.compactMap { $0["group"] as? Int }) { $0 }.mapValues(\.count)
        #expect(sizes.values.filter { $0 == 2 }.count == 2, "\(sizes)")
        // Each shard held some files, and the two together every one once.
        let shardOne = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "--shard", "1/2", dir])
        let shardTwo = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "--shard", "2/2", dir])
        let (a, b) = (Self.rows(shardOne.stdout), Self.rows(shardTwo.stdout))
        #expect(!a.isEmpty && !b.isEmpty && a.count + b.count == 15)
        let tables = try (
            ToolRunner.run("enso", ["bells", "audition", dir]),
            ToolRunner.run("enso", ["bells", "rank", "-"], stdin: text)
        )
        #expect(tables.0.stdout == tables.1.stdout && tables.1.stdout.contains("15 files:"))
    }

    /// `kill -9` at 10 random moments, each run resuming the last one's results (`--resume R >> R`): the results
    /// hold every file exactly once, every line a whole row, and rank as one run.
    @Test func killedTenTimesAndResumedHoldsEveryFileOnce() throws {
        let dir = try bells(count: 120)
        let results = fixture.dir + "/r.jsonl"
        #expect(FileManager.default.createFile(atPath: results, contents: Data()))
        let enso = ToolRunner.executablePath("enso")
        let script = #"exec "$0" bells audition --jsonl --jobs 2 --progress none --resume "$1" "$2" >> "$1""#
        var random = SeededRandom(seed: 44)
        var killed = 0
        for _ in 0..<10 {
            let before = Self.size(results)
            let run = try ToolRunner.Running("/bin/sh", ["-c", script, enso, results, dir])
            // Into the run's writing: once it has appended a row (or ended), 0-150 ms more, then SIGKILL.
            let deadline = Date().addingTimeInterval(60)
            while run.isRunning && Self.size(results) == before && Date() < deadline { usleep(2_000) }
            usleep(UInt32(random.nextUnit() * 150_000))
            if run.isRunning { killed += 1 }
            kill(run.processIdentifier, SIGKILL)
            _ = try run.wait()
        }
        // Not a check (a fast machine may finish a run in the time): how many kills landed, in the test's log.
        print("BatchCommandTests: \(killed) of 10 runs killed mid-batch")
        let last = try ToolRunner.Running("/bin/sh", ["-c", script, enso, results, dir]).wait()
        #expect(last.exitCode == 0, "\(last.stderr)")
        let text = try String(contentsOfFile: results, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let paths = Self.rows(text).compactMap { $0["relativePath"] as? String }
        #expect(paths.count == 120 && Set(paths).count == 120, "\(paths.count) rows")
        let one = try ToolRunner.run("enso", ["bells", "audition", "--json", dir])
        #expect(try ToolRunner.run("enso", ["bells", "rank", "--json", results]).stdout == one.stdout)
    }

    /// A results file with a foreign line and a torn last line: `bells rank` names both (FILE:LINE) and skips them;
    /// a resumed run appending to it writes a newline first, so its rows start lines of their own.
    @Test func tornAndForeignLinesAreNamedAndAResumeStartsANewLine() throws {
        let dir = try bells(count: 3)
        let first = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", dir + "/bell-0.wav"])
        #expect(first.exitCode == 0, "\(first.stderr)")
        let results = fixture.dir + "/r.jsonl"
        let torn = String(first.stdout.prefix(50)).replacingOccurrences(of: "bell-0", with: "bell-9")
        try Data((first.stdout + "{\"hello\": 1}\n" + torn).utf8).write(to: URL(fileURLWithPath: results))
        let ranked = try ToolRunner.run("enso", ["bells", "rank", results])
        #expect(ranked.stderr.contains("Warning: \(results):2: not a result row of `enso bells audition --jsonl`"))
        #expect(ranked.stderr.contains("Warning: \(results):3: an incomplete last line"))
        #expect(ranked.stdout.contains("1 file:"), "\(ranked.stdout)")
        let enso = ToolRunner.executablePath("enso")
        let resumed = try ToolRunner.Running(
            "/bin/sh", ["-c", #"exec "$0" bells audition --jsonl --resume "$1" "$2" >> "$1""#, enso, results, dir]
        ).wait()
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        let lines = try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").map(String.init)
        // The first row, the foreign line, the torn piece (ended by the resumed run's newline), the two new rows.
        #expect(lines.count == 5 && lines[2] == torn, "\(lines)")
        let relative = lines.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["relativePath"] as? String
        }
        #expect(relative.sorted() == ["bell-0.wav", "bell-1.wav", "bell-2.wav"])
    }

    @Test func shardAndBatchOptionErrorsExit64NamingTheOption() throws {
        let dir = try bells(count: 1)
        for shard in ["3/2", "0/4", "a/b"] {
            let r = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "--shard", shard, dir])
            #expect(r.exitCode == 64 && r.stderr.contains("--shard: '\(shard)'"), "\(r.stderr)")
            let v = try ToolRunner.run("enso", ["loops", "verify", "--shard", shard, dir])
            #expect(v.exitCode == 64 && v.stderr.contains("--shard"), "\(v.stderr)")
        }
        let usage: [([String], String)] = [
            (["--jobs", "0"], "--jobs 0 is outside 1...256"),
            (["--resume", dir + "/none.jsonl"], "--resume appends rows: it needs --jsonl"),
            (["--jsonl", "--resume", dir + "/none.jsonl"], "--resume: \(dir)/none.jsonl does not exist"),
            (["--jsonl", "--json"], "--jsonl and --json cannot be combined"),
            (["--jsonl", "--top", "3"], "--jsonl and --top cannot be combined"),
        ]
        for (options, message) in usage {
            let r = try ToolRunner.run("enso", ["bells", "audition"] + options + [dir])
            #expect(r.exitCode == 64 && r.stderr.contains(message), "\(options): \(r.stderr)")
        }
    }

    /// Rows made with another profile (or by another version) refuse `--resume`: mixing them would rank two kinds
    /// of scores as one.
    @Test func resumeRefusesRowsMadeWithOtherSettings() throws {
        let dir = try bells(count: 2)
        let bowl = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "--profile", "bowl", dir])
        let results = fixture.dir + "/r.jsonl"
        try Data(bowl.stdout.utf8).write(to: URL(fileURLWithPath: results))
        let r = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "--resume", results, dir])
        #expect(r.exitCode == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--resume: \(results):1: a row made with profile=bowl, not profile=temple"))
        // The same settings: every file is done, nothing is written.
        let same = try ToolRunner.run(
            "enso", ["bells", "audition", "--jsonl", "--profile", "bowl", "--resume", results, dir])
        #expect(same.exitCode == 0 && same.stdout.isEmpty, "\(same.stderr)")
        // A folder given for the results is a usage error (it was exit 1, the code of a full disk with --jsonl).
        let folder = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "--resume", dir, dir])
        #expect(folder.exitCode == 64, "\(folder.stderr)")
        #expect(folder.stderr.contains("--resume: \(dir) is a folder, not the results of an earlier --jsonl run"))
    }

    /// `--ordered` prints rows in input order (sorted relative paths), and `--jobs 1` writes the same rows as
    /// `--jobs 2`.
    @Test func orderedRowsAreInInputOrderAndTheSameForAnyJobs() throws {
        let dir = try bells(count: 9)
        let one = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "--ordered", "--jobs", "1", dir])
        let two = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "--ordered", "--jobs", "2", dir])
        #expect(one.exitCode == 0 && two.exitCode == 0, "\(one.stderr)\(two.stderr)")
        let paths = Self.rows(two.stdout).compactMap { $0["relativePath"] as? String }
        #expect(paths == (0..<9).map { "bell-\($0).wav" }.sorted())
        #expect(one.stdout == two.stdout)
        let row = try #require(Self.rows(one.stdout).first)
        #expect(row["command"] as? String == "bells audition" && row["root"] as? String == dir)
        #expect((row["settings"] as? [String: String]) == ["profile": "temple"] && row["rank"] as? Int == 0)
        let identity = try #require(row["identity"] as? [String: Any])
        #expect((identity["hash"] as? String)?.count == 16 && identity["size"] as? Int != nil)
        #expect(row["enso"] as? String != nil && row["verdict"] as? String != nil)
    }

    /// `--progress json`: the files done, the total and the rate, as `render --progress json` prints its seconds.
    @Test func progressJSONCountsFiles() throws {
        let dir = try bells(count: 3)
        let r = try ToolRunner.run("enso", ["bells", "audition", "--progress", "json", "--jsonl", dir])
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }
        let last = try #require(
            lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Double] })
        #expect(last["done"] == 3 && last["total"] == 3 && last["fraction"] == 1 && (last["speed"] ?? 0) > 0)
        let v = try ToolRunner.run("enso", ["loops", "verify", "--progress", "json", dir])
        #expect(v.stderr.contains("\"done\":3"), "\(v.stderr)")
    }

    /// `loops verify --jsonl` rows, in two shards, listed by `loops report` as one `loops verify` lists them.
    @Test func loopsReportEqualsOneVerify() throws {
        let dir = try LoopsCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let one = try ToolRunner.run("enso", ["loops", "verify", "--json", dir])
        var rows = ""
        for shard in ["1/2", "2/2"] {
            rows += try ToolRunner.run("enso", ["loops", "verify", "--jsonl", "--shard", shard, dir]).stdout
        }
        let results = fixture.dir + "/loops.jsonl"
        try Data(rows.utf8).write(to: URL(fileURLWithPath: results))
        let report = try ToolRunner.run("enso", ["loops", "report", "--json", results])
        // On a difference, the first line that differs (a run under load once differed, and said nothing more).
        let firstDifference = zip(report.stdout.split(separator: "\n"), one.stdout.split(separator: "\n"))
            .first { $0 != $1 }.map { "report: \($0)\nverify: \($1)" }
        #expect(
            report.exitCode == one.exitCode && report.stdout == one.stdout,
            "\(report.stderr) \(one.stderr) \(firstDifference ?? "lengths differ")")
        let tables = try (
            ToolRunner.run("enso", ["loops", "verify", dir]), ToolRunner.run("enso", ["loops", "report", results])
        )
        #expect(tables.0.stdout == tables.1.stdout)
        let csv = try (
            ToolRunner.run("enso", ["loops", "verify", "--csv", dir]),
            ToolRunner.run("enso", ["loops", "report", "--csv", results])
        )
        #expect(csv.0.stdout == csv.1.stdout)
    }

    /// A results file of another command's rows, or of none, is the wrong file for `loops report` and `bells rank`:
    /// exit 2 naming it and what it holds, once (`loops report` of an audition's rows had warned once a line, printed
    /// "0 files" and exited 0, so a CI gate pointed at the wrong file passed; `bells rank` exited 1).
    @Test func aResultsFileWithoutRowsOfTheCommandIsAnInputError() throws {
        let dir = try bells(count: 3)
        let bellsFile = fixture.dir + "/bells.jsonl"
        let bellRows = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", dir]).stdout
        try Data(bellRows.utf8).write(to: URL(fileURLWithPath: bellsFile))
        let report = try ToolRunner.run("enso", ["loops", "report", bellsFile])
        #expect(report.exitCode == 2 && report.stdout.isEmpty, "\(report.stdout)")
        #expect(
            report.stderr
                == "Error: \(bellsFile): holds no loops verify rows (3 lines are bells audition rows: use enso bells rank)\n"
        )
        let json = try ToolRunner.run("enso", ["loops", "report", "--json", bellsFile])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: [String: String]]
        #expect(json.exitCode == 2 && object?["error"]?["code"] == "no-rows" && object?["error"]?["file"] == bellsFile)

        let loops = try LoopsCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: loops) }
        let loopRows = try ToolRunner.run("enso", ["loops", "verify", "--jsonl", loops]).stdout
        let rank = try ToolRunner.run("enso", ["bells", "rank", "-"], stdin: loopRows)
        #expect(rank.exitCode == 2 && rank.stdout.isEmpty)
        #expect(
            rank.stderr
                == "Error: -: holds no bells audition rows (3 lines are loops verify rows: use enso loops report)\n")

        // An empty file holds no rows: an error alone, a warning beside rows (a shard may hold no file).
        let empty = fixture.dir + "/empty.jsonl"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for command in [["loops", "report"], ["bells", "rank"]] {
            let r = try ToolRunner.run("enso", command + [empty])
            #expect(r.exitCode == 2 && r.stdout.isEmpty && r.stderr == "Error: \(empty): holds no rows\n", "\(command)")
        }
        let alone = try ToolRunner.run("enso", ["bells", "rank", bellsFile])
        let beside = try ToolRunner.run("enso", ["bells", "rank", bellsFile, empty])
        #expect(beside.exitCode == alone.exitCode && beside.stdout == alone.stdout, "\(beside.stderr)")
        #expect(alone.exitCode < 2 && alone.stdout.contains("3 files:"), "\(alone.stderr)")
        #expect(beside.stderr == "Warning: \(empty): holds no rows\n")

        // Rows of both commands in one file: the other command's are skipped with one warning.
        let mixed = try ToolRunner.run("enso", ["loops", "report", "-"], stdin: bellRows + loopRows)
        #expect(mixed.stdout.contains("3 files:"), "\(mixed.stderr)")
        #expect(
            mixed.stderr.split(separator: "\n").filter { $0.hasPrefix("Warning") } == [
                "Warning: -: 3 lines are bells audition rows, lines 1-3, not loops verify rows: skipped"
            ])
    }

    /// One file is one file however its path is spelled: `--resume` knows the rows of `bells` when given `./bells`,
    /// `bells/`, its absolute path, `x/../bells`, from another folder, or the file itself (a run over `./bells` had
    /// measured every file again, and `bells rank` then counted each twice); rows of one file written under two
    /// spellings are ranked and reported once, the later row in the place of the first.
    @Test func aFileIsOneFileHoweverItsPathIsSpelled() throws {
        _ = try bells(count: 4)
        let here = fixture.dir
        try FileManager.default.createDirectory(atPath: here + "/x", withIntermediateDirectories: true)
        let first = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "bells"], currentDirectory: here)
        #expect(first.exitCode == 0 && Self.rows(first.stdout).count == 4, "\(first.stderr)")
        try Data(first.stdout.utf8).write(to: URL(fileURLWithPath: here + "/r.jsonl"))
        let spellings = [
            "./bells", "bells/", here + "/bells", "x/../bells", ".//bells//", here + "//bells/.", "bells/bell-2.wav",
            "./bells/bell-2.wav",
        ]
        for spelling in spellings {
            let r = try ToolRunner.run(
                "enso", ["bells", "audition", "--jsonl", "--resume", "r.jsonl", spelling], currentDirectory: here)
            #expect(r.exitCode == 0 && r.stdout.isEmpty, "\(spelling): \(Self.rows(r.stdout).count) rows again")
        }
        let elsewhere = try ToolRunner.run(
            "enso", ["bells", "audition", "--jsonl", "--resume", here + "/r.jsonl", "../bells"],
            currentDirectory: here + "/x")
        #expect(elsewhere.exitCode == 0 && elsewhere.stdout.isEmpty, "\(elsewhere.stderr)")

        // The same files' rows twice, as `bells` and as `./bells/`: 4 files, each named as the later run named it.
        let again = try ToolRunner.run("enso", ["bells", "audition", "--jsonl", "./bells/"], currentDirectory: here)
        let twice = first.stdout + again.stdout
        let ranked = try ToolRunner.run("enso", ["bells", "rank", "--json", "-"], stdin: twice)
        let files = try #require(try JSONSerialization.jsonObject(with: Data(ranked.stdout.utf8)) as? [[String: Any]])
            .compactMap { $0["file"] as? String }
        #expect(files.sorted() == (0..<4).map { "./bells/bell-\($0).wav" }, "\(ranked.stderr)")
        #expect(try ToolRunner.run("enso", ["bells", "rank", "-"], stdin: twice).stdout.contains("4 files:"))

        // `loops verify --resume` and `loops report` alike.
        let loops = try LoopsCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: loops) }
        let (parent, name) = ((loops as NSString).deletingLastPathComponent, (loops as NSString).lastPathComponent)
        let verified = try ToolRunner.run("enso", ["loops", "verify", "--jsonl", name], currentDirectory: parent)
        try Data(verified.stdout.utf8).write(to: URL(fileURLWithPath: here + "/l.jsonl"))
        let resumed = try ToolRunner.run(
            "enso", ["loops", "verify", "--jsonl", "--resume", here + "/l.jsonl", "./" + name + "/"],
            currentDirectory: parent)
        #expect(resumed.exitCode == 0 && resumed.stdout.isEmpty, "\(resumed.stderr)")
        let absolute = try ToolRunner.run("enso", ["loops", "verify", "--jsonl", loops])
        let one = try ToolRunner.run("enso", ["loops", "verify", "--json", loops])
        let report = try ToolRunner.run(
            "enso", ["loops", "report", "--json", "-"], stdin: verified.stdout + resumed.stdout + absolute.stdout)
        #expect(report.stdout == one.stdout && report.exitCode == one.exitCode, "\(report.stderr)")
    }

    /// `info` reads files on `--jobs` threads and shows them in the order given (a missing file's error in its
    /// place), the same as on one thread; `--progress json` counts the files.
    @Test func infoReadsOnJobsThreadsInTheOrderGiven() throws {
        let dir = try bells(count: 8)
        let paths = [5, 1, 7, 0, 3].map { "\(dir)/bell-\($0).wav" } + [dir + "/missing.wav", dir + "/bell-2.wav"]
        let one = try ToolRunner.run("enso", ["info", "--json", "--jobs", "1"] + paths)
        let two = try ToolRunner.run("enso", ["info", "--json", "--jobs", "2", "--progress", "json"] + paths)
        #expect(one.exitCode == 2 && two.exitCode == 2, "\(two.stderr)")
        #expect(one.stdout == two.stdout)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(two.stdout.utf8)) as? [[String: Any]])
        #expect(rows.compactMap { $0["file"] as? String } == paths)
        #expect(two.stderr.contains(#"{"done":7,"fraction":1,"#), "\(two.stderr)")
        let text = try (
            ToolRunner.run("enso", ["info", "--jobs", "1"] + paths),
            ToolRunner.run("enso", ["info", "--jobs", "2"] + paths)
        )
        #expect(text.0.stdout == text.1.stdout && text.0.stderr == text.1.stderr)
        let bad = try ToolRunner.run("enso", ["info", "--jobs", "0", paths[0]])
        #expect(bad.exitCode == 64 && bad.stderr.contains("--jobs 0 is outside 1...256"))
    }
}
