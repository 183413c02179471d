import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// `OnsetAnalysis.risesOverRoom` reads a sliding 10 ms sum at every frame, but sums only the blocks whose bound can
/// reach what it seeks. It must give the frame the plain slide over every window gives, to the frame: the plain slide
/// is written out here (the code before the bound, 931c6d4) and both read the same signals.
@Suite struct RoomLevelTests {
    /// The plain slide: every window's sum, the sum taken afresh at every multiple of the window length.
    static func plainRise(_ buffer: AudioBuffer, baseline: [Float]? = nil) -> Int {
        let n = buffer.frameCount
        let channels = buffer.channels
        guard n > 0, channels > 0 else { return n }
        let w = min(n, max(1, Int(buffer.sampleRate.frames(seconds: OnsetAnalysis.roomLevelWindow))))
        let s = buffer.samples
        func power(_ i: Int) -> Double {
            var e = 0.0
            for c in 0..<channels {
                let v = s[c * n + i]
                guard v.isFinite else { continue }
                let d = Double(v) - Double(baseline?[c] ?? 0)
                e += d * d
            }
            return e / Double(channels)
        }
        var sums: [Double] = []
        var sum = 0.0
        for i in 0..<w { sum += power(i) }
        sums.append(sum)
        var j = 1
        while j + w <= n {
            if j % w == 0 {
                sum = 0
                for i in j..<(j + w) { sum += power(i) }
            } else {
                sum += power(j + w - 1) - power(j - 1)
            }
            sums.append(max(0, sum))
            j += 1
        }
        let loudest = sums.max() ?? 0
        guard loudest > 0 else { return n }
        let heard = loudest * pow(10, OnsetAnalysis.roomLevel / 10)
        return sums.firstIndex { $0 >= heard } ?? n
    }

    /// Noise that swells in from `quiet` dB after `lead` frames of near silence, peaks and decays, with a click.
    static func swell(frames: Int, channels: Int, rate: Int, lead: Int, quiet: Double, seed: UInt64) -> AudioBuffer {
        var rng = SeededRandom(seed: seed)
        let data: [[Float]] = (0..<channels).map { c in
            (0..<frames).map { i -> Float in
                let x = rng.nextSigned()
                if i < lead { return x * Float(pow(10, quiet / 20)) * 0.01 }
                let t = Double(i - lead) / Double(rate)
                let envelope = min(1, t / 0.05) * exp(-t * 3) * (1 + 0.5 * Double(c))
                return x * Float(envelope)
            }
        }
        return AudioBuffer(channelData: data, sampleRate: SampleRate(checked: rate))
    }

    @Test("the bound passes over no window that counts: the same frame as the plain slide, to the frame")
    func theSameFrameAsThePlainSlide() {
        var cases = 0
        for rate in [1_000, 8_000, 22_050, 44_100, 48_000] {
            for channels in [1, 2, 3] {
                for (seed, frames) in zip(UInt64(1)..., [rate / 2, rate + 17, 3 * rate + 5]) {
                    for quiet in [-80.0, -45.0, -20.0] {
                        let lead = Int(seed) * rate / 7
                        var buffer = Self.swell(
                            frames: frames, channels: channels, rate: rate, lead: lead, quiet: quiet, seed: seed)
                        let plain = Self.plainRise(buffer)
                        #expect(OnsetAnalysis.risesOverRoom(buffer) == plain, "\(rate) Hz, \(channels) ch, \(frames)")
                        // A baseline (a DC each channel departs from) and non-finite samples, which count as silence.
                        let bases = (0..<channels).map { Float($0) * 0.01 - 0.005 }
                        let offset = OnsetAnalysis.risesOverRoom(buffer, baseline: bases)
                        #expect(offset == Self.plainRise(buffer, baseline: bases), "\(rate) Hz, baseline")
                        buffer[0, frames / 3] = .nan
                        buffer[channels - 1, frames / 2] = .infinity
                        #expect(OnsetAnalysis.risesOverRoom(buffer) == Self.plainRise(buffer), "\(rate) Hz, non-finite")
                        cases += 3
                    }
                }
            }
        }
        #expect(cases == 405)
    }

    @Test("edges: one frame, fewer frames than a window, silence, a lone click, a rise on a block's last frame")
    func edges() {
        let rate = SampleRate(checked: 8_000)  // 80-frame windows
        func mono(_ x: [Float]) -> AudioBuffer { AudioBuffer(channelData: [x], sampleRate: rate) }
        var signals: [[Float]] = [[0.5], [0, 0, 0.25], [Float](repeating: 0, count: 1_000)]
        for at in [0, 79, 80, 159, 999] {
            var click = [Float](repeating: 0, count: 1_000)
            click[at] = 1
            signals.append(click)
            // A faint bed the click's windows stand 50 dB over, then the click.
            signals.append((0..<1_000).map { $0 == at ? 1 : 0.003 })
        }
        for x in signals {
            #expect(OnsetAnalysis.risesOverRoom(mono(x)) == Self.plainRise(mono(x)), "\(x.count) frames")
        }
        #expect(OnsetAnalysis.risesOverRoom(mono([Float](repeating: 0, count: 1_000))) == 1_000)
    }

    /// Windows that straddle two blocks, where a block's own sums are half a window's: a loud burst of one window
    /// starting mid-block (its aligned windows each hold half of it), after a faint one, also mid-block, that only a
    /// straddling window lifts over the room's level (1.2 × the level: an aligned window holds 0.6 of it). A bound
    /// that passed over either block would read a louder room or a later rise.
    @Test("a rise only a window across two blocks finds, under a peak only such a window holds")
    func windowsAcrossBlocks() {
        let rate = SampleRate(checked: 8_000)  // 80-frame windows
        let loud: Float = 0.5
        let faint = loud * Float((1.2 * pow(10, OnsetAnalysis.roomLevel / 10)).squareRoot())
        var x = [Float](repeating: 0, count: 4_000)
        for i in 0..<80 {
            x[1_000 + 40 + i] = faint * (i % 2 == 0 ? 1 : -1)
            x[3_000 + 40 + i] = loud * (i % 2 == 0 ? 1 : -1)
        }
        let buffer = AudioBuffer(channelData: [x], sampleRate: rate)
        let rise = OnsetAnalysis.risesOverRoom(buffer)
        #expect(rise == Self.plainRise(buffer))
        // The first window holding 1 / 1.2 of the faint burst: 67 of its 80 frames.
        #expect(rise == 1_040 + 67 - 80, "rise \(rise)")
    }
}
