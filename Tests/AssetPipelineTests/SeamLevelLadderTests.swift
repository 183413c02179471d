import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline
@testable import AudioDSP

/// The level step's windows an octave apart, 100 ms to 1.6 s (docs/loops.md, metric 3 and "With a swell"): a level
/// change is read at a window within √2 of its own length.
@Suite struct SeamLevelLadderTests {
    static let rate = 48_000

    @Test func theWindowsAreAnOctaveApartUpToAQuarterOfTheLoop() {
        func windows(_ seconds: Double) -> [Int] {
            let frames = Int(seconds * Double(Self.rate))
            let buffer = AudioBuffer(
                channelData: [[Float](repeating: 0.1, count: frames)], sampleRate: SampleRate(checked: Self.rate))
            return SeamMetrics.levelWindows(LoopView(checking: buffer, loop: 0..<frames))
        }
        let ms = Self.rate / 1000
        #expect(windows(10) == [100, 200, 400, 800, 1600].map { $0 * ms })
        #expect(windows(3) == [100, 200, 400].map { $0 * ms }, "800 ms is more than a quarter of 3 s")
        #expect(windows(0.6) == [600 * ms / 8, 100 * ms], "under 0.8 s, an eighth of the loop first")
    }

    /// Noise under a 6 dB tremolo of 0.8 s and a 1.5 dB swell of 6.4 s, 9.6 s long, whose level drifts 3 dB up from
    /// its start to its end: at every wrap it drops 3 dB, which is heard. Windows of 100 and 400 ms see the tremolo's
    /// own steps (each window holds part of a cycle), windows of 1.6 s the swell's; a window of 800 ms holds whole
    /// cycles of the tremolo and a quarter of the swell, so the loop's own steps there are small and the drop stands
    /// out. With windows of 100 ms, 400 ms and 1.6 s alone, the drop passed (3.1 dB against the loop's own 1.4 dB at
    /// 800 ms). The same noise without the drift passes.
    @Test func aDropHiddenByATremoloAndASwellFailsAtEightHundredMilliseconds() {
        for seed in UInt64(1)...3 {
            for drift in [0.0, 3.0] {
                var rng = SeededRandom(seed: seed)
                let n = Int(9.6 * Double(Self.rate))
                let samples = (0..<n).map { i -> Float in
                    let t = Double(i) / Double(Self.rate)
                    let db = 6 * sin(2 * .pi * t / 0.8) + 1.5 * sin(2 * .pi * t / 6.4) + drift * t / 9.6 - 20
                    return rng.nextSigned() * Float(pow(10, db / 20))
                }
                let loop = AudioBuffer(channelData: [samples], sampleRate: SampleRate(checked: Self.rate))
                let level = SeamCheck.analyze(loop).metric(.level)
                if drift == 0 {
                    #expect(level?.status == .pass, "seed \(seed), no drift: \(level?.note ?? "")")
                } else {
                    #expect(level?.status == .fail, "seed \(seed), a 3 dB drop: \(level?.note ?? "")")
                    #expect(level?.note.contains("800 ms each side") == true, "\(level?.note ?? "")")
                }
            }
        }
    }
}
