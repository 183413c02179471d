import AudioCore
import AudioDevice
import AudioEngine
import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// The one live-session runner, in process: on an unpaced file output its times are the frame count, and on the
/// null device with a clock moved by hand (``ManualOutput``) they are the clock's, so every event time, `endsAt` and
/// the record are exact, whatever the machine's load.
@Suite struct RunningSessionTests {
    static let rate = SampleRate.hz48000
    /// The start of every sitting here: a fixed wall-clock time, so times are checked to the millisecond.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    /// One frame at 48 kHz, in seconds: the resolution of a device's clock readings.
    static let frame = 1.0 / 48_000

    /// A sitting of `sitting` seconds, 2 strikes 0.5 s apart, 0.1 s fades, once, on `output` (`unpaced`: a file).
    static func session(sitting: Double, output: any AudioOutput, unpaced: Bool, journal: SessionJournal?) throws
        -> RunningSession
    {
        let plan = SessionPlan(
            sitting: sitting, bell: "impulse", strikes: 2, strikeSpacing: 0.5, breath: 0, fadeIn: 0.1, fadeOut: 0.1,
            repeatMode: .once)
        let bell = try LoadedAsset(
            id: "impulse",
            buffer: AudioBuffer(channelData: [SignalGenerator.impulse(frames: 480, amplitude: 0.5)], sampleRate: rate),
            loop: nil)
        let timeline = try SessionTimeline(plan: plan, sampleRate: rate, bellTail: bell.decayFrames(gain: 1))
        let engine = try SessionEngine(plan: plan, timeline: timeline, assets: EngineAssets(bell: bell, ambient: nil))
        engine.prepare(maxFrames: output.format.periodFrames)
        return RunningSession(
            plan: plan, engine: engine, output: output, startDate: start, unpaced: unpaced, journal: journal)
    }

    /// A sitting on an unpaced file output in `dir`.
    static func session(sitting: Double, dir: String, journal: SessionJournal?) throws -> RunningSession {
        let choice = OutputChoice.file(path: dir + "/out.raw")
        return try session(sitting: sitting, output: choice.open(rate: rate), unpaced: true, journal: journal)
    }

    /// The null device on a clock moved by hand, whose wall clock reads ``start`` when the sitting starts.
    static func manualOutput() throws -> ManualOutput {
        try ManualOutput(realtimeStart: Int64(start.timeIntervalSince1970) * 1_000_000_000)
    }

    /// A 10 s sitting on the manual null device, started and played for `periods` periods (its events polled).
    static func playing(periods: Int) throws -> (ManualOutput, RunningSession) {
        let output = try manualOutput()
        let s = try session(sitting: 10, output: output, unpaced: false, journal: nil)
        try s.start()
        #expect(output.advance(periods: periods) == periods)
        _ = s.poll()
        return (output, s)
    }

    /// Polls `s` until it ends or its output stops (a file cut at the plan's end), for at most 30 s.
    static func run(_ s: RunningSession, until stop: (RunningSession) -> Void = { _ in }) -> [LiveEvent] {
        var events: [LiveEvent] = []
        let deadline = Date().addingTimeInterval(30)
        while !s.ended && s.output.isRunning && Date() < deadline {
            events += s.poll()
            stop(s)
            usleep(1_000)
        }
        return events + s.poll()
    }

