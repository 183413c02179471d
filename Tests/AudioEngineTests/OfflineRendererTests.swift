import AudioCore
import AudioEngine
import AudioTestSupport
import Testing

@Suite struct OfflineRendererTests {
    @Test func rendersExactlyTheSessionInBlocksAndAccountsForEveryFrame() throws {
        let engine = EngineFixture.engine(plan: EngineFixture.shortPlan(times: 2))
        let renderer = OfflineRenderer(engine: engine, blockFrames: 1000)
        var starts: [Int64] = []
        var frames = 0
        var strikes = 0
        let total = try renderer.run(
            sink: { block, start in
                starts.append(start)
                frames += block.count / 2
            },
            onEvent: { e in
                if case .timeline(let t, _) = e, t.kind == .strike { strikes += 1 }
            })
        // End frame 13 200 at 1 kHz: 13 full blocks and one of 200.
        #expect(total == 13_200)
        #expect(frames == 13_200)
        let blockStarts: [Int64] = (0..<14).map { (i: Int) -> Int64 in Int64(i * 1000) }
        #expect(starts == blockStarts)
        #expect(strikes == 9)
        #expect(engine.state == .ended)
    }

    @Test func theSameSessionComesOutWhateverTheBlockSize() throws {
        func render(_ block: Int) throws -> [Float] {
            var plan = EngineFixture.shortPlan(times: 1)
            plan.ambientVolume = 0.8
            let ambient = EngineFixture.asset("rain", SignalGenerator.whiteNoise(frames: 777, amplitude: 0.5, seed: 5))
            let engine = EngineFixture.engine(plan: plan, ambient: ambient)
            var out: [Float] = []
            try OfflineRenderer(engine: engine, blockFrames: block).run(sink: { b, _ in out += b })
            return out
        }
        let reference = try render(4096)
        // Fades, ramps and loop wraps are per frame: every block size gives the same samples, bit for bit.
        for block in [1, 64, 441, 5000] { #expect(try render(block) == reference, "block \(block)") }
    }

    @Test func largerRequestsThanPreparedAreSplit() {
        let plan = EngineFixture.shortPlan(times: 1)
        let a = EngineFixture.engine(plan: plan)
        a.prepare(maxFrames: 100)
        let b = EngineFixture.engine(plan: plan)
        let total = Int(a.timeline.endFrame!)
        #expect(
            EngineFixture.render(a, frames: total, nextBlock: { 3000 })
                == EngineFixture.render(b, frames: total, nextBlock: { 3000 }))
    }

    @Test func untilStoppedCannotBeRenderedOffline() {
        var plan = EngineFixture.shortPlan()
        plan.repeatMode = .untilStopped
        let renderer = OfflineRenderer(engine: EngineFixture.engine(plan: plan))
        #expect(throws: EnsoError.self) { try renderer.totalFrames() }
    }
}
