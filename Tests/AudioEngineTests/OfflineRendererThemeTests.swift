import AudioCore
import AudioEngine
import AudioTestSupport
import Foundation
import Testing

@Suite struct OfflineRendererThemeTests {
    static let first = SignalGenerator.whiteNoise(frames: 700, amplitude: 0.4, seed: 11)
    static let second = SignalGenerator.whiteNoise(frames: 530, amplitude: 0.4, seed: 12)

    /// One cycle of the short plan with the ambient alone at full gain (bell silent, no fade-in).
    static func render(block: Int, changeAt frame: FramePosition?, crossfade: Int) throws -> [Float] {
        var plan = EngineFixture.shortPlan(times: 1)
        plan.ambientVolume = 1
        plan.bellVolume = 0
        plan.fadeIn = 0
        let engine = EngineFixture.engine(plan: plan, ambient: EngineFixture.asset("first", first))
        let renderer = OfflineRenderer(engine: engine, blockFrames: block)
        if let f = frame {
            renderer.scheduleTheme(EngineFixture.asset("second", second), atFrame: f, crossfadeFrames: crossfade)
        }
        var out: [Float] = []
        try renderer.run(sink: { b, _ in out += b })
        return EngineFixture.left(out)
    }

    @Test func theCrossfadeStartsOnTheScheduledFrameWhateverTheBlockSize() throws {
        let change: FramePosition = 1237
        let crossfade = 300
        let f = Int(change)
        let alone = try Self.render(block: 4096, changeAt: nil, crossfade: crossfade)
        for block in [64, 1000, 4096] {
            let out = try Self.render(block: block, changeAt: change, crossfade: crossfade)
            #expect(out.count == alone.count)
            // Up to and including the change frame (old theme at full level, new at 0) the render is the
            // first theme alone, bit for bit; the very next frame departs from it.
            #expect(Array(out[..<(f + 1)]) == Array(alone[..<(f + 1)]), "block \(block)")
            #expect(out[f + 1] != alone[f + 1], "block \(block)")
            // Over the sitting (the closing fade-out starts at 6000), every frame is the equal-power
            // crossfade of the first theme with the second from its own first frame. 1e-5: the engine's
            // float quarter-sine series and float mixing against double sin, at amplitudes up to 0.4.
            var worst: Float = 0
            for n in f..<5000 {
                let x = min(1, Double(n - f) / Double(crossfade))
                let a = Float(cos(x * .pi / 2)) * Self.first[n % Self.first.count]
                let b = Float(sin(x * .pi / 2)) * Self.second[(n - f) % Self.second.count]
                worst = max(worst, abs(out[n] - (n - f >= crossfade ? b : a + b)))
            }
            #expect(worst < 1e-5, "block \(block): worst \(worst)")
        }
    }

    @Test func changesAtTheStartAndToSilenceApplyOnceEach() throws {
        var plan = EngineFixture.shortPlan(times: 1)
        plan.bellVolume = 0
        plan.fadeIn = 0
        let engine = EngineFixture.engine(plan: plan, ambient: EngineFixture.asset("first", Self.first))
        let renderer = OfflineRenderer(engine: engine, blockFrames: 512)
        renderer.scheduleTheme(EngineFixture.asset("second", Self.second), atFrame: 0, crossfadeFrames: 0)
        renderer.scheduleTheme(nil, atFrame: 2000, crossfadeFrames: 100)
        var changes: [(String?, FramePosition)] = []
        var out: [Float] = []
        try renderer.run(
            sink: { b, _ in out += b },
            onEvent: { if case .themeChanged(let id, let frame) = $0 { changes.append((id, frame)) } })
        #expect(changes.map(\.0) == ["second", nil])
        #expect(changes.map(\.1) == [0, 2000])
        let left = EngineFixture.left(out)
        // Silence from the end of the 100-frame fade to silence on.
        #expect(left[2100..<5000].allSatisfy { $0 == 0 })
        #expect(left[1999] != 0)
    }
}
