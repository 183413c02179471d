import AudioCore
import AudioEngine
import AudioTestSupport
import Foundation
import Testing

/// `SessionEngine.setTheme(_:atSessionFrame:)`: theme changes held by the render thread until their session frame.
@Suite struct TimedThemeTests {
    static let first = OfflineRendererThemeTests.first
    static let second = OfflineRendererThemeTests.second

    static func engine(bell: Bool = false) -> SessionEngine {
        var plan = EngineFixture.shortPlan(times: 2)
        plan.ambientVolume = 1
        plan.bellVolume = bell ? 1 : 0
        plan.fadeIn = 0
        return EngineFixture.engine(plan: plan, ambient: EngineFixture.asset("first", first))
    }

    /// The engine's timed changes render exactly what the offline renderer's scheduled changes render, for
    /// any block sizes (random 1...700 and fixed).
    @Test func matchesTheOfflineRendererFrameForFrame() throws {
        let changes: [(FramePosition, String?, Int)] = [
            (1237, "second", 300), (4000, nil, 0), (4000, "first", 50), (9001, "second", 999),
        ]
        func asset(_ id: String?) -> LoadedAsset? {
            id.map { EngineFixture.asset($0, $0 == "first" ? Self.first : Self.second) }
        }
        let offline = Self.engine(bell: true)
        let renderer = OfflineRenderer(engine: offline, blockFrames: 4096)
        for (frame, id, fade) in changes { renderer.scheduleTheme(asset(id), atFrame: frame, crossfadeFrames: fade) }
        var expected: [Float] = []
        let total = try renderer.run(sink: { b, _ in expected += b })
        var rng = SeededRandom(seed: 5)
        for blocks in [[64], [4096], [1], []] {
            let live = Self.engine(bell: true)
            for (frame, id, fade) in changes {
                #expect(live.setTheme(asset(id), atSessionFrame: frame, crossfadeFrames: fade))
            }
            var i = 0
            let out = EngineFixture.render(live, frames: Int(total)) {
                defer { i += 1 }
                return blocks.isEmpty ? 1 + Int(rng.nextUnit() * 700) : blocks[i % blocks.count]
            }
            #expect(out == expected, "blocks \(blocks.isEmpty ? "random" : "\(blocks)")")
            let themes = EngineFixture.events(live).compactMap { e -> FramePosition? in
                if case .themeChanged(_, let f) = e { return f } else { return nil }
            }
            #expect(themes == [1237, 4000, 4000, 9001])
        }
    }

    /// A pause before the change moves it later on the output by exactly the paused frames (sat time).
    @Test func aPauseMovesTheChangeByThePausedFrames() throws {
        let engine = Self.engine()
        #expect(engine.setTheme(EngineFixture.asset("second", Self.second), atSessionFrame: 3000, crossfadeFrames: 100))
        var buffer = [Float](repeating: 0, count: 2 * 500)
        var changedAt: FramePosition?
        var rendered: FramePosition = 0
        func block() {
            buffer.withUnsafeMutableBufferPointer { engine.render(into: $0.baseAddress!, frames: 500) }
            rendered += 500
            while let e = engine.pollEvent() { if case .themeChanged(_, let f) = e { changedAt = f } }
        }
        for _ in 0..<4 { block() }  // 2000 frames played
        engine.pause()
        for _ in 0..<6 { block() }  // 3000 output frames paused (the 20 ms fade holds the session clock)
        #expect(changedAt == nil)
        engine.resume()
        while changedAt == nil && rendered < 20_000 { block() }
        let paused = engine.outputFrame - engine.sessionFrame
        #expect(paused > 0)
        #expect(changedAt == 3000 + paused, "changed at \(String(describing: changedAt)), paused \(paused)")
    }

    @Test func moreThan32HeldChangesAreRefusedAndCounted() {
        let engine = Self.engine()
        for k in 0..<40 { engine.setTheme(nil, atSessionFrame: FramePosition(100_000 + k)) }
        var buffer = [Float](repeating: 0, count: 2 * 64)
        buffer.withUnsafeMutableBufferPointer { engine.render(into: $0.baseAddress!, frames: 64) }
        #expect(engine.droppedCommands.count == 8)
    }
}
