import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDevice

/// Whether a PulseAudio server answers (Tests/Scripts/with-pulse-null-sink.sh starts one for `make test`).
let pulseServerReachable: Bool = {
    guard ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil else { return false }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/pactl")
    p.arguments = ["info"]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/parec")
}()

/// The one real-time smoke test: ALSA's `pulse` PCM into a PulseAudio null sink, captured back with `parec` from
/// the sink's monitor (bit-exact at unity volume, paced by the system clock). Everything about timing that can be
/// checked exactly (pacing, stalls, xruns, the lost-time skip) is checked on a clock moved by hand
/// (``ManualOutputTests``, ``EngineStallTests``); this test shows the same code keeps time on a real sound server,
/// with bounds no load on a shared machine can break.
@Suite(
    .enabled(if: pulseServerReachable, "needs a PulseAudio server (run through Tests/Scripts/with-pulse-null-sink.sh)"))
struct PulseNullSinkTests {
    static let rate = 48_000
    /// How far a bell may be heard from where the clock says: 45 ms, the point at which audio ahead of a picture is
    /// detected (ITU-R BT.1359), so a front end that shows a bell's time never looks out of step with it.
    static let toleranceMs = 45.0

    func config() -> OutputConfig {
        var c = OutputConfig(device: "pulse")
        c.lockMemory = false
        return c
    }

    @Test func fiveSecondsInRealTimeWithOnsetsWhereTheClockSays() throws {
        let rate = Self.rate
        // A marker every second from 0.5 s: 5 events in 5 s.
        let schedule = (0..<5).map { Int64(rate / 2 + $0 * rate) }
        let source = ScheduleSource(schedule: schedule)
        let output = try ALSAOutput(config: config())
        #expect(output.format.sampleRate.hertz == rate)
        #expect(output.format.periodFrames == 2048 && output.format.bufferFrames == 8192)
        let capture = try Capture()
        let t0 = AudioClock.monotonicNow()
        try output.start(source, startFrame: 0, frameLimit: Int64(5 * rate))
        let estimates = try collectEstimates(output, source, until: 60)
        output.stop(drain: true)
        let elapsed = Double(AudioClock.monotonicNow() - t0) / 1e9
        let captured = try capture.finish()

        #expect(output.failure == nil)
        // Paced: 5 s of audio cannot play in less. No upper bound beyond the deadline: a loaded machine may start
        // the thread late, and an xrun there is recovered and skipped (its lost time is then part of the 5 s).
        #expect(elapsed >= 5 - Self.toleranceMs / 1000, "5 s took \(elapsed) s")
        let markers = onsets(captured.left, threshold: 8_000)
        let strikes = onsets(captured.right, threshold: 6_000)
        #expect(markers.count == schedule.count && strikes.count == schedule.count, "\(markers), \(strikes)")
        guard markers.count == schedule.count, strikes.count == schedule.count else { return }
        #expect(zip(strikes, markers).allSatisfy { $0 == $1 })
        // Heard a second apart on the wall clock (the capture is paced by the sink, so its frames are wall time),
        // after an xrun too: the skip keeps later events on their wall-clock times.
        let gaps = zip(markers.dropFirst(), markers).map { Double($0 - $1 - Int64(rate)) * 1000 / Double(rate) }
        #expect(gaps.allSatisfy { abs($0) <= Self.toleranceMs }, "marker spacing off by \(gaps) ms")
        // Every onset where the output's estimate said it would be heard. The capture's own start time is not
        // observable (parec connects asynchronously), so it is fitted as one constant.
        let residuals = try checkOnsets(
            strikes, estimates, captureLaunch: capture.launched, tolerance: Self.toleranceMs)
        let rounded = residuals.map { ($0 * 10).rounded() / 10 }
        print("pulse 5 s: elapsed \(elapsed) s, xruns \(output.xrunCount), onset residuals ms \(rounded)")
    }

    // MARK: - Helpers

