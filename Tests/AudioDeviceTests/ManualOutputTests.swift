import AudioCore
import Foundation
import Testing

@testable import AudioDevice

/// The null device on a clock moved by hand, stepped on the test's thread: pacing, stalls, xruns, the lost-time
/// skip and device failure, checked exactly and whatever the machine's load (nothing here waits on a real clock).
@Suite struct ManualOutputTests {
    static let rate = 48_000
    /// One frame at 48 kHz in nanoseconds: the resolution of a device's delay, so of every clock reading.
    static let frameNs: Int64 = 20_834

    /// Steps `output` until `frame` is heard, failing when it ends first.
    static func play(_ output: ManualOutput, untilHeard frame: FramePosition) throws {
        while (output.clock.frameHeardNow ?? 0) < frame {
            guard output.step() else { throw DeviceTestError("the output ended before frame \(frame) was heard") }
        }
    }

    @Test func playsAtExactlyTheStreamRate() throws {
        let output = try ManualOutput()
        #expect(output.advance(periods: 1) == 0, "nothing plays before start")
        let t0 = output.now
        try output.start(ToneSource(), startFrame: 0, frameLimit: 24_000)  // 0.5 s
        // The 8192-frame buffer takes four periods at once: time stands still until it is full.
        #expect(output.advance(periods: 4) == 4)
        #expect(output.now == t0)
        // From then on each write waits for the device to play a period: the clock moves by one period.
        #expect(output.step())
        #expect(output.now == t0 + AudioClock.nanoseconds(frames: 2048, rate: Self.rate))
        #expect(output.runToEnd() == 7)  // 11 full periods of 2048 and one partial in all
        #expect(!output.isRunning && !output.step())
        output.stop(drain: true)
        // Draining plays the buffer out: 0.5 s of audio took 0.5 s of the device's time, to the nanosecond.
        #expect(output.now - t0 == 500_000_000)
        #expect(output.statistics.periodCount == 12)
        #expect(output.xrunCount == 0 && output.lostFrameCount == 0 && output.failure == nil)
        // Frame 0 was heard when the first write started the stream, to the frame; the wall clock is the
        // monotonic one plus the offset the output was given.
        let heard0 = try #require(output.clock.audibleTime(ofFrame: 0))
        #expect(abs(heard0.monotonicNanoseconds - t0) <= Self.frameNs, "frame 0 heard at \(heard0), t0 \(t0)")
        #expect(heard0.realtimeNanoseconds - heard0.monotonicNanoseconds == 1_800_000_000_000_000_000 - 1_000_000_000)
        #expect(output.clock.isSettled)
    }

    @Test func aStallIsAnXrunAndLaterEventsKeepTheirWallClockTimes() throws {
        // 0.25 s before the stall; 0.6 s falls inside it; 1.2 and 1.6 s come after it.
        let schedule: [Int64] = [12_000, 28_800, 57_600, 76_800]
        let source = ScheduleSource(schedule: schedule)
        let output = try ManualOutput()
        try output.start(source, startFrame: 0, frameLimit: 96_000)
        try Self.play(output, untilHeard: 16_800)
        let origin = try #require(output.clock.audibleTime(ofFrame: 0)).monotonicNanoseconds
        let heard = try #require(output.clock.frameHeardNow)
        let queued = Int64(output.statistics.periodCount * 2048) - heard
        // The render thread is descheduled for 400 ms, more than the 171 ms the buffer holds.
        output.stall(nanoseconds: 400_000_000)
        output.runToEnd()
        output.stop(drain: false)

        #expect(output.xrunCount == 1)
        // The device played what was queued, then ran dry for the rest of the stall: that much wall time is lost,
        // to the frame (the device's delay is in whole frames).
        let lost = Int64(output.lostFrameCount)
        #expect(abs(lost - (19_200 - queued)) <= 1, "lost \(lost) frames, queued \(queued)")
        #expect(lost == source.skipped)
        let fired = source.fired
        #expect(fired[0] == schedule[0])
        // Due during the stall: struck late, never skipped, never early; late by at most the lost time.
        #expect(fired[1] > schedule[1] && fired[1] - schedule[1] <= lost, "fired \(fired)")
        // After the stall: on their frames, and heard at their wall-clock times to the frame.
        #expect(Array(fired[2...]) == Array(schedule[2...]))
        for i in 2..<schedule.count {
            let heard = try #require(output.clock.audibleTime(ofFrame: fired[i])).monotonicNanoseconds
            let due = origin + AudioClock.nanoseconds(frames: schedule[i], rate: Self.rate)
            #expect(abs(heard - due) <= Self.frameNs, "event \(i) heard \(heard - due) ns from its time")
        }
    }

