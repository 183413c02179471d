import AudioCore
import AudioEngine
import AudioTestSupport
import Testing

@Suite struct SessionEngineTests {
    /// Frames of the planned strikes of `engine`'s timeline.
    func plannedStrikes(_ engine: SessionEngine) -> [Int] {
        engine.timeline.events().filter { $0.kind == .strike }.map { Int($0.frame) }
    }

    func nonZeroFrames(_ left: [Float]) -> [Int] { left.indices.filter { left[$0] != 0 } }

    @Test func strikesLandOnTheirFrameForEveryBlockSize() throws {
        let plan = EngineFixture.shortPlan(times: 3)
        var outputs: [[Float]] = []
        var rng = SeededRandom(seed: 7)
        let sizes: [(String, () -> Int)] = [
            ("1", { 1 }), ("64", { 64 }), ("441", { 441 }), ("4096", { 4096 }),
            ("random", { Int(rng.next() % 700) + 1 }),
        ]
        for (name, next) in sizes {
            let engine = EngineFixture.engine(plan: plan)
            let total = Int(engine.timeline.endFrame!)
            let out = EngineFixture.render(engine, frames: total, nextBlock: next)
            let left = EngineFixture.left(out)
            #expect(nonZeroFrames(left) == plannedStrikes(engine), "block size \(name)")
            // The impulse's first (only) sample, at unity bus and master gain, passes the clipper untouched.
            #expect(left[0] == 0.5, "block size \(name)")
            #expect(engine.state == .ended, "block size \(name)")
            outputs.append(out)
        }
        for o in outputs.dropFirst() { #expect(o == outputs[0]) }
    }

    @Test func strikeEventsReportTheirExactOutputFrame() {
        let engine = EngineFixture.engine(plan: EngineFixture.shortPlan(times: 2))
        _ = EngineFixture.render(engine, frames: Int(engine.timeline.endFrame!), nextBlock: { 333 })
        var strikes: [Int64] = []
        var sawEnd = false
        for case .timeline(let e, let frame) in EngineFixture.events(engine) {
            if e.kind == .strike { strikes.append(frame) }
            if e.kind == .end { sawEnd = frame == engine.timeline.endFrame! }
        }
        #expect(strikes.map { Int($0) } == plannedStrikes(engine))
        #expect(sawEnd)
    }

    @Test func pauseShiftsEveryLaterEventByThePausedFrames() {
        let plan = EngineFixture.shortPlan(times: 2)
        let engine = EngineFixture.engine(plan: plan)
        let planned = plannedStrikes(engine)
        let total = Int(engine.timeline.endFrame!)
        var out = EngineFixture.render(engine, frames: 2000, nextBlock: { 100 })
        engine.pause()
        out += EngineFixture.render(engine, frames: 3000, nextBlock: { 128 })
        #expect(engine.state == .paused)
        #expect(engine.sessionFrame == 2000)
        engine.resume()
        out += EngineFixture.render(engine, frames: total + 3000 - 5000, nextBlock: { 77 })
        let shifted = planned.map { $0 < 2000 ? $0 : $0 + 3000 }
        #expect(nonZeroFrames(EngineFixture.left(out)) == shifted)
        #expect(engine.state == .ended)
        #expect(engine.sessionFrame == engine.timeline.endFrame!)
        let resumed = EngineFixture.events(engine).compactMap { e -> Int64? in
            if case .resumed(_, _, let paused) = e { return paused }
            return nil
        }
        #expect(resumed == [3000])
    }

    @Test func pauseFadesOutWithoutAClick() {
        // A constant ambient level makes the de-click ramp visible: 20 ms = 20 frames at 1 kHz.
        var plan = EngineFixture.shortPlan(times: 1)
        plan.fadeIn = 0
        plan.ambientVolume = 1
        plan.bellVolume = 0
        let dc = EngineFixture.asset("dc", [Float](repeating: 0.4, count: 100))
        let engine = EngineFixture.engine(plan: plan, ambient: dc)
        _ = EngineFixture.render(engine, frames: 1500, nextBlock: { 500 })
        engine.pause()
        let left = EngineFixture.left(EngineFixture.render(engine, frames: 40, nextBlock: { 40 }))
        let steps = zip(left, left.dropFirst()).map { abs($1 - $0) }
        // Linear ramp: 0.4 / 20 per frame; float accumulation keeps each step within 1e-6 of it.
        #expect(steps.allSatisfy { $0 <= 0.4 / 20 + 1e-6 })
        #expect(left[19] == 0 && left[39] == 0)
        #expect(left[0] > 0.35)
    }

    @Test func untilClosesOnTheTargetFrame() throws {
        var plan = EngineFixture.shortPlan()
        plan.repeatMode = .until(ClockTime(hour: 0, minute: 0, second: 17)!)
        let timeline = try SessionTimeline(
            plan: plan, sampleRate: EngineFixture.rate, bellTail: 1, startSecondOfDay: 0.4)
        let engine = try SessionEngine(
            plan: plan, timeline: timeline, assets: EngineAssets(bell: EngineFixture.impulseBell()))
        let out = EngineFixture.render(engine, frames: Int(timeline.endFrame!), nextBlock: { 500 })
        let hits = nonZeroFrames(EngineFixture.left(out))
        // 16.6 s after the start: the closing group's first strike.
        #expect(hits.suffix(3) == [16_600, 17_100, 17_600])
        #expect(engine.state == .ended)
    }

    @Test func stopRingsTheClosingGroupFromTheCurrentFrame() throws {
        var plan = EngineFixture.shortPlan()
        plan.repeatMode = .untilStopped
        let engine = EngineFixture.engine(plan: plan)
        var out = EngineFixture.render(engine, frames: 30_000, nextBlock: { 1000 })
        engine.stop(withBell: true)
        out += EngineFixture.render(engine, frames: 2000, nextBlock: { 1000 })
        let hits = nonZeroFrames(EngineFixture.left(out))
        #expect(hits.suffix(3) == [30_000, 30_500, 31_000])
        #expect(engine.state == .ended)
        #expect(engine.sessionFrame == 31_200)
    }

    @Test func stopWithoutBellOnlyFades() {
        var plan = EngineFixture.shortPlan()
        plan.repeatMode = .untilStopped
        let engine = EngineFixture.engine(plan: plan)
        _ = EngineFixture.render(engine, frames: 3000, nextBlock: { 1000 })
        engine.stop(withBell: false)
        let out = EngineFixture.render(engine, frames: 1000, nextBlock: { 1000 })
        #expect(nonZeroFrames(EngineFixture.left(out)).isEmpty)
        #expect(engine.state == .ended)
        #expect(engine.sessionFrame == 3200)
    }

    /// During the closing ring a stop with a bell changes nothing; one without silences the ring in the 20 ms
    /// de-click fade and ends the session (it was ignored: a listener waited for a long bell to ring out).
    @Test func stopWithoutBellDuringTheClosingRingSilencesIt() {
        var plan = EngineFixture.shortPlan(times: 1)
        plan.fadeOut = 0
        // A bell that rings at 0.5 for 3 s: the closing group (5.0, 5.5, 6.0 s) rings until 9 s.
        let bell = EngineFixture.asset("long", [Float](repeating: 0.5, count: 3_000))
        let engine = EngineFixture.engine(plan: plan, bell: bell)
        _ = EngineFixture.render(engine, frames: 6_100, nextBlock: { 100 })
        engine.stop(withBell: true)
        let ringing = EngineFixture.left(EngineFixture.render(engine, frames: 100, nextBlock: { 100 }))
        #expect(ringing.allSatisfy { $0 > 0.9 }, "\(ringing.prefix(4))")
        #expect(engine.state == .playing)
        engine.stop(withBell: false)
        let out = EngineFixture.left(EngineFixture.render(engine, frames: 100, nextBlock: { 10 }))
        // 20 frames of fade at 1 kHz, falling every frame, then silence and the end.
        #expect(out[0] > out[10] && out[10] > out[18] && out[18] > 0)
        #expect(out[20...].allSatisfy { $0 == 0 })
        #expect(engine.state == .ended)
    }

    @Test func theOldestBellIsStolenWithAShortFade() {
        // A long constant "bell" shows how many voices ring: 16 at most once the steal fades are done.
        var plan = EngineFixture.shortPlan()
        plan.sitting = 100
        let dc = EngineFixture.asset("dc-bell", [Float](repeating: 0.01, count: 60_000))
        let engine = EngineFixture.engine(plan: plan, bell: dc)
        _ = EngineFixture.render(engine, frames: 2000, nextBlock: { 100 })  // the 3 opening strikes ring
        for _ in 0..<20 {
            engine.strike()
            _ = EngineFixture.render(engine, frames: 10, nextBlock: { 10 })
        }
        let left = EngineFixture.left(EngineFixture.render(engine, frames: 10, nextBlock: { 10 }))
        // 16 voices of 0.01 each; float sums of equal terms are exact to 1e-6 here.
        #expect(abs(left[9] - 0.16) < 1e-6)
    }

    @Test func volumeRampsHaveNoSteps() {
        var plan = EngineFixture.shortPlan(times: 1)
        plan.fadeIn = 0
        plan.ambientVolume = 1
        let dc = EngineFixture.asset("dc", [Float](repeating: 0.5, count: 100))
        let engine = EngineFixture.engine(plan: plan, ambient: dc)
        _ = EngineFixture.render(engine, frames: 1200, nextBlock: { 600 })
        engine.setVolume(.ambient, 0.2, rampFrames: 50)
        let left = EngineFixture.left(EngineFixture.render(engine, frames: 100, nextBlock: { 7 }))
        let steps = zip(left, left.dropFirst()).map { abs($1 - $0) }
        // 0.5 * (1 - 0.2) over 50 frames = 0.008 per frame; 1e-6 covers float accumulation.
        #expect(steps.allSatisfy { $0 <= 0.008 + 1e-6 })
        #expect(abs(left[99] - 0.1) < 1e-6)
    }

    @Test func threeFullScaleStrikesNeverReachFullScale() {
        var plan = EngineFixture.shortPlan()
        plan.strikeSpacing = 0.5
        let loud = EngineFixture.asset("loud", [Float](repeating: 0.99, count: 2000))
        let engine = EngineFixture.engine(plan: plan, bell: loud)
        let out = EngineFixture.render(engine, frames: 1500, nextBlock: { 256 })
        #expect(out.allSatisfy { abs($0) < 1 })
        #expect(out.max()! > 0.95)
    }

    /// A NaN or infinity in a bell or theme (a broken float export) never reaches the mixer: rendered to 16 bits it
    /// came out as full-scale clicks.
    @Test func assetsWithNonFiniteSamplesAreRefused() {
        for (bad, words) in [(Float.nan, "a NaN sample"), (-Float.infinity, "an infinite sample")] {
            var right = [Float](repeating: 0.1, count: 4_800)
            right[960] = bad
            let buffer = AudioBuffer(channelData: [[Float](repeating: 0.1, count: 4_800), right], sampleRate: .hz48000)
            do {
                _ = try LoadedAsset(id: "bell.wav", buffer: buffer)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(
                    error.message == "bell.wav: \(words) in channel 2 at 20 ms; the engine plays finite samples only")
            }
        }
    }

    @Test func assetsAtAnotherRateAreRefused() throws {
        let plan = EngineFixture.shortPlan()
        let timeline = try SessionTimeline(plan: plan, sampleRate: .hz48000)
        #expect(throws: EnsoError.self) {
            try SessionEngine(plan: plan, timeline: timeline, assets: EngineAssets(bell: EngineFixture.impulseBell()))
        }
    }
}
