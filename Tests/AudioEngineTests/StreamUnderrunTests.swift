import AudioCore
import AudioTestSupport
import Testing

@testable import AudioEngine

/// A streamed theme whose source falls behind (a slow disk, here a producer held back on purpose) fades out over the
/// de-click length, is silent while starved, reports `streamUnderrun` with the frames missed, and fades back in; the
/// session clock and the bells do not move.
@Suite struct StreamUnderrunTests {
    /// Produces a constant 0.5 (so any step in the output is the engine's), and only while `allowed` lasts.
    final class HeldBackProducer: AmbientStreamProducer {
        var allowed = Int.max
        var produced = 0

        func produce(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>?, frames: Int)
            throws(EnsoError) -> Int
        {
            let n = min(frames, allowed)
            for i in 0..<n { left[i] = 0.5 }
            if allowed != .max { allowed -= n }
            produced += n
            return n
        }
    }

    struct HeldBackSource: AmbientStreamSource, @unchecked Sendable {
        let producer: HeldBackProducer
        func makeStream() -> AmbientStream { AmbientStream(channels: 1, capacity: 400, producer: producer) }
    }

    struct Run {
        var left: [Float]
        var events: [EngineEvent]
        var sessionFrame: FramePosition
    }

    /// The short plan (3 strikes, 5 s sitting) at 1 kHz with a streamed theme; from output frame `stallAt` the
    /// producer gives nothing until `resumeAt`.
    static func run(stallAt: Int? = nil, resumeAt: Int = 0) throws -> Run {
        let producer = HeldBackProducer()
        let theme = try LoadedAsset(
            id: "night-forest", sampleRate: EngineFixture.rate, channels: 1, frameCount: 10_000_000,
            loop: LoopRegion(start: 0, end: 10_000_000), stream: HeldBackSource(producer: producer))
        let engine = EngineFixture.engine(plan: EngineFixture.shortPlan(times: 1), ambient: theme)
        engine.prepare(maxFrames: 10)
        var out: [Float] = []
        var events: [EngineEvent] = []
        var buffer = [Float](repeating: 0, count: 20)
        while engine.state != .ended && out.count < 20_000 {
            let frame = out.count / 2
            if let stallAt, frame == stallAt { producer.allowed = 0 }
            if stallAt != nil, frame == resumeAt { producer.allowed = .max }
            engine.pullStreams()
            buffer.withUnsafeMutableBufferPointer { engine.render(into: $0.baseAddress!, frames: 10) }
            out += buffer
            while let e = engine.pollEvent() { events.append(e) }
        }
        return Run(left: EngineFixture.left(out), events: events, sessionFrame: engine.sessionFrame)
    }

    static func timelineFrames(_ events: [EngineEvent]) -> [String] {
        events.compactMap { e in
            if case .timeline(let t, let f) = e { return "\(t.kind)@\(t.frame)/\(f)" }
            return nil
        }
    }

    @Test func aStarvedStreamFadesOutStaysSilentReportsAndFadesBackIn() throws {
        let steady = try Self.run()
        // The ring holds 400 frames (0.4 s here) ahead; held back from 2 s, it runs dry near 2.4 s; the source
        // catches up at 3 s.
        let starved = try Self.run(stallAt: 2_000, resumeAt: 3_000)
        let declick = 20  // 20 ms at 1 kHz

        // Nothing moved: same length, same timeline events on the same frames, same sat time.
        #expect(starved.left.count == steady.left.count)
        #expect(Self.timelineFrames(starved.events) == Self.timelineFrames(steady.events))
        #expect(starved.sessionFrame == steady.sessionFrame)
        #expect(!steady.events.contains { if case .streamUnderrun = $0 { true } else { false } })

        // Identical until the fade-out starts; then a fade of exactly the de-click length down to silence.
        let level = steady.left[2_000]
        #expect(level > 0.1)
        let fadeStart = try #require(starved.left.indices.first { starved.left[$0] != steady.left[$0] })
        #expect(fadeStart > 2_300 && fadeStart < 2_400)
        let silentFrom = try #require(starved.left[fadeStart...].firstIndex { $0 == 0 })
        #expect(silentFrom - fadeStart == declick - 1, "the last fade frame is at level 0 by the quarter sine's end")
        // No click: a quarter-sine over 20 frames moves at most level × π/40 per frame (plus rounding).
        let steps = (fadeStart - 1..<silentFrom).map { abs(starved.left[$0 + 1] - starved.left[$0]) }
        #expect(steps.max()! <= level * Float.pi / 40 * 1.01)

        // Silent until the source catches up, then back in over the de-click length, to the same level.
        let back = try #require(starved.left[silentFrom...].firstIndex { $0 != 0 })
        #expect(back >= 3_000 && back < 3_010)
        #expect(starved.left[silentFrom..<back].allSatisfy { $0 == 0 })
        let rise = (back - 1..<back + declick).map { abs(starved.left[$0 + 1] - starved.left[$0]) }
        #expect(rise.max()! <= level * Float.pi / 40 * 1.01)
        #expect(starved.left[back + declick] == level)

        // One report, on the frame it fades back in, with the frames it was silent (the last fade frame, at 0,
        // still read the ring: the silence proper starts after it).
        let reports = starved.events.compactMap { e -> (String, FrameCount, FramePosition)? in
            if case .streamUnderrun(let id, let missed, let at) = e { return (id, missed, at) }
            return nil
        }
        #expect(reports.count == 1)
        #expect(reports.first?.0 == "night-forest")
        // The fade-in's first frame is at level 0 (it reads the ring): the report is on it, and the silence before.
        #expect(reports.first?.2 == FramePosition(back - 1))
        #expect(reports.first?.1 == FrameCount(back - 1 - silentFrom))
    }

    @Test func aStreamThatStartsEmptyStartsSilentAndFadesIn() throws {
        let producer = HeldBackProducer()
        producer.allowed = 0
        let theme = try LoadedAsset(
            id: "late", sampleRate: EngineFixture.rate, channels: 1, frameCount: 100_000,
            loop: LoopRegion(start: 0, end: 100_000), stream: HeldBackSource(producer: producer))
        let engine = EngineFixture.engine(plan: EngineFixture.shortPlan(times: 1), ambient: theme)
        engine.prepare(maxFrames: 10)
        let silent = EngineFixture.left(EngineFixture.render(engine, frames: 510) { 10 })
        // Only the opening bell's impulses (frames 0 and 500) sound.
        #expect(silent.indices.allSatisfy { $0 == 0 || $0 == 500 || silent[$0] == 0 })
        producer.allowed = .max
        engine.pullStreams()
        let after = EngineFixture.left(EngineFixture.render(engine, frames: 100) { 10 })
        #expect(after[0] == 0 && after[1] > 0 && after[1] < after[19] && after[19] < after[30])
        let events = EngineFixture.events(engine)
        #expect(
            events.contains {
                if case .streamUnderrun(_, let missed, _) = $0 { return missed == 510 }
                return false
            })
    }
}
