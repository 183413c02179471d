import BenchCLISupport
import Foundation

// enso-bench [FILTER ...] [--runs N] [--list]
//   Runs every scenario whose title or group contains a FILTER word (all when none), each in its own
//   child process, and prints median/min/max, peak RSS and the ratio to the group's baseline peer.
// Internal: enso-bench --child TITLE --runs N measures one scenario and prints JSON.

// The same allocator settings as `enso` itself, for the in-process scenarios (peers and ours alike).
AllocatorTuning.forBatchWork()
let all = ScenarioList.all
var args = Array(CommandLine.arguments.dropFirst())
var runs = 5
var child: String?
var list = false
var filters: [String] = []
while !args.isEmpty {
    let a = args.removeFirst()
    switch a {
    case "--runs":
        guard let n = args.first.flatMap(Int.init), n > 0 else {
            Terminal.err("Error: --runs needs a positive whole number")
            exit(64)
        }
        runs = n
        args.removeFirst()
    case "--child": child = args.isEmpty ? nil : args.removeFirst()
    case "--list": list = true
    case "-h", "--help":
        Terminal.out(
            "USAGE: enso-bench [<filter> ...] [--runs <n>] [--list]\n\nScenarios:\n"
                + all.map { "  \($0.title)" }.joined(separator: "\n"))
        exit(0)
    default: filters.append(a)
    }
}

do {
    if let child {
        guard let b = all.first(where: { $0.title == child }) else { throw BenchmarkError("no scenario \(child)") }
        try BenchmarkRunner.runChild(b, runs: runs)
    } else {
        let selected = BenchmarkRunner.select(all, filters: filters)
        if list || selected.isEmpty {
            if selected.isEmpty {
                Terminal.err("No scenario matches \(filters.joined(separator: " ")); --list shows them.")
            }
            for b in all { Terminal.out(b.title) }
            exit(selected.isEmpty ? 64 : 0)
        }
        try BenchmarkRunner(benchmarks: selected, runs: runs).run()
    }
} catch {
    Terminal.err("Error: \(error)")
    exit(1)
}
