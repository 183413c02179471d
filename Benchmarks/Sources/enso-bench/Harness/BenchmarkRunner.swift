import BenchCLISupport
import Foundation

/// Runs the selected scenarios, each run in a fresh child process (so peak RSS is per scenario and one
/// scenario's heap cannot slow another), and prints one table per group with ratios to the baseline.
struct BenchmarkRunner {
    var benchmarks: [Benchmark]
    var runs: Int

    /// Scenarios whose title or group contains any of `filters` (case-insensitive); all when empty.
    static func select(_ all: [Benchmark], filters: [String]) -> [Benchmark] {
        guard !filters.isEmpty else { return all }
        return all.filter { b in
            filters.contains {
                b.title.localizedCaseInsensitiveContains($0) || b.group.localizedCaseInsensitiveContains($0)
            }
        }
    }

    /// The child side: measures one scenario and prints its `Measurement` as JSON on stdout.
    static func runChild(_ benchmark: Benchmark, runs: Int) throws {
        let m = try Measurement.take(benchmark, runs: runs)
        FileHandle.standardOutput.write(try JSONEncoder().encode(m))
    }

    /// The parent side. Runs are interleaved round-robin across a group's members (A B C A B C ...), one
    /// child process per run, so a change in machine load hits every member alike and the ratios hold.
    func run() throws {
        for b in benchmarks { try b.prepare() }
        var results: [String: Result<Measurement, any Error>] = [:]
        var order: [String] = []
        for b in benchmarks where !order.contains(b.group) { order.append(b.group) }
        for group in order {
            let members = benchmarks.filter { $0.group == group }
            for round in 1...runs {
                for b in members {
                    if case .failure = results[b.title] { continue }
                    Terminal.errRaw("\u{1B}[2K  run \(round)/\(runs): \(b.title)\r")
                    do {
                        let m = try measureInChild(b)
                        var sum = (try? results[b.title]?.get()) ?? Measurement(seconds: [], peakRSSKiB: 0)
                        sum.seconds += m.seconds
                        sum.peakRSSKiB = max(sum.peakRSSKiB, m.peakRSSKiB)
                        results[b.title] = .success(sum)
                    } catch {
                        results[b.title] = .failure(error)
                    }
                }
            }
            Terminal.errRaw("\u{1B}[2K")
        }
        var groups: [String] = []
        for b in benchmarks where !groups.contains(b.group) { groups.append(b.group) }
        for group in groups {
            let members = benchmarks.filter { $0.group == group }
            let baseline = members.first { $0.isBaseline }.flatMap { try? results[$0.title]?.get() }
            let throughput = members.contains { $0.items != nil }
            let rss = members.contains { $0.rssTarget != nil }
            var table = TextTable(
                headers: ["scenario", "median", "min", "max", "peak RSS", "ratio", "ratio of mins", "target"]
                    + (throughput ? ["throughput"] : []) + (rss ? ["RSS ratio", "RSS target"] : []),
                alignments: [.left, .right, .right, .right, .right, .right, .right, .left]
                    + (throughput ? [.right] : []) + (rss ? [.right, .left] : []))
            let base = members.first { $0.isBaseline }
            for b in members {
                switch results[b.title]! {
                case .success(let m):
                    // Per item when both count items (300 files against 10 000: the time per file).
                    let scale = Self.perItem(b, base)
                    let ratio = baseline.map { m.median / $0.median * scale }
                    let verdict =
                        b.target.map { t in
                            ratio.map { $0 <= t ? "<= \(Self.figure(t))x ok" : "<= \(Self.figure(t))x OVER" } ?? ""
                        } ?? ""
                    let rssRatio = baseline.map { Double(m.peakRSSKiB) / Double(max(1, $0.peakRSSKiB)) }
                    let rssVerdict =
                        b.rssTarget.map { t in rssRatio.map { $0 <= t ? "<= \(t)x ok" : "<= \(t)x OVER" } ?? "" } ?? ""
                    table.append(
                        [
                            b.title, Self.time(m.median), Self.time(m.min), Self.time(m.max),
                            "\(m.peakRSSKiB / 1024) MiB",
                            ratio.map { String(format: "%.2fx", $0) } ?? "-",
                            baseline.map { String(format: "%.2fx", m.min / $0.min * scale) } ?? "-", verdict,
                        ]
                            + (throughput
                                ? [
                                    b.items.map { String(format: "%.1f %@/s", Double($0.count) / m.median, $0.unit) }
                                        ?? ""
                                ] : [])
                            + (rss ? [rssRatio.map { String(format: "%.2fx", $0) } ?? "-", rssVerdict] : []))
                case .failure(let e):
                    table.append(
                        [b.title, "skipped: \(e)", "", "", "", "", "", ""] + (throughput ? [""] : [])
                            + (rss ? ["", ""] : []))
                }
            }
            Terminal.out(
                "\n\(group)  (\(runs) runs each, interleaved; ratio = median / baseline median, per item when both"
                    + " count items)\n" + table.render())
        }
    }

    private func measureInChild(_ b: Benchmark) throws -> Measurement {
        let output = NSTemporaryDirectory() + "enso-bench-result-\(getpid()).json"
        defer { unlink(output) }
        let exe =
            ProcessInfo.processInfo.arguments[0].hasPrefix("/")
            ? ProcessInfo.processInfo.arguments[0]
            : FileManager.default.currentDirectoryPath + "/" + ProcessInfo.processInfo.arguments[0]
        let status = try Subprocess.run([exe, "--child", b.title, "--runs", "1"], captureTo: output)
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        guard status == 0, let m = try? JSONDecoder().decode(Measurement.self, from: data) else {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw BenchmarkError(text.isEmpty ? "exited \(status)" : text)
        }
        return m
    }

    /// What a time ratio of `b` to `base` is multiplied by to compare time per item: the baseline's items over
    /// `b`'s (1 unless both count items).
    static func perItem(_ b: Benchmark, _ base: Benchmark?) -> Double {
        guard let n = b.items?.count, let baseN = base?.items?.count, n > 0 else { return 1 }
        return Double(baseN) / Double(n)
    }

    /// A target as printed: `0.56`, `1.1`.
    static func figure(_ t: Double) -> String { String(format: "%g", (t * 100).rounded() / 100) }

    static func time(_ s: Double) -> String {
        s >= 1
            ? String(format: "%.3f s", s)
            : s >= 1e-3 ? String(format: "%.2f ms", s * 1e3) : String(format: "%.1f us", s * 1e6)
    }
}
