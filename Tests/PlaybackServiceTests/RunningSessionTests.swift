import AudioCore
import AudioDevice
import AudioEngine
import AudioTestSupport
import Foundation
import Testing

@testable import PlaybackService

/// The one live-session runner, in process: on an unpaced file output its times are the frame count, so every event
/// time, `endsAt` and the record are exact, whatever the machine's load.
@Suite struct RunningSessionTests {
    static let rate = SampleRate.hz48000
    /// The start of every sitting here: a fixed wall-clock time, so times are checked to the millisecond.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A sitting of `sitting` seconds, 2 strikes 0.5 s apart, 0.1 s fades, once, on a file output in `dir` (or the
    /// paced null output).
    static func session(sitting: Double, dir: String, journal: SessionJournal?, paced: Bool = false) throws
        -> RunningSession
    {
        var plan = SessionPlan()
        plan.sitting = sitting
        plan.bell = "impulse"
        plan.strikes = 2
        plan.strikeSpacing = 0.5
        plan.breath = 0
        plan.fadeIn = 0.1
        plan.fadeOut = 0.1
        plan.repeatMode = .once
        let bell = try LoadedAsset(
            id: "impulse",
            buffer: AudioBuffer(channelData: [SignalGenerator.impulse(frames: 480, amplitude: 0.5)], sampleRate: rate),
            loop: nil)
        let timeline = try SessionTimeline(plan: plan, sampleRate: rate, bellTail: bell.decayFrames(gain: 1))
        let engine = try SessionEngine(plan: plan, timeline: timeline, assets: EngineAssets(bell: bell, ambient: nil))
        let choice = paced ? OutputChoice.null : .file(path: dir + "/out.raw")
        let output = try choice.open(rate: rate)
        engine.prepare(maxFrames: output.format.periodFrames)
        return RunningSession(
            plan: plan, engine: engine, output: output, startDate: start, unpaced: choice.isUnpaced, journal: journal)
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

    @Test func aStopBeforeTheClosingBellIsAStoppedSittingSatUpToTheStop() throws {
        let dir = ToolRunner.temporaryDirectory("running-session")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let journal = SessionJournal(path: dir + "/j.jsonl")
        // Paced, so the stop sent at once lands long before the closing bell (a file would render 10 s in ms).
        let s = try Self.session(sitting: 10, dir: dir, journal: journal, paced: true)
        try s.start()
        let events = Self.run(s) { s in if !s.stopSent { #expect(s.stop(withBell: false)) } }
        let stopping = events.first { if case .stopping(withBell: false) = $0.kind { true } else { false } }
        let stopFrame = try #require(stopping?.sessionFrame)
        #expect(s.stopFrame == stopFrame && stopping?.endsAt == nil)
        // Nothing of the plan is left after a stop.
        #expect(s.nextBell == nil && s.nextEvent == nil)
        let finished = s.finish()
        #expect(finished.record.outcome == .stopped)
        #expect(finished.record.plannedSeconds == 10)
        #expect(finished.record.satSeconds == (Double(stopFrame) / 48).rounded() / 1000)
        #expect(try journal.read().records.map(\.outcome) == [.stopped])
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
