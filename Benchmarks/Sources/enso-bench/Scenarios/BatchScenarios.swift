import AudioCore
import AudioFile
import BenchSignals
import Foundation
import Glibc

/// Batches at any scale (docs/scale.md): `bells audition --jsonl` over a folder of 300 and of 10 000 one-second
/// bells, and `bells rank` of the 10 000 rows. The figures: files a second (per core: divide by the cores) within
/// 10 % from 300 to 10 000 files, peak RSS within 1.2× (a `--jsonl` run holds a path per file and a few rows per
/// job, never every row), and the ranked table of 10 000 rows in under 1 s.
///
/// The 10 000 files are hard links to 300 distinct bells (each is walked, hashed, decoded and auditioned as its own
/// file; the disk holds 300): a bench machine need not hold 1 GB of fixtures.
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

    /// The `--jsonl` rows of the 10 000 files, for `bells rank` (one audition, made once).
    static func results() throws -> String {
        let path = Fixtures.directory + "/batch-bells-10000.jsonl"
        if access(path, R_OK) == 0 { return path }
        let enso = try StartupScenarios.ensoPath()
        let status = try Subprocess.run(
            [
                "/bin/sh", "-c", #""$0" bells audition --jsonl --progress none "$1" > "$2.tmp" && mv "$2.tmp" "$2""#,
                enso,
                try folder(10_000), path,
            ])
        guard status == 0 else { throw BenchmarkError("bells audition --jsonl of 10 000 files exited \(status)") }
        return path
    }

    static var all: [Benchmark] {
        let group = "Batch: bells audition --jsonl, 300 against 10 000 one-second bells, all cores (files/s, peak RSS)"
        let rankGroup = "Batch: bells rank of 10 000 rows (target: the table in under 1 s)"
        func audition(_ count: Int, baseline: Bool) -> Benchmark {
            Benchmark(
                "enso bells audition --jsonl (\(count) files, whole process)", group: group, baseline: baseline,
                kind: .wholeProcess, items: (count, "files"), prepare: { _ = try folder(count) }
            ) {
                let enso = try StartupScenarios.ensoPath()
                let dir = try folder(count)
                return { try Subprocess.check([enso, "bells", "audition", "--jsonl", "--progress", "none", dir]) }
            }
        }
        return [
            audition(300, baseline: true),
            audition(10_000, baseline: false),
            Benchmark(
                "enso bells rank (10 000 rows, table, whole process)", group: rankGroup, baseline: true,
                kind: .wholeProcess, items: (10_000, "rows"), prepare: { _ = try results() }
            ) {
                let enso = try StartupScenarios.ensoPath()
                let rows = try results()
                return { _ = try Subprocess.run([enso, "bells", "rank", rows]) }
            },
        ]
    }
}