    @Test func aCompletedSittingIsStampedExactlyAndJournaled() throws {
        let dir = ToolRunner.temporaryDirectory("running-session")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let journal = SessionJournal(path: dir + "/j.jsonl")
        let s = try Self.session(sitting: 1, dir: dir, journal: journal)
        try s.start(frameLimit: s.timeline.endFrame)
        // The first checkpoint is written at the start: a crash from here on is recovered.
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal.checkpointFolder).contains("\(s.id).json"))
        let events = Self.run(s)
        let bells = events.compactMap { e -> (LiveEvent.BellGroup, FramePosition, LiveEvent)? in
            guard case .timeline(let ev, let group?) = e.kind, ev.kind == .strike else { return nil }
            return (group, ev.frame, e)
        }
        #expect(bells.map(\.0) == [.opening, .opening, .closing, .closing])
        #expect(bells.map(\.1) == [0, 24_000, 48_000, 72_000])
        for (_, frame, e) in bells {
            // Unpaced: heard at the start plus the frames; no pause, so session and output frames agree.
            #expect(e.outputFrame == frame)
            #expect(abs(e.heardAt.timeIntervalSince(Self.start) - Double(frame) / 48_000) < 1e-6)
        }
        // Until the closing bell, every event says when it is heard (1 s after the start); from it on, nothing.
        #expect(bells[0].2.endsAt.map { abs($0.timeIntervalSince(Self.start) - 1) < 1e-6 } == true)
        #expect(bells[2].2.endsAt.map { abs($0.timeIntervalSince(Self.start) - 1) < 1e-6 } == true)
        let finished = s.finish()
        #expect(finished.journalError == nil)
        #expect(finished.record.outcome == .completed)
        #expect(finished.record.satSeconds == 1 && finished.record.plannedSeconds == 1)
        #expect(finished.record.cyclesCompleted == 1)
        let contents = try journal.read()
        #expect(contents.records == [finished.record])
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal.checkpointFolder).isEmpty)
    }

    /// An unpaced file's time is its frame count, for the record as for the events: its `end` is the start plus
    /// the frames written (the closing ring and fade included), not the wall clock a few milliseconds after the
    /// start, which put `end` − `start` far below the sat time.
    @Test func aFileOutputsRecordEndsOnItsOwnClock() throws {
        let dir = ToolRunner.temporaryDirectory("running-session")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try Self.session(sitting: 1, dir: dir, journal: SessionJournal(path: dir + "/j.jsonl"))
        let endFrame = try #require(s.timeline.endFrame)
        try s.start(frameLimit: endFrame)
        _ = Self.run(s)
        let record = s.finish().record
        let start = try #require(ProtocolTime.parse(record.start))
        let end = try #require(ProtocolTime.parse(record.end))
        // To the millisecond the record is written in.
        #expect(abs(end.timeIntervalSince(start) - Double(endFrame) / 48_000) <= 0.001, "\(record)")
        #expect(end.timeIntervalSince(start) >= record.satSeconds)
    }

    @Test func aStopBeforeTheClosingBellIsAStoppedSittingSatUpToTheStop() throws {
        let dir = ToolRunner.temporaryDirectory("running-session")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let journal = SessionJournal(path: dir + "/j.jsonl")
        let output = try Self.manualOutput()
        let s = try Self.session(sitting: 10, output: output, unpaced: false, journal: journal)
        try s.start()
        // 16 periods (0.68 s): both opening strikes, at 0 and 0.5 s, are rendered.
        #expect(output.advance(periods: 16) == 16)
        var events = s.poll()
        #expect(s.clockSettled)
        let bells = events.compactMap { e -> LiveEvent? in
            guard case .timeline(let ev, .opening?) = e.kind, ev.kind == .strike else { return nil }
            return e
        }
        #expect(bells.map(\.sessionFrame) == [0, 24_000])
        for e in bells {
            // Paced by the device's clock: heard at the start plus the frames, to the frame, and the closing bell
            // 10 s after the start.
            #expect(abs(e.heardAt.timeIntervalSince(Self.start) - Double(e.sessionFrame) / 48_000) <= Self.frame)
            #expect(e.endsAt.map { abs($0.timeIntervalSince(Self.start) - 10) <= Self.frame } == true)
        }
        // The frame heard when the stop is asked: the sitting ends there (the device holds a buffer rendered ahead).
        let heard = try #require(output.clock.frameHeardNow)
        #expect(abs(heard - (16 * 2048 - 8192)) <= 1)
        #expect(s.stop(withBell: false))
        // The next period renders the stop, then the 0.1 s fade: the session ends within a few periods.
        for _ in 0..<20 where !s.ended {
            #expect(output.step())
            events += s.poll()
        }
        #expect(s.ended)
        let stopping = events.first { if case .stopping(withBell: false) = $0.kind { true } else { false } }
        // The stop took effect at the first frame rendered after it was sent.
        let stopFrame = try #require(stopping?.sessionFrame)
        #expect(stopFrame == 16 * 2048)
        #expect(s.stopFrame == heard && stopping?.endsAt == nil)
        // Nothing of the plan is left after a stop.
        #expect(s.nextBell == nil && s.nextEvent == nil)
        let finished = s.finish()
        output.stop(drain: false)
        #expect(finished.record.outcome == .stopped)
        #expect(finished.record.plannedSeconds == 10)
        #expect(finished.record.satSeconds == (Double(heard) / 48).rounded() / 1000)  // 0.512 s
        #expect(try journal.read().records.map(\.outcome) == [.stopped])
    }

    /// A stop's fade (here 0.1 s, shorter than the device's 8 192-frame buffer) is played out when the session ends:
    /// the output drains what it holds. It was dropped, so the fade was never heard and the sound was cut where the
    /// device was, up to a buffer before the stop.
    @Test func aStopsFadeIsPlayedOutNotDropped() throws {
        let (output, s) = try Self.playing(periods: 16)
        #expect(s.stop(withBell: false))
        for _ in 0..<20 where !s.ended {
            #expect(output.step())
            _ = s.poll()
        }
        let end = try #require(s.endOutputFrame)
        // Rendered, not yet heard: the fade's end lies in the device's buffer.
        #expect(try #require(output.clock.frameHeardNow) < end)
        let finished = s.finish()
        // Played out: the device's clock moved on until everything written was heard.
        #expect(try #require(output.clock.frameHeardNow) >= end)
        #expect(finished.record.outcome == .stopped && finished.record.satSeconds == 0.512)
    }

    /// A sitting ended before its output played out (a shutdown, the end of input: the engine rendered no end) is
    /// sat up to the frame heard then, not up to the frames rendered ahead of it that the device dropped unheard: a
    /// sitting shut down 46 ms after its start recorded 0.213 s sat.
    @Test func aSittingEndedAtOnceIsSatUpToTheFrameHeard() throws {
        let (output, s) = try Self.playing(periods: 16)
        let rendered = s.engine.sessionFrame
        let heard = try #require(output.clock.frameHeardNow)
        #expect(heard < rendered)
        let finished = s.finish(.stopped)
        #expect(finished.record.satSeconds == (Double(heard) / 48_000 * 1000).rounded() / 1000)
        #expect(s.satSeconds < Double(rendered) / 48_000)
    }

    @Test func anXrunIsReportedOnceWithTheSessionPosition() throws {
        let output = try Self.manualOutput()
        let s = try Self.session(sitting: 10, output: output, unpaced: false, journal: nil)
        try s.start()
        output.advance(periods: 8)
        #expect(s.poll().allSatisfy { if case .xrun = $0.kind { false } else { true } })
        // The render thread is descheduled for 0.4 s, more than the output's 171 ms buffer.
        output.stall(nanoseconds: 400_000_000)
        output.step()
        let xruns = s.poll().filter { if case .xrun = $0.kind { true } else { false } }
        #expect(xruns.count == 1)
        if case .xrun(let count)? = xruns.first?.kind { #expect(count == 1) }
        // The engine skipped the lost time: its output clock is ahead of the frames rendered by exactly that much.
        #expect(s.engine.outputFrame == 9 * 2048 + FramePosition(output.lostFrameCount))
        #expect(output.advance(periods: 4) == 4)
        #expect(s.poll().allSatisfy { if case .xrun = $0.kind { false } else { true } }, "reported once")
        _ = s.finish()
        output.stop(drain: false)
    }

    @Test func noJournalRecordsNothing() throws {
        let dir = ToolRunner.temporaryDirectory("running-session")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try Self.session(sitting: 1, dir: dir, journal: nil)
        try s.start(frameLimit: s.timeline.endFrame)
        _ = Self.run(s)
        let finished = s.finish()
        #expect(finished.record.outcome == .completed && finished.journalError == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.raw"])
    }
}
