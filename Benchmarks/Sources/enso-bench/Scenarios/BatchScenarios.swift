import AudioCore
import AudioFile
import BenchSignals
import Foundation
import Glibc

/// Batches at any scale (docs/scale.md, issue #44's figures), every group titled "Scale:" so that `enso-bench
/// Scale:` (`make bench-scale`) runs just these:
/// - `bells audition --jsonl` over a folder of 300 and of 10 000 one-second bells: files a second per core within
///   10 % (the ratio column is per file: ≤ 1.1), peak RSS within 1.2× (a `--jsonl` run holds a path per file and a
///   few rows per job, never every row);
/// - one core against two (`taskset -c 0` and `-c 0,1`) on `bells audition` and `loops verify`: the ratio is the
///   two cores' time over one's, ≤ 1/1.8 (0.56) for a speed-up of 1.8× or more;
/// - `bells rank` of the 10 000 rows: the table in under 1 s, and `--json` (each row read again whole), with peak
///   RSS (small rows: the 10 000 rows' RSS within 1.2× of 300's plus the small rows).
///
/// The 10 000 files are hard links to 300 distinct bells (each is walked, hashed, decoded and auditioned as its own
/// file; the disk holds 300): a bench machine need not hold 1 GB of fixtures. Their rows are near-duplicate-heavy
/// (33 copies of each sound), the hardest case for grouping.
enum BatchScenarios {
    static let distinct = 300

    /// The folder of `count` bells (hard links to the 300 distinct ones), made when missing.
    static func folder(_ count: Int) throws -> String {
        let unique = Fixtures.folder("batch-bells-unique")
        let sources = try (0..<distinct).map { i in
            try Fixtures.stored(at: "\(unique)/bell-\(i).wav", format: .wav16) {
                let base = 180 + Double((i * 53) % 400)
                let t60 = 0.8 + Double((i * 17) % 30) / 10
                let partials = [1.0, 2.71, 5.4].enumerated().map { k, r in
                    BellSignals.Partial(base * r, 0.25 / Double(k + 1), t60: t60 / (1 + 0.3 * Double(k)))
                }
                return BellSignals.bell(partials, seconds: 1, attack: 0.002 + Double(i % 7) * 0.003)
            }
        }
        let dir = Fixtures.folder("batch-bells-\(count)")
        for i in 0..<count {
            let path = dir + "/" + String(format: "bell-%05d.wav", i)
            if access(path, F_OK) != 0 && link(sources[i % distinct], path) != 0 {
                throw BenchmarkError("cannot link \(path): \(String(cString: strerror(errno)))")
            }
        }
        return dir
    }

    /// The `--jsonl` rows of the first `count` of the 10 000 files, for `bells rank` (one audition, made once, and
    /// again when `enso` is newer than them: rows follow the binary's schema).
    static func results(_ count: Int = 10_000) throws -> String {
        let path = Fixtures.directory + "/batch-bells-10000.jsonl"
        let enso = try StartupScenarios.ensoPath()
        if !isOlder(path, than: enso) { return try firstRows(count, of: path) }
        let status = try Subprocess.run(
            [
                "/bin/sh", "-c", #""$0" bells audition --jsonl --progress none "$1" > "$2.tmp" && mv "$2.tmp" "$2""#,
                enso,
                try folder(10_000), path,
            ])
        guard status == 0 else { throw BenchmarkError("bells audition --jsonl of 10 000 files exited \(status)") }
        return try firstRows(count, of: path)
    }

