import AudioCore
import Foundation
import Testing

@testable import AudioDevice

/// The paced null output: real time without a device, and the stall/skip logic with an exact clock.
/// Serialized: the tests measure wall time, and two of them at once would compete for the 2 cores.
@Suite(.serialized) struct NullOutputTests {
    func config() -> OutputConfig {
        var c = OutputConfig()
        c.lockMemory = false
        return c
    }

    @Test func playsInRealTime() throws {
        let output = try NullOutput(config: config())
        let frames: FrameCount = 24_000  // 0.5 s
        let t0 = AudioClock.monotonicNow()
        try output.start(ToneSource(), startFrame: 0, frameLimit: frames)
        try waitUntilStopped(output, seconds: 5)
        output.stop(drain: true)
        let elapsed = Double(AudioClock.monotonicNow() - t0) / 1e9
        // The real-time smoke test, with bounds no load can break: the sink drains on CLOCK_MONOTONIC, so 0.5 s of
        // audio cannot take less than 0.5 s; on a shared machine the thread's start and wake-ups may be late by
        // far more than a period, so the upper bound only catches a sink that is not paced at all (2 s). An xrun
        // under load is possible and harmless here (a tone has no timeline to skip), so it is not asserted.
        #expect(elapsed >= 0.5 && elapsed < 2.5, "0.5 s took \(elapsed) s")
        #expect(output.statistics.periodCount == 12)  // 11 full periods of 2048 and one partial
        // Frame 0 was heard when the stream started, after start() (by at most the same 2 s of lateness).
        let heard0 = try #require(output.clock.audibleTime(ofFrame: 0))
        let startMs = Double(heard0.monotonicNanoseconds - t0) / 1e6
        #expect(startMs >= 0 && startMs < 2_000, "frame 0 heard \(startMs) ms after start()")
        #expect(
            abs(
                heard0.realtimeNanoseconds - heard0.monotonicNanoseconds
                    - (AudioClock.realtimeNow() - AudioClock.monotonicNow())) < 5_000_000)
    }

    @Test func stallKeepsLaterEventsOnTheirWallClockTimes() throws {
        let rate = 48_000
        // 0.25 s before the stall; 0.6 s falls inside it; 1.2 and 1.6 s come after it.
        let schedule: [Int64] = [12_000, 28_800, 57_600, 76_800]
        let source = ScheduleSource(schedule: schedule)
        let output = try NullOutput(config: config())
        try output.start(source, startFrame: 0, frameLimit: 96_000)
        try waitUntilHeard(output, frame: 16_800, seconds: 5)
        let origin = try #require(output.clock.audibleTime(ofFrame: 0)).monotonicNanoseconds
        output.injectStall(nanoseconds: 400_000_000)  // more than the 171 ms buffer
        try waitUntilStopped(output, seconds: 5)
        output.stop(drain: false)

        #expect(output.xrunCount == 1)
        // The sink ran dry after its 171 ms buffer and stayed silent for the rest of the 400 ms stall:
        // about 229 ms were lost (± one period of 43 ms for where in the period the stall began).
        let lostMs = Double(output.lostFrameCount) * 1000 / Double(rate)
        #expect(lostMs > 180 && lostMs < 280, "lost \(lostMs) ms")
        #expect(Int64(output.lostFrameCount) == source.skipped)
        let fired = source.fired
        #expect(fired.allSatisfy { $0 >= 0 }, "every event fired: \(fired)")
        #expect(fired[0] == schedule[0])
        // Due during the stall: struck late, never skipped, never early; late by at most the stall.
        #expect(fired[1] > schedule[1] && fired[1] - schedule[1] < 19_200)
        // After the stall: on their frames, and heard at their wall-clock times. The null sink's clock is
        // exact, so 5 ms only covers the rounding of the skip and thread wake-up in the readings.
        #expect(Array(fired[2...]) == Array(schedule[2...]))
        for i in 2..<schedule.count {
            let heard = try #require(output.clock.audibleTime(ofFrame: fired[i])).monotonicNanoseconds
            let due = origin + AudioClock.nanoseconds(frames: schedule[i], rate: rate)
            #expect(
                abs(Double(heard - due) / 1e6) < 5, "event \(i) heard \(Double(heard - due) / 1e6) ms from its time")
        }
    }

    @Test func sourceWithoutWallClockPlaysOnLate() throws {
        let output = try NullOutput(config: config())
        try output.start(ToneSource(), startFrame: 0, frameLimit: 48_000)
        try waitUntilHeard(output, frame: 4_800, seconds: 5)
        output.injectStall(nanoseconds: 300_000_000)
        try waitUntilStopped(output, seconds: 5)
        output.stop(drain: false)
        #expect(output.xrunCount == 1)
        #expect(output.lostFrameCount == 0)  // nothing to skip: the tone just continues where it was
    }

    @Test func restartsAfterStop() throws {
        let output = try NullOutput(config: config())
        try output.start(ToneSource(), startFrame: 0, frameLimit: 4_096)
        try waitUntilStopped(output, seconds: 5)
        output.stop(drain: true)
        try output.start(ToneSource(), startFrame: 1_000_000, frameLimit: 4_096)
        try waitUntilStopped(output, seconds: 5)
        output.stop(drain: true)
        #expect(output.clock.anchor?.frame == 1_004_096)
    }
}