    @Test func aSourceWithoutAWallClockPlaysOnLate() throws {
        let output = try ManualOutput()
        try output.start(ToneSource(), startFrame: 0, frameLimit: 48_000)
        try Self.play(output, untilHeard: 4_800)
        output.stall(nanoseconds: 300_000_000)
        output.runToEnd()
        output.stop(drain: false)
        #expect(output.xrunCount == 1)
        #expect(output.lostFrameCount == 0)  // nothing to skip: the tone just continues where it was
        #expect(output.statistics.periodCount == 24)  // every frame was still rendered: 23 periods and a partial
    }

    @Test func aStallShorterThanTheBufferIsNoXrun() throws {
        let output = try ManualOutput()
        try output.start(ToneSource(), startFrame: 0, frameLimit: 48_000)
        output.advance(periods: 8)
        // The buffer is full (8192 frames, 171 ms): a 150 ms stall leaves the device something to play.
        output.stall(nanoseconds: 150_000_000)
        output.runToEnd()
        #expect(output.xrunCount == 0 && output.lostFrameCount == 0)
    }

    @Test func aDeviceThatDisappearsStopsTheLoopWithAnErrorNamingIt() throws {
        let clock = ManualClock(monotonic: 1_000_000_000, realtime: 1_800_000_000_000_000_000)
        let format = try OutputConfig().unnegotiatedFormat(.float32)
        let sink = FailingSink(name: "usb-dac", format: format, clock: clock)
        let output = ManualOutput(sink: sink, format: format, clock: clock)
        try output.start(ToneSource())
        #expect(output.advance(periods: 3) == 3)
        sink.writeError = -ENODEV
        #expect(!output.step(), "the loop ends at the failed write")
        #expect(!output.isRunning)
        let failure = try #require(output.failure)
        #expect(failure.kind == .unavailable)
        #expect(failure.code == -ENODEV)
        #expect(failure.message.contains("device 'usb-dac'"))
        #expect(failure.message.contains("disappeared"))
        output.stop(drain: true)
        // The error is still there after stop, for whoever asks later.
        #expect(output.failure?.code == -ENODEV)
        #expect(output.xrunCount == 0)
    }

    @Test func anUnderrunReportedByTheDeviceIsRecoveredAndCounted() throws {
        let clock = ManualClock(monotonic: 1_000_000_000, realtime: 1_800_000_000_000_000_000)
        let format = try OutputConfig().unnegotiatedFormat(.float32)
        let sink = FailingSink(name: "usb-dac", format: format, clock: clock)
        let output = ManualOutput(sink: sink, format: format, clock: clock)
        try output.start(ToneSource(), startFrame: 0, frameLimit: 20_480)
        output.advance(periods: 2)
        // One write fails with -EPIPE, as ALSA reports an underrun: recovered, counted, the period written again.
        sink.writeError = -EPIPE
        sink.failOnce = true
        #expect(output.runToEnd() == 8)
        #expect(output.xrunCount == 1 && output.failure == nil)
        #expect(output.statistics.periodCount == 10)
    }

    @Test func restartsWhereTheNextSourceBegins() throws {
        let output = try ManualOutput()
        try output.start(ToneSource(), startFrame: 0, frameLimit: 4_096)
        #expect(output.runToEnd() == 2)
        output.stop(drain: true)
        try output.start(ToneSource(), startFrame: 1_000_000, frameLimit: 4_096)
        #expect(output.runToEnd() == 2)
        output.stop(drain: true)
        #expect(output.clock.anchor?.frame == 1_004_096)
    }
}