    /// The file of the first `count` lines of `path` (`path` itself for all of them), made when missing or older.
    static func firstRows(_ count: Int, of path: String) throws -> String {
        if count == 10_000 { return path }
        let part = Fixtures.directory + "/batch-bells-\(count).jsonl"
        if isOlder(part, than: path) {
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").prefix(count)
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: part))
        }
        return part
    }

    /// Whether `path` is missing or was modified before `other`.
    static func isOlder(_ path: String, than other: String) -> Bool {
        var (a, b) = (stat(), stat())
        guard stat(path, &a) == 0 else { return true }
        guard stat(other, &b) == 0 else { return false }
        return (a.st_mtim.tv_sec, a.st_mtim.tv_nsec) < (b.st_mtim.tv_sec, b.st_mtim.tv_nsec)
    }

    /// `loopCount` of the bench's 30 s loops (LoopScenarios) in a folder of their own, for `loops verify` on one
    /// core and on two: enough files to keep two workers busy, few enough for one core in under a minute.
    static let loopCount = 40

    static func loopFolder() throws -> String {
        let sources = try LoopScenarios.verifyFiles().prefix(loopCount)
        let dir = Fixtures.folder("batch-loops-\(loopCount)")
        for source in sources {
            let path = dir + "/" + (source as NSString).lastPathComponent
            if access(path, F_OK) != 0 && link(source, path) != 0 {
                throw BenchmarkError("cannot link \(path): \(String(cString: strerror(errno)))")
            }
        }
        return dir
    }

    static var all: [Benchmark] {
        let group = "Scale: bells audition --jsonl, 300 against 10 000 one-second bells, all cores (ratio per file)"
        let rankGroup = "Scale: bells rank of 300 and 10 000 rows (target: the table of 10 000 in under 1 s)"
        func audition(_ count: Int, baseline: Bool) -> Benchmark {
            Benchmark(
                "enso bells audition --jsonl (\(count) files, whole process)", group: group, baseline: baseline,
                kind: .wholeProcess, target: baseline ? nil : 1.1, rssTarget: baseline ? nil : 1.2,
                items: (count, "files"), prepare: { _ = try folder(count) }
            ) {
                let enso = try StartupScenarios.ensoPath()
                let dir = try folder(count)
                return { try Subprocess.check([enso, "bells", "audition", "--jsonl", "--progress", "none", dir]) }
            }
        }
        // The RSS target: 10 000 rows within 1.2× of 300 (small rows, never the analyses).
        func rank(_ count: Int, _ view: [String], baseline: Bool = false, rssTarget: Double? = nil) -> Benchmark {
            Benchmark(
                "enso bells rank\(view.map { " " + $0 }.joined()) (\(count) rows, whole process)", group: rankGroup,
                baseline: baseline, kind: .wholeProcess, rssTarget: rssTarget, items: (count, "rows"),
                prepare: { _ = try results(count) }
            ) {
                let enso = try StartupScenarios.ensoPath()
                let rows = try results(count)
                let argv = [enso, "bells", "rank"] + view + [rows]
                // Exit 1 is a verdict (no keeper); 2 and up are errors.
                return {
                    let status = try Subprocess.run(argv)
                    if status > 1 { throw BenchmarkError("\(argv.joined(separator: " ")) exited \(status)") }
                }
            }
        }
        return [
            audition(300, baseline: true),
            audition(10_000, baseline: false),
            rank(300, ["--json"], baseline: true),
            rank(300, []),
            rank(10_000, [], rssTarget: 1.2),
            rank(10_000, ["--json"], rssTarget: 1.2),
        ] + cores
    }

    /// One core against two: the same command under `taskset -c 0` (the baseline) and `taskset -c 0,1`.
    static var cores: [Benchmark] {
        func pinned(
            _ name: String, cpus: String, items: Int, _ command: @escaping @Sendable (String) throws -> [String]
        )
            -> Benchmark
        {
            let group = "Scale: one core against two, enso \(name) (taskset; target: ≤ 0.56, a 1.8× speed-up)"
            return Benchmark(
                "taskset -c \(cpus) enso \(name) (whole process)", group: group, baseline: cpus == "0",
                kind: .wholeProcess, target: cpus == "0" ? nil : 1 / 1.8, items: (items, "files"),
                prepare: {
                    guard Subprocess.which("taskset") != nil else { throw BenchmarkError("taskset is not installed") }
                }
            ) {
                let argv = ["taskset", "-c", cpus] + (try command(try StartupScenarios.ensoPath()))
                // `loops verify` exits 1 when some loop fails (half of the bench's do); only 2 and up are errors.
                return {
                    let status = try Subprocess.run(argv)
                    if status > 1 { throw BenchmarkError("\(argv.joined(separator: " ")) exited \(status)") }
                }
            }
        }
        // The bells bench's 300 candidates of 3-15 s (BellScenarios): each file's work, not the batch's serial
        // ranking and printing, is what two cores share.
        let audition: @Sendable (String) throws -> [String] = { enso in
            [enso, "bells", "audition", "--json", "--top", "1"] + (try BellScenarios.files())
        }
        let verify: @Sendable (String) throws -> [String] = { enso in
            [enso, "loops", "verify", "--json", try loopFolder()]
        }
        return [
            pinned("bells audition --json (300 files of 3-15 s)", cpus: "0", items: BellScenarios.count, audition),
            pinned("bells audition --json (300 files of 3-15 s)", cpus: "0,1", items: BellScenarios.count, audition),
            pinned("loops verify --json (\(loopCount) loops of 30 s)", cpus: "0", items: loopCount, verify),
            pinned("loops verify --json (\(loopCount) loops of 30 s)", cpus: "0,1", items: loopCount, verify),
        ]
    }
}
