import AudioCore
import AudioDSP
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// Loop search on synthesized material, 48 kHz stereo, a few seconds each.
@Suite struct LoopFinderTests {
    /// An odd period, so no decimation factor divides it: the refinement has to land on the exact frame.
    static let period = 21_337

    @Test func recoversTheExactPeriodOfPeriodicNoise() throws {
        let b = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 3 + 9_000, seed: 21)
        let only = LoopFinder.Options(minLength: Self.period / 2, maxLength: Self.period * 3 / 2)
        let r = try LoopFinder.find(b, options: only)
        #expect(!r.wholeFileLoops)
        let best = try #require(r.candidates.first)
        // Exact: ±0 frames.
        #expect(best.end - best.start == Int64(Self.period), "\(r.candidates)")
        #expect(best.start == 0)
        #expect(best.score > 0.99)
        // Without an upper bound, the best loop is still a whole number of periods.
        let free = try LoopFinder.find(b, options: LoopFinder.Options(minLength: Self.period / 2))
        let any = try #require(free.candidates.first)
        #expect((any.end - any.start) % Int64(Self.period) == 0, "\(free.candidates)")
    }

    /// Rain-like noise that never repeats: no candidate correlates, the joint will rest on the crossfade, so the
    /// longest loop whose ends match in level ranks first (the whole usable file); with a 6 dB drift across the
    /// file the best loop is one whose ends are within 1 dB, not the longest.
    @Test func noiseThatNeverRepeatsGetsTheLongestMatchingLoop() throws {
        let n = 10 * 48_000
        let bed = LoopSignals.periodicNoise(
            period: n, frames: n, amplitude: 0.2, smoothingHz: 2_000, poles: 2, seed: 31)
        let clicked = LoopSignals.addingClick(to: bed, at: n - 3, amplitude: 0.5, frames: 3)
        let r = try LoopFinder.find(clicked)
        #expect(!r.wholeFileLoops)
        let best = try #require(r.candidates.first)
        #expect(best.correlation < LoopFinder.noRepeatCorrelation)
        #expect(
            best.start == 0 && best.end == Int64(n - 12_000), "\(r.candidates.map { ($0.start, $0.end, $0.score) })")
        #expect(best.reasons.contains { $0.hasPrefix("nothing in the file repeats the loop start") }, "\(best.reasons)")
        let drifting = try LoopFinder.find(LoopSignals.applyingLevelDrift(to: clicked, decibels: 6))
        let level = try #require(drifting.candidates.first)
        #expect(abs(level.levelDifference) <= 1, "\(drifting.candidates.map { ($0.end, $0.levelDifference) })")
        #expect(level.end - level.start < Int64(n / 2))
        // At 8 kHz a quarter second is less than a 2048-frame spectrum: the latest end once compared none, read
        // as ends matching exactly (level +0.00 dB), and ranked first across the whole 6 dB drift.
        let low = 10 * 8_000
        let lowBed = LoopSignals.periodicNoise(
            period: low, frames: low, sampleRate: 8_000, amplitude: 0.2, smoothingHz: 2_000, poles: 2, seed: 31)
        let lowDrift = try LoopFinder.find(
            LoopSignals.applyingLevelDrift(
                to: LoopSignals.addingClick(to: lowBed, at: low - 3, amplitude: 0.5, frames: 3), decibels: 6))
        let lowBest = try #require(lowDrift.candidates.first)
        #expect(
            abs(lowBest.levelDifference) <= 1 && lowBest.spectralDistance > 0,
            "\(lowDrift.candidates.map { ($0.end, $0.levelDifference) })")
        #expect(lowBest.end - lowBest.start < Int64(low / 2))
    }

    /// Brown noise with a slow swell never repeats, but its match window holds so few independent values that
    /// chance correlations reach 0.5–0.6: ranked on them, the loop ended mid-swell and its bake stepped in level.
    /// Measured against what chance gives in the material, nothing repeats: the loop is long, its ends match in
    /// level, and the bake passes.
    @Test func brownNoiseSwellIsNotTakenForARepeat() throws {
        let b = LoopSignals.brownNoise(frames: 20 * 48_000, tremoloHz: 0.3, tremoloDecibels: 6, seed: 7)
        let r = try LoopFinder.find(b)
        let best = try #require(r.candidates.first)
        #expect(best.reasons.contains { $0.contains("no more than chance gives") }, "\(r.candidates.map(\.reasons))")
        #expect(abs(best.levelDifference) <= 1 && best.end - best.start >= 15 * 48_000, "\(best)")
        let baked = try LoopBaker.bake(b, region: best.region)
        let check = SeamRules.judge(baked.buffer, loop: 0..<baked.buffer.frameCount)
        #expect(check.verdict == .pass, "\(check.reasons)")
    }

    /// A drone under noise (a hum, a bowl's sustain) correlates about 0.7 at every whole number of its cycles: a
    /// repeat, not chance. Taken for chance, the longest loop ranked first though its ends sat half a cycle apart
    /// (correlation −0.8) and its bake dipped. At 8 kHz a quarter second holds no 2048-frame spectrum, and the
    /// latest end compared no spectra at all, which read as a perfect match (0.00 dB) and ranked it first.
    @Test func noisyDroneLoopsInPhase() throws {
        for (seed, rate) in [(0, 48_000), (1, 48_000), (2, 48_000), (3, 8_000), (4, 8_000)] {
            let drone = LoopSignals.addingNoise(
                to: LoopSignals.tones(frequencies: [220.3], frames: 12 * rate, sampleRate: rate), amplitude: 0.15,
                seed: UInt64(seed))
            let r = try LoopFinder.find(drone)
            let best = try #require(r.candidates.first)
            #expect(
                best.correlation > 0.6, "seed \(seed) at \(rate) Hz: \(r.candidates.map { ($0.end, $0.correlation) })")
            #expect(r.candidates.allSatisfy { $0.spectralDistance > 0 }, "\(r.candidates.map(\.spectralDistance))")
            let baked = try LoopBaker.bake(drone, region: best.region)
            let check = SeamRules.judge(baked.buffer, loop: 0..<baked.buffer.frameCount)
            #expect(check.verdict == .pass, "seed \(seed) at \(rate) Hz: \(check.reasons)")
        }
    }

    /// A faint hum under rain: nothing repeats well enough to loop on (the hum holds a third of the power), so the
    /// longest loop whose ends match ranks first, but not one whose ends are out of phase, where the crossfade cancels
    /// (the hum is half a cycle off at the longest end, 11.75 s). At 8 kHz the latest end once compared no spectra
    /// (a quarter second is less than the 2048-frame window), which read as a perfect match.
    @Test func faintHumUnderNoiseNeverLoopsOutOfPhase() throws {
        for (seed, rate) in [(0, 48_000), (1, 48_000), (2, 48_000), (3, 48_000), (4, 8_000), (5, 8_000)]
            as [(UInt64, Int)]
        {
            let n = 12 * rate
            let rain = LoopSignals.periodicNoise(
                period: n, frames: n, sampleRate: rate, amplitude: 0.2, smoothingHz: rate == 8_000 ? 2_000 : 4_000,
                poles: 1,
                seed: 50 + seed)
            let hum = LoopSignals.tones(frequencies: [1_300.5 / 11.75], frames: n, sampleRate: rate, amplitude: 0.085)
            var b = rain
            for i in b.samples.indices { b.samples[i] += hum.samples[i] }
            b = LoopSignals.addingClick(to: b, at: n - 3, amplitude: 0.5, frames: 3)
            let r = try LoopFinder.find(b)
            let best = try #require(r.candidates.first)
            #expect(
                best.correlation >= LoopFinder.antiPhaseCorrelation,
                "seed \(seed): \(r.candidates.map { ($0.end, $0.correlation) })")
            let baked = try LoopBaker.bake(b, region: best.region)
            let check = SeamRules.judge(baked.buffer, loop: 0..<baked.buffer.frameCount)
            #expect(check.verdict == .pass, "seed \(seed): \(check.reasons)")
            // Halfway through the crossfade the level holds (out of phase, it sank by 1.9 dB there).
            let c = baked.crossfade
            let middle = Self.decibels(baked.buffer, frames: (c * 2 / 5)..<(c * 3 / 5))
            let whole = Self.decibels(baked.buffer, frames: c..<baked.buffer.frameCount)
            #expect(
                abs(middle - whole) < 0.5,
                "seed \(seed): \(middle) dB halfway through the crossfade, \(whole) dB after it")
        }
    }

    /// The RMS level of `frames` over all channels, in dB.
    static func decibels(_ b: AudioBuffer, frames: Range<Int>) -> Double {
        var sum = 0.0
        for ch in 0..<b.channels { for i in frames { sum += Double(b[ch, i]) * Double(b[ch, i]) } }
        return 10 * log10(sum / Double(frames.count * b.channels))
    }

    /// A periodic bed exported with a 50 ms fade-in and fade-out: the loop starts after the fade-in (a loop that
    /// started inside it dipped at every wrap, and its bake failed), is a whole number of periods, and bakes into a
    /// file that passes.
    @Test func loopsStartAfterAFadeIn() throws {
        let period = 24_000
        let fade = 2_400
        let b = LoopSignals.fading(
            LoopSignals.periodicNoise(period: period, frames: 16 * period, smoothingHz: 3_000, poles: 2, seed: 41),
            in: fade, out: fade)
        let n = b.frameCount
        #expect(SeamRules.judge(b, loop: 0..<n).metric(.dip)?.status == .fail)
        let r = try LoopFinder.find(b)
        #expect(r.sustainStart >= fade && r.sustainStart <= fade + 4_800, "sustain from \(r.sustainStart)")
        let best = try #require(r.candidates.first)
        #expect(best.start == Int64(r.sustainStart) && (best.end - best.start) % Int64(period) == 0, "\(r.candidates)")
        let baked = try LoopBaker.bake(b, region: best.region)
        let check = SeamRules.judge(baked.buffer, loop: 0..<baked.buffer.frameCount)
        #expect(check.verdict == .pass, "\(check.reasons)")
    }

    @Test func noisyPeriodicSignalWithinTwoFrames() throws {
        for seed in 0..<5 as Range<UInt64> {
            let clean = LoopSignals.periodicNoise(
                period: Self.period, frames: Self.period * 3 + 5_000, smoothingHz: 3_000, poles: 1, seed: seed)
            // Independent noise 20 dB below the periodic part (peak 0.03 vs 0.3).
            let b = LoopSignals.addingNoise(to: clean, amplitude: 0.03, seed: 100 + seed)
            let r = try LoopFinder.find(
                b, options: LoopFinder.Options(minLength: Self.period / 2, maxLength: Self.period * 3 / 2))
            let best = try #require(r.candidates.first)
            // ±2 frames: noise moves the best correlation lag of a periodic signal by a frame or two.
            #expect(abs(best.end - best.start - Int64(Self.period)) <= 2, "seed \(seed): \(best)")
        }
    }

    /// Drips ring at 0.9–1.8 kHz: on the 4 kHz coarse grid a true period falls between samples and turns the ring
    /// out of phase, so the exact loop comes from the pulse period's multiples.
    @Test func ringingDripsLoopOnAnExactMultipleOfTheirPeriod() throws {
        for seed in 0..<20 as Range<UInt64> {
            let period = 20_000 + Int(seed) * 331
            let b = LoopSignals.drips(period: period, frames: period * 4 + period / 3, seed: 500 + seed)
            let best = try #require(try LoopFinder.find(b, options: LoopFinder.Options(count: 1)).candidates.first)
            let length = Int(best.end - best.start)
            #expect(length % period == 0, "seed \(seed): loop of \(length) frames, period \(period)")
            #expect(best.correlation > 0.9999, "seed \(seed)")
        }
    }

    @Test func aFileThatAlreadyLoopsIsTheAnswer() throws {
        let b = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 4, seed: 22)
        let r = try LoopFinder.find(b)
        #expect(r.wholeFileLoops)
        #expect(r.candidates.count == 1)
        #expect(r.candidates.first?.start == 0 && r.candidates.first?.end == Int64(Self.period * 4))
    }

    @Test func sampledInstrumentLoopsInTheSustainNotTheAttack() throws {
        let rate = 48_000
        let attack = rate / 5
        let sustain = LoopSignals.periodicNoise(
            period: 2_400, frames: 3 * rate, amplitude: 0.15, smoothingHz: 2_000, poles: 2, seed: 23)
        var rng = SeededRandom(seed: 24)
        var b = sustain
        for c in 0..<2 {
            for i in 0..<attack {
                // A loud noise transient that decays by 60 dB over the first 200 ms.
                let env = Float(pow(10, -3 * Double(i) / Double(attack)))
                b[c, i] = b[c, i] * (1 - env) + rng.nextSigned() * 0.9 * env
            }
        }
        let r = try LoopFinder.find(b, options: LoopFinder.Options(minLength: rate / 2, startMode: .free))
        #expect(r.sustainStart >= rate / 20, "sustain starts at \(r.sustainStart)")
        #expect(!r.candidates.isEmpty)
        for c in r.candidates { #expect(c.start >= Int64(r.sustainStart), "\(c)") }
        let best = try #require(r.candidates.first)
        #expect((best.end - best.start) % 2_400 == 0, "\(best)")
    }

    /// A designer's sustain loop of a few pitch periods (shorter than the search's default 1 s) that passes is the
    /// answer; given --min-length above it, the search runs instead.
    @Test func aShortEmbeddedLoopThatPassesIsTheAnswer() throws {
        let rate = 48_000
        let b = LoopSignals.periodicNoise(period: 480, frames: 2 * rate, smoothingHz: 4_000, seed: 26)
        let designer = LoopRegion(start: 24_000, end: 24_000 + 10 * 480)
        let r = try LoopFinder.find(b, existing: designer)
        #expect(
            r.wholeFileLoops && r.candidates.first?.start == designer.start && r.candidates.first?.end == designer.end,
            "\(r.candidates)")
        let longer = try LoopFinder.find(b, existing: designer, options: LoopFinder.Options(minLength: rate / 2))
        #expect(!longer.wholeFileLoops)
    }

    /// A render: a 1 s intro of other material, then a loop of 0.9 s repeated three times: nothing repeats the
    /// intro, so the loop lies in the repeating part, with the exact period.
    @Test func aRenderWithAnIntroLoopsInTheRepeatingPart() throws {
        let rate = 48_000
        let period = 43_217
        let intro = LoopSignals.brownNoise(frames: rate, cornerHz: 400, seed: 27)
        let loop = LoopSignals.periodicNoise(period: period, frames: 3 * period, smoothingHz: 3_000, seed: 28)
        let data = (0..<2).map { c in intro.withChannel(c) { Array($0) } + loop.withChannel(c) { Array($0) } }
        let b = AudioBuffer(channelData: data, sampleRate: SampleRate(checked: rate))
        let best = try #require(try LoopFinder.find(b).candidates.first)
        #expect(best.start >= Int64(rate) && (best.end - best.start) % Int64(period) == 0, "\(best)")
        #expect(best.correlation > 0.99)
    }

    /// Three repeats of a 43 217-frame loop after a 2 s `intro` at 48 kHz: the first candidate is a whole number of
    /// loops in the repeating part, an exact repeat.
    func expectLoopInTheRepeatingPart(after intro: AudioBuffer) throws {
        let rate = 48_000
        let period = 43_217
        let loop = LoopSignals.periodicNoise(period: period, frames: 3 * period, smoothingHz: 3_000, seed: 43)
        let data = (0..<2).map { c in intro.withChannel(c) { Array($0) } + loop.withChannel(c) { Array($0) } }
        let b = AudioBuffer(channelData: data, sampleRate: SampleRate(checked: rate))
        let best = try #require(try LoopFinder.find(b).candidates.first)
        #expect(best.start >= Int64(2 * rate) && (best.end - best.start) % Int64(period) == 0, "\(best)")
        #expect(best.correlation > 0.99, "\(best)")
    }

    /// A render whose intro is a hum (a 22 Hz engine under noise 20 dB down): the hum repeats itself, 0.9–0.95 a
    /// period later, so a loop inside the intro matched "well" and the later starts were never searched (two held-out
    /// renders gave a 1.7 s loop of the intro). Only a repeat of 0.99 or more ends the search at the sustain start.
    @Test func aRenderWhoseIntroHumsLoopsInTheRepeatingPart() throws {
        let hum = LoopSignals.periodicNoise(period: 2_183, frames: 96_000, smoothingHz: 1_000, seed: 41)
        try expectLoopInTheRepeatingPart(after: LoopSignals.addingNoise(to: hum, amplitude: 0.05, seed: 42))
    }

    /// A render whose intro repeats itself exactly (two identical 1 s halves, as SuperTuxKart's `skid` is made):
    /// the sustain start's exact repeat is the intro's own, which the file does not go on repeating, so the later
    /// starts are searched and the loop is the render's (a held-out render gave a 1.5 s loop of its intro).
    @Test func aRenderWhoseIntroRepeatsItselfExactlyLoopsInTheRepeatingPart() throws {
        try expectLoopInTheRepeatingPart(
            after: LoopSignals.periodicNoise(period: 48_000, frames: 96_000, smoothingHz: 2_000, seed: 45))
    }

    /// A designer's loop that verify only warns on (its end a few frames off the period: the waveform's phase jumps
    /// a little) ranks first, with the reason; the search's candidates follow it. A loop that fails is searched past.
    @Test func aDesignerLoopThatOnlyWarnsRanksFirst() throws {
        let rate = 48_000
        let b = LoopSignals.periodicNoise(period: 480, frames: 2 * rate, smoothingHz: 2_000, seed: 44)
        let start = 24_000
        var found: LoopRegion?
        for shorter in 1...240 where found == nil {
            let end = start + 40 * 480 - shorter
            if SeamRules.judge(b, loop: start..<end).verdict == .warn {
                found = LoopRegion(start: Int64(start), end: Int64(end))
            }
        }
        let warned = try #require(found)
        let r = try LoopFinder.find(b, existing: warned)
        let first = try #require(r.candidates.first)
        #expect(!r.wholeFileLoops && first.start == warned.start && first.end == warned.end, "\(r.candidates)")
        #expect(first.reasons.first?.contains("only warns on") == true, "\(first.reasons)")
        #expect(r.candidates.count > 1 && r.candidates[1].reasons.contains { $0.contains("ranks second") })
        let failing = LoopRegion(start: Int64(start), end: Int64(start + 40 * 480 - 240))
        #expect(SeamRules.judge(b, loop: start..<(start + 40 * 480 - 240)).verdict == .fail)
        let searched = try LoopFinder.find(b, existing: failing)
        #expect(searched.candidates.first?.end != failing.end)
    }

    /// A designer's loop whose end is half a period off fails; moved back onto a whole number of periods it passes, so
    /// the mended loop ranks first with its start kept (the search's own loops start where the sustain starts, often
    /// far earlier). Material that never repeats cannot be mended: the search's best ranks first.
    @Test func aDesignerLoopHalfAPeriodOffIsMended() throws {
        let rate = 48_000
        let period = 480
        let b = LoopSignals.periodicNoise(period: period, frames: 2 * rate, smoothingHz: 2_000, seed: 47)
        let start = 24_000
        let broken = LoopRegion(start: Int64(start), end: Int64(start + 40 * period - period / 2))
        #expect(SeamRules.judge(b, loop: start..<Int(broken.end)).verdict == .fail)
        let r = try LoopFinder.find(b, existing: broken)
        let first = try #require(r.candidates.first)
        #expect(first.start == broken.start && (first.end - first.start) % Int64(period) == 0, "\(first)")
        #expect(abs(first.end - broken.end) < Int64(period), "\(first)")
        #expect(first.reasons.first?.contains("mended") == true, "\(first.reasons)")
        #expect(SeamRules.judge(b, loop: Int(first.start)..<Int(first.end)).verdict == .pass)
        #expect(r.candidates.count > 1 && r.candidates[1].reasons.contains { $0.contains("ranks second") })

        let noise = LoopSignals.periodicNoise(period: 2 * rate, frames: 2 * rate, smoothingHz: 2_000, seed: 48)
        let unmendable = try LoopFinder.find(noise, existing: broken)
        #expect(unmendable.candidates.first?.reasons.first?.contains("mended") == false)
    }

    /// A sampled note of 0.3 s (an attack, then a periodic sustain): too short for 250 ms to match after a 1 s loop,
    /// it is searched with a window of a quarter of its sustain and loops in the sustain on whole periods (it was
    /// refused: "too short for a loop of at least 0.15 s after the attack").
    @Test func aShortSampledNoteIsSearched() throws {
        let rate = 44_100
        let attack = rate / 20
        var b = LoopSignals.periodicNoise(
            period: 147, frames: rate * 3 / 10, amplitude: 0.15, smoothingHz: 3_000, seed: 29)
        var rng = SeededRandom(seed: 30)
        for c in 0..<2 {
            for i in 0..<attack {
                let env = Float(pow(10, -3 * Double(i) / Double(attack)))
                b[c, i] = b[c, i] * (1 - env) + rng.nextSigned() * 0.9 * env
            }
        }
        let r = try LoopFinder.find(b)
        let best = try #require(r.candidates.first)
        #expect(r.sustainStart > 0 && best.start >= Int64(r.sustainStart), "\(r.sustainStart) \(best)")
        #expect((best.end - best.start) % 147 == 0 && best.correlation > 0.99, "\(best)")
    }

    /// A 10 ms file is refused for what it lacks, in milliseconds: with nothing left to search the shortest loop is
    /// 2 frames, so "a loop of at least …" would tell the user nothing.
    @Test func aFileTooShortToLoopIsRefusedWithItsFigures() {
        // 10 ms of a 440 Hz tone: its seam jumps, so the whole file is no loop either.
        let tone = (0..<480).map { Float(sin(2 * Double.pi * 440 * Double($0) / 48_000)) * 0.5 }
        let b = AudioBuffer(channelData: [tone], sampleRate: .hz48000)
        #expect {
            try LoopFinder.find(b)
        } throws: { error in
            let message = (error as? EnsoError)?.message ?? ""
            return message.contains("the file is 0.010 s long")
                && message.contains("the 0.020 s matched after a loop's end leave no room for a loop")
        }
    }

    @Test func impossibleConstraintsAreRefused() {
        let b = LoopSignals.periodicNoise(period: 4_800, frames: 48_000, seed: 25)
        #expect(throws: EnsoError.self) {
            try LoopFinder.find(b, options: LoopFinder.Options(minLength: 96_000))
        }
    }

    /// Near-equal scores (within ``LoopFinder/nearEqualScore``) rank the longer loop first, place by place: a ranking,
    /// the same whatever order the search found the candidates in. A comparison that called them a tie was none (`a`
    /// ties `b`, `b` ties `c`, `a` beats `c`): the order then depended on the search's, and a loop of the same length
    /// and a lower score could rank above another.
    @Test func nearEqualScoresRankTheLongerLoopFirstWhateverOrderTheyCameIn() {
        func candidate(_ score: Double, length: Int64, start: Int64) -> LoopFinder.Candidate {
            LoopFinder.Candidate(start: start, end: start + length, score: score, reasons: [], correlation: score)
        }
        let found = [
            candidate(0.6200, length: 100, start: 0),
            candidate(0.6185, length: 200, start: 1),
            candidate(0.6170, length: 300, start: 2),
            candidate(0.6164, length: 400, start: 3),
            candidate(0.6100, length: 500, start: 4),
        ]
        // 0.6185 is the longest within 0.002 of the best (0.6200); then 0.6200 (0.6170 is 0.003 under it); then
        // 0.6164, longer than 0.6170 and within 0.002 of it; then the rest by score.
        let expected: [Int64] = [1, 0, 3, 2, 4]
        var order = Array(found.indices)
        for _ in 0..<40 {
            let ranked = LoopFinder.rankedByScore(order.map { found[$0] })
            #expect(ranked.map(\.start) == expected, "from \(order)")
            order.shuffle()
        }
    }
}
