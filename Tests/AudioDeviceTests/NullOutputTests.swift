import AudioCore
import Foundation
import Testing

@testable import AudioDevice

/// The paced null output on its render thread. Its device is ``ManualOutput``'s on the system clock, so pacing,
/// stalls and the skip are checked there, exactly; here only what the thread adds: it starts, ends at its limit,
/// is paced by `CLOCK_MONOTONIC` and starts again.
@Suite struct NullOutputTests {
    @Test func isPacedByTheSystemClockAndRestarts() throws {
        var config = OutputConfig()
        config.lockMemory = false
        let output = try NullOutput(config: config)
        let t0 = AudioClock.monotonicNow()
        try output.start(ToneSource(), startFrame: 0, frameLimit: 4_096)
        try waitUntilStopped(output, seconds: 10)
        output.stop(drain: true)
        // Draining waits on CLOCK_MONOTONIC until the buffer has played, so 4096 frames (85.3 ms) cannot take
        // less. No upper bound: a loaded machine may run the thread late by any amount.
        #expect(AudioClock.monotonicNow() - t0 >= AudioClock.nanoseconds(frames: 4_096, rate: 48_000))
        #expect(output.statistics.periodCount == 2)
        try output.start(ToneSource(), startFrame: 1_000_000, frameLimit: 4_096)
        try waitUntilStopped(output, seconds: 10)
        output.stop(drain: true)
        #expect(output.clock.anchor?.frame == 1_004_096)
        #expect(output.failure == nil)
    }
}
