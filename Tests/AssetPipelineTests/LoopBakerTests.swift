import AudioCore
import AudioDSP
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

@Suite struct LoopBakerTests {
    static func verdict(_ b: AudioBuffer) -> SeamRules.Report { SeamRules.judge(b, loop: 0..<b.frameCount) }

    /// `bake` removes a constant offset: a 3 % DC (a warning in `verify`) is gone from the output, which passes
    /// without the warning; the offset removed is reported.
    @Test func bakeRemovesTheDCOffset() throws {
        let source = LoopSignals.addingDC(
            to: LoopSignals.periodicNoise(period: 12_000, frames: 12_000 * 6 + 5_000, seed: 61), offset: 0.03)
        #expect(Self.verdict(source.slice(frames: 0..<72_000)).metric(.dcOffset)?.status == .warn)
        let baked = try LoopBaker.bake(source, region: LoopRegion(start: 0, end: 72_000))
        #expect(baked.dcRemoved.allSatisfy { abs($0 - 0.03) < 0.001 }, "\(baked.dcRemoved)")
        let r = Self.verdict(baked.buffer)
        #expect(r.verdict == .pass, "\(r.reasons)")
        #expect((r.metric(.dcOffset)?.value ?? 1) < 0.01)
    }

    @Test func bakeTurnsEveryRandomCutIntoALoopThatPasses() throws {
        for seed in 0..<50 as Range<UInt64> {
            var rng = SeededRandom(seed: 3_000 + seed)
            let period = 14_400 + Int(rng.nextUnit() * 14_400)
            let cut = period / 10 + Int(rng.nextUnit() * Double(period * 8 / 10))
            let n = period * 4 + cut
            let source =
                seed % 2 == 0
                ? LoopSignals.periodicNoise(period: period, frames: n, seed: seed)
                : LoopSignals.drips(period: period, frames: n, seed: seed)
            #expect(Self.verdict(source).verdict == .fail)
            let found = try LoopFinder.find(source, options: LoopFinder.Options(crossfade: 4_800, count: 1))
            let region = try #require(found.candidates.first)
            let baked = try LoopBaker.bake(source, region: LoopRegion(start: region.start, end: region.end))
            #expect(baked.buffer.frameCount == Int(region.end - region.start), "exact length")
            #expect(baked.loop == LoopRegion(start: 0, end: FramePosition(baked.buffer.frameCount)))
            let r = Self.verdict(baked.buffer)
            #expect(
                r.verdict == .pass, "seed \(seed): \(r.reasons) \(r.metrics.map { "\($0.name)=\($0.value ?? .nan)" })")
        }
    }

    /// A recorded timer's ticks (each tick its own noise, so nothing repeats sample for sample), 17.4 beats long:
    /// the whole file skips a beat at its wrap, `find` ranks loops of whole beats first, and the baked loop keeps the
    /// pulse (its rhythm passes: the crossfade lays ticks on ticks). Before, the longest loop whose ends matched in
    /// level won, 13 % of a beat off, and baked into a loop that skipped.
    @Test func tickingMaterialIsLoopedOnWholeBeats() throws {
        let beat = 12_000
        for (k, extra) in [1_200, 3_000, 4_800, 6_600, 8_400, 10_200].enumerated() {
            let source = LoopSignals.ticks(
                interval: beat, frames: 17 * beat + extra, offset: 900, seed: 45 + UInt64(k))
            #expect(Self.verdict(source).metric(.rhythm)?.status != .pass, "\(extra)")
            let found = try LoopFinder.find(source, options: LoopFinder.Options(count: 1))
            let region = try #require(found.candidates.first)
            let beats = Double(region.end - region.start) / Double(beat)
            #expect(abs(beats - beats.rounded()) <= 0.05, "\(extra): \(beats) beats")
            let baked = try LoopBaker.bake(source, region: LoopRegion(start: region.start, end: region.end))
            let rhythm = Self.verdict(baked.buffer).metric(.rhythm)
            #expect(rhythm?.status == .pass, "\(extra): \(rhythm?.note ?? "")")
        }
    }

    /// A two-bar groove (kick and snare, chords held to each bar line, 90 bpm, no drone) cut 30 ms short of its bars:
    /// its pulse (half a bar, 1.333 s) is kept by events in a waveform that repeats at it, so `find` ranks loops of
    /// whole pulses before any other. Before, events kept only a pulse whose waveform does not repeat (a timer's
    /// ticks), and loops of a beat and a half ranked among them (the loop curator's tour baked one).
    @Test func aGrooveCutShortIsLoopedOnWholePulses() throws {
        let rate = 48_000
        let pulse = Double(4 * rate / 3)
        let groove = LoopSignals.beatLoop(bars: 2, bpm: 90, sampleRate: rate, bed: 0.01, held: true, drone: 0)
        let source = groove.slice(frames: 0..<(groove.frameCount - 3 * rate / 100))
        let found = try LoopFinder.find(source, options: LoopFinder.Options(count: 8))
        let whole = found.candidates.map { c -> Bool in
            let pulses = Double(c.end - c.start) / pulse
            return pulses.rounded() >= 1 && abs(pulses - pulses.rounded()) <= SeamMetrics.eventSkipFraction
        }
        let lengths = found.candidates.map { String(format: "%.3f s", Double($0.end - $0.start) / Double(rate)) }
        #expect(whole.first == true && whole == whole.sorted { $0 && !$1 }, "\(lengths)")
        #expect(whole.contains(false), "the search offers other lengths too: \(lengths)")
    }

    @Test func uncorrelatedMaterialGetsEqualPowerAndPasses() throws {
        // Rain-like rumble with no repetition at all: any loop needs a real crossfade.
        let n = 4 * 48_000
        let source = LoopSignals.periodicNoise(period: n, frames: n, smoothingHz: 1_500, poles: 2, seed: 31)
        let region = LoopRegion(start: 0, end: FramePosition(3 * 48_000 + 777))
        #expect(SeamRules.judge(source, loop: 0..<Int(region.end)).verdict != .pass)
        let baked = try LoopBaker.bake(source, region: region)
        #expect(baked.curve == .equalPower && baked.curveChosen)
        #expect(abs(baked.correlation) < 0.3)
        #expect(baked.buffer.frameCount == Int(region.length))
        let r = Self.verdict(baked.buffer)
        #expect(r.verdict == .pass, "\(r.reasons)")
        // Overridable.
        let forced = try LoopBaker.bake(source, region: region, crossfade: 4_800, curve: .equalGain)
        #expect(forced.curve == .equalGain && !forced.curveChosen && forced.crossfade == 4_800)
    }

    @Test func correlatedMaterialGetsEqualGain() throws {
        let b = LoopSignals.periodicNoise(period: 12_000, frames: 60_000, seed: 32)
        let baked = try LoopBaker.bake(b, region: LoopRegion(start: 0, end: 36_000))
        #expect(baked.curve == .equalGain)
        #expect(baked.correlation > 0.99)
        // Identical material crossfaded with equal gain is unchanged (float rounding only: 1e-6).
        #expect(Tolerance.maxDifference(baked.buffer.channel(0), b.channel(0)[0..<36_000]) < 1e-6)
    }

    /// Runs that repeat each other but not at one level (a hum swelling 1 dB a second) are joined by the long
    /// crossfade: the 10 ms one that repeating material gets is a level step (`verify` failed it: "level drops
    /// 0.8 dB across the seam", a `ufo-hum` with a fade-in, baked, 4.7 dB).
    @Test func repeatingRunsAtDifferentLevelsGetTheLongCrossfade() throws {
        let period = 24_000
        var swell = LoopSignals.periodicNoise(period: period, frames: period * 12, channels: 1, seed: 34)
        let half = Double(swell.frameCount / 2)
        swell.withMutableChannel(0) { p in
            for i in p.indices { p[i] *= Float(pow(10, 3 * min(Double(i) / half, 1) / 20)) }
        }
        let region = LoopRegion(start: 0, end: FramePosition(period * 2))
        let baked = try LoopBaker.bake(swell, region: region)
        #expect(baked.correlation > 0.99 && baked.crossfade > 480, "\(baked.crossfade) frames")
        #expect(Self.verdict(baked.buffer).verdict == .pass, "\(Self.verdict(baked.buffer).reasons)")
        let short = try LoopBaker.bake(swell, region: region, crossfade: 480)
        #expect(Self.verdict(short.buffer).metric(.level)?.status == .fail, "the 10 ms join is a step here")
    }

    @Test func loopEndingAtTheFileEndCrossfadesAtTheTail() throws {
        let n = 3 * 48_000
        let source = LoopSignals.periodicNoise(period: n, frames: n, smoothingHz: 1_500, poles: 2, seed: 33)
        let region = LoopRegion(start: 24_000, end: FramePosition(n))
        let baked = try LoopBaker.bake(source, region: region, crossfade: 9_600)
        #expect(baked.placement == "tail")
        #expect(baked.buffer.frameCount == n - 24_000)
        #expect(Self.verdict(baked.buffer).verdict == .pass, "\(Self.verdict(baked.buffer).reasons)")
    }

    /// `bakeFirst` bakes the search's candidates in rank order until one's seam does not fail: the first here ends
    /// where the recording falls silent for 0.5 s, so its crossfade fades the head in from silence (a dip at every
    /// wrap); the second, in steady material, passes. When none will do, the best one is baked.
    @Test func bakeFirstPassesOverACandidateWhoseBakeFails() throws {
        let rate = 48_000
        let noise = LoopSignals.periodicNoise(period: 8 * rate, frames: 8 * rate, smoothingHz: 3_000, seed: 71)
        let data = (0..<2).map { c in
            noise.withChannel(c) { x in
                Array(x[0..<(4 * rate)]) + [Float](repeating: 0, count: rate / 2)
                    + Array(x[(4 * rate)...])
            }
        }
        let source = AudioBuffer(channelData: data, sampleRate: SampleRate(checked: rate))
        let intoSilence = LoopRegion(start: Int64(rate / 2), end: Int64(4 * rate))
        let steady = LoopRegion(start: Int64(5 * rate), end: Int64(8 * rate))
        let alone = try LoopBaker.bake(source, region: intoSilence)
        #expect(Self.verdict(alone.buffer).verdict == .fail)
        let (baked, index) = try LoopBaker.bakeFirst(source, regions: [intoSilence, steady])
        #expect(index == 1 && baked.source == steady)
        #expect(Self.verdict(baked.buffer).verdict != .fail, "\(Self.verdict(baked.buffer).reasons)")
        let (best, none) = try LoopBaker.bakeFirst(source, regions: [intoSilence, steady], keeps: { _ in false })
        #expect(none == 0 && best.source == intoSilence)
        // A later region that cannot be baked is passed over; the first one's error is the caller's.
        let tooShort = LoopRegion(start: 0, end: 2)
        #expect(try LoopBaker.bakeFirst(source, regions: [intoSilence, tooShort, steady]).index == 2)
        #expect(throws: EnsoError.self) { try LoopBaker.bakeFirst(source, regions: [tooShort, steady]) }
    }

    @Test func tooLongACrossfadeIsRefused() {
        let b = LoopSignals.periodicNoise(period: 4_800, frames: 48_000, seed: 34)
        #expect(throws: EnsoError.self) {
            try LoopBaker.bake(b, region: LoopRegion(start: 0, end: 9_600), crossfade: 6_000)
        }
    }
}
