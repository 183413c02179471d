import Testing

@testable import PlaybackService

/// Refused clients are logged one line a second at most, each line with the count since the last, on a clock
/// moved by hand.
@Suite struct RefusalLogTests {
    /// A connect loop refused 114 601 times in 10 s (once per 87 µs): 11 lines, not 114 601, and every refusal
    /// is counted in one of them.
    @Test func aConnectLoopIsOneLineASecondWithItsCount() {
        var log = RefusalLog()
        let t0 = ContinuousClock.now
        var lines: [String] = []
        let total = 114_601
        for i in 0..<total {
            let now = t0 + .microseconds(i * 87)
            if let line = log.refused("too many clients (64 connected)", at: now) { lines.append(line) }
            if let line = log.due(at: now) { lines.append(line) }
        }
        // The refusals after the last line, said once the second is over.
        let end = t0 + .microseconds(total * 87)
        #expect(log.due(at: end) == nil, "said before the second is over")
        if let line = log.due(at: end + .seconds(1)) { lines.append(line) }
        #expect(lines.count <= 12, "\(lines.count) lines")
        #expect(lines.first == "refused a client: too many clients (64 connected)")
        let counted = lines.map { line -> Int in
            line.hasPrefix("refused a client: ") ? 1 : Int(line.split(separator: " ")[1]) ?? 0
        }
        #expect(counted.reduce(0, +) == total, "every refusal counted once: \(lines)")
        #expect(lines.dropFirst().allSatisfy { $0.contains("clients in the last 1.") && $0.hasSuffix("connected)") })
        // Nothing refused since: nothing more to say.
        #expect(log.due(at: end + .seconds(5)) == nil)
    }

    @Test func aLoneRefusalAfterAQuietSecondIsSaidAtOnce() {
        var log = RefusalLog()
        let t0 = ContinuousClock.now
        #expect(log.refused("busy", at: t0) == "refused a client: busy")
        #expect(log.refused("busy", at: t0 + .milliseconds(999)) == nil)
        #expect(log.due(at: t0 + .milliseconds(1000)) == "refused a client: busy")
        #expect(log.refused("busy", at: t0 + .milliseconds(1100)) == nil)
        #expect(log.refused("busy", at: t0 + .milliseconds(1200)) == nil)
        #expect(log.due(at: t0 + .milliseconds(2500)) == "refused 2 clients in the last 1.5 s: busy")
        #expect(log.refused("out of descriptors", at: t0 + .seconds(4)) == "refused a client: out of descriptors")
    }
}
