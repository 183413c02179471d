import Foundation
import Glibc

/// The timings of one scenario and the peak resident memory of the process that did the work.
struct Measurement: Codable {
    var seconds: [Double]
    /// Peak RSS in KiB: of the measuring process (in-process scenarios) or of the timed child process.
    var peakRSSKiB: Int

    var median: Double {
        let s = seconds.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    var min: Double { seconds.min() ?? 0 }
    var max: Double { seconds.max() ?? 0 }

    /// Runs `benchmark` in this process: setup, one untimed warm-up, then `runs` timed runs.
    static func take(_ benchmark: Benchmark, runs: Int) throws -> Measurement {
        if let measuring = benchmark.measuring {
            let body = try measuring.setup()
            _ = try body()
            var times: [Double] = []
            for _ in 0..<runs { times.append(try body()) }
            return Measurement(seconds: times, peakRSSKiB: ownPeakRSS())
        }
        let body = try benchmark.setup()
        try body()
        var times: [Double] = []
        for _ in 0..<runs {
            let start = monotonicSeconds()
            try body()
            times.append(monotonicSeconds() - start)
        }
        return Measurement(
            seconds: times, peakRSSKiB: benchmark.kind == .wholeProcess ? childrenPeakRSS() : ownPeakRSS())
    }

    /// This process's peak RSS (`VmHWM`): belongs to the current image only, unlike `ru_maxrss`, which
    /// Linux carries across `exec` from the parent that spawned us.
    static func ownPeakRSS() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// The largest peak RSS of the processes this one waited for (`getrusage(RUSAGE_CHILDREN)`). Linux
    /// carries `ru_maxrss` across `exec`, so this is never below this small process's own footprint.
    static func childrenPeakRSS() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Int(usage.ru_maxrss)
    }
}

/// CLOCK_MONOTONIC in seconds.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