    /// Polls `source` while `output` plays and records each event's audible-time estimate as soon as it fires,
    /// as a front end would.
    func collectEstimates(_ output: ALSAOutput, _ source: ScheduleSource, until seconds: Double) throws -> [Int64] {
        var estimates = [Int64?](repeating: nil, count: source.schedule.count)
        let deadline = AudioClock.monotonicNow() + Int64(seconds * 1e9)
        while output.isRunning {
            if AudioClock.monotonicNow() > deadline {
                throw DeviceTestError("playback did not end within \(seconds) s")
            }
            record(&estimates, output, source)
            usleep(5_000)
        }
        record(&estimates, output, source)
        return try estimates.map { try #require($0) }
    }

    /// Records the estimates of fired events once the clock has settled (PulseAudio reports no latency for
    /// the first few hundred milliseconds of a stream; a front end asks again once ``AudioClock/isSettled``).
    func record(_ estimates: inout [Int64?], _ output: ALSAOutput, _ source: ScheduleSource) {
        guard output.clock.isSettled else { return }
        for (i, f) in source.fired.enumerated() where f >= 0 && estimates[i] == nil {
            estimates[i] = output.clock.audibleTime(ofFrame: f)?.monotonicNanoseconds
        }
    }

    /// Fits the capture's start time and checks every onset against its estimate; returns residuals in ms.
    func checkOnsets(_ onsets: [Int64], _ estimates: [Int64], captureLaunch: Int64, tolerance: Double) throws
        -> [Double]
    {
        let rate = Double(Self.rate)
        let starts = zip(onsets, estimates).map { Double($1) - Double($0) * 1e9 / rate }
        let start = starts.sorted()[starts.count / 2]
        // parec's first frame is captured after it was launched and before ``Capture`` stopped waiting for it to
        // connect (20 s), less the estimates' tolerance.
        let afterLaunchMs = (start - Double(captureLaunch)) / 1e6
        #expect(
            afterLaunchMs > -tolerance && afterLaunchMs < 20_000,
            "capture starts \(afterLaunchMs) ms after parec was launched")
        let residuals = starts.map { ($0 - start) / 1e6 }
        for (i, r) in residuals.enumerated() {
            #expect(abs(r) <= tolerance, "onset \(i) is \(r) ms from the output's estimate")
        }
        return residuals
    }

    /// First frames of runs above `threshold` (runs closer than 0.25 s belong to one onset).
    func onsets(_ samples: [Int16], threshold: Int16) -> [Int64] {
        var out: [Int64] = []
        var last = Int64.min / 2
        for (i, s) in samples.enumerated() where abs(Int32(s)) >= Int32(threshold) {
            if Int64(i) - last > Int64(Self.rate / 4) { out.append(Int64(i)) }
            last = Int64(i)
        }
        return out
    }
}

/// A `parec` capture of the null sink's monitor, s16le stereo 48 kHz, into a temporary file.
final class Capture {
    let process = Process()
    let dir = ToolDir()
    let path: String
    /// `CLOCK_MONOTONIC` just before parec was launched.
    let launched: Int64

    init() throws {
        path = dir.path + "/capture.raw"
        guard writeTestFile(path) else {
            throw DeviceTestError("cannot create \(path)")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        process.arguments = [
            "--raw", "--format=s16le", "--rate=48000", "--channels=2", "-d", "nullsink.monitor", "--latency-msec=20",
        ]
        process.standardOutput = handle
        launched = AudioClock.monotonicNow()
        try process.run()
        // Nothing plays before the record stream is connected: the monitor sends silence, so the file grows.
        try waitForCapturedBytes(1, seconds: 20)
    }

    /// The bytes captured so far.
    var capturedBytes: Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
    }

    /// Waits until the file holds `bytes` bytes, for at most `seconds`.
    func waitForCapturedBytes(_ bytes: Int, seconds: Double) throws {
        let deadline = AudioClock.monotonicNow() + Int64(seconds * 1e9)
        while capturedBytes < bytes {
            if AudioClock.monotonicNow() > deadline || !process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                throw DeviceTestError("parec captured \(capturedBytes) of \(bytes) bytes within \(seconds) s")
            }
            usleep(10_000)
        }
    }

    /// Stops the capture and returns its channels.
    func finish() throws -> (left: [Int16], right: [Int16]) {
        // The sound server's latency: the last frames played reach the monitor after a while; 0.3 s more of
        // capture (counted in captured frames, not waited for on the clock) holds them.
        try waitForCapturedBytes(capturedBytes + 48_000 * 4 * 3 / 10, seconds: 20)
        // SIGKILL: parec inherits the test thread's blocked SIGINT/SIGTERM (dispatch workers block them).
        // Everything it received is already in the file (it writes as it reads).
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        defer { dir.remove() }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var left: [Int16] = []
        var right: [Int16] = []
        left.reserveCapacity(data.count / 4)
        right.reserveCapacity(data.count / 4)
        data.withUnsafeBytes { raw in
            let s = raw.bindMemory(to: Int16.self)
            for i in 0..<(s.count / 2) {
                left.append(Int16(littleEndian: s[2 * i]))
                right.append(Int16(littleEndian: s[2 * i + 1]))
            }
        }
        return (left, right)
    }
}
