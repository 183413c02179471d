import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline
@testable import AudioDSP

/// A loop made of bars: its seam judged against the places where its own pattern repeats (docs/loops.md, "A loop
/// made of bars"; ``SeamMetrics/Pattern``).
@Suite struct SeamPatternTests {
    static let rate = 48_000
    /// Two bars at 120 bpm over a quiet bed (−40 dBFS RMS): 4 s, a beat every 0.5 s.
    static let loop = LoopSignals.beatLoop(bars: 2, bpm: 120, sampleRate: rate, bed: 0.01)
    static let beat = rate / 2

    /// The seamless loop and the same loop started on its other bar line, on a half bar, on its snare and on an
    /// off-beat (its hi-hat): every seam is one of the loop's own moments. The old code failed the loop started on
    /// its snare, whose onset jumps 3.7 times as far as 99 % of the loop's junctions: the snare's other onsets are
    /// three of 512 junctions, under the 1 % its 99th percentile stands for.
    @Test func aBeatLoopPassesWhereverItsSeamFallsInItsPattern() {
        for start in [0, 4 * Self.beat, 2 * Self.beat, Self.beat, 5 * Self.beat + Self.beat / 2] {
            let r = SeamCheck.analyze(LoopSignals.rotated(Self.loop, by: start))
            #expect(r.verdict == .pass, "from frame \(start): \(SeamCheck.describe(r)) \(r.reasons)")
        }
        // Where the pattern set the reference, the note says so.
        let offBeat = SeamCheck.analyze(LoopSignals.rotated(Self.loop, by: 2 * Self.beat))
        #expect(
            offBeat.metrics.contains { $0.note.contains("where its 1.000 s pattern repeats") },
            "\(offBeat.metrics.map(\.note))")
    }

    /// A dry beat loop (no bed under it) started on its snare or its hi-hat: the seam is the drum's onset, as at each
    /// of the pattern's places. The step's ratio to its ±5 ms is no measure there: half of them are the quiet before
    /// the onset, half the noise after it, and their median falls on either side by chance (one such loop's snare
    /// onsets read 0.85, 3.7, 28 and 61 times their own movement). So the places' jumps are read against the seam's
    /// movement: the snare steps as far at each. The old code failed 4 of these 6 on `continuity` (and 16 of 24
    /// such loops written with numpy: "16.7× the loop's own step where its 1.000 s pattern repeats"). A click on the
    /// snare's onset larger than the steps the snare itself takes (up to about 0.6 in its first ms) still fails; one
    /// within them is the snare's own (``SeamMetrics/onsetRise``).
    @Test func aDryBeatLoopStartedOnItsSnarePasses() {
        for bpm in [90.0, 120, 128] {
            // Written at 16 bits, as a curator's loops are: the quiet before an onset holds steps of 0, which the
            // ±5 ms leave out, so their median falls among the onset's.
            var dry = LoopSignals.beatLoop(bars: 2, bpm: bpm, sampleRate: Self.rate, bed: 0, drone: 0)
            dry.withMutableChannel(0) { x in for i in x.indices { x[i] = (x[i] * 32768).rounded() / 32768 } }
            let beat = Int((60 / bpm * Double(Self.rate)).rounded())
            for start in [beat, beat / 2] {
                let loop = LoopSignals.rotated(dry, by: start)
                let continuity = SeamCheck.analyze(loop).metric(.continuity)
                #expect(continuity?.status == .pass, "\(bpm) bpm from frame \(start): \(continuity?.note ?? "none")")
                let click = SeamCheck.analyze(LoopSignals.addingClick(to: loop, at: 0, amplitude: 1.2))
                #expect(click.verdict == .fail, "\(bpm) bpm from frame \(start), a click: \(SeamCheck.describe(click))")
            }
        }
    }

    /// A 90 bpm groove over a drone whose waveform repeats best every six beats (4 s, where the drone's tones come
    /// back nearly in phase): its 4-bar loop (10.67 s) holds 2.67 such periods, so the period gave no pattern. Its
    /// beat pair (1.333 s) the loop holds 8 times, its events keep and its waveform repeats at: the pattern is there,
    /// and the loop started on its snare passes (with a click there larger than the snare's own steps it fails). The
    /// old code failed it on
    /// `continuity` (the snare's onset against the 99th percentile of ordinary junctions).
    @Test func aPatternIsAWholeFractionOfThePeriodWhenTheLoopHoldsNoWholePeriod() {
        for rate in [44_100, 48_000] {
            let loop = LoopSignals.beatLoop(bars: 4, bpm: 90, sampleRate: rate, bed: 0.01, drone: 0.03)
            let beat = Int((60.0 / 90 * Double(rate)).rounded())
            let r = SeamCheck.analyze(LoopSignals.rotated(loop, by: beat))
            let continuity = r.metric(.continuity)
            #expect(continuity?.status == .pass, "\(rate) Hz: \(continuity?.note ?? "none")")
            let rhythm = r.metric(.rhythm)?.note ?? ""
            #expect(rhythm.contains("4.000 s pulse") && rhythm.contains("1.333 s pattern"), "\(rate) Hz: \(rhythm)")
            let click = SeamCheck.analyze(
                LoopSignals.addingClick(to: LoopSignals.rotated(loop, by: beat), at: 0, amplitude: 1.0))
            #expect(click.verdict == .fail, "\(rate) Hz, a click: \(SeamCheck.describe(click))")
        }
    }

    /// A drum machine's loop, whose every snare and hi-hat draws noise of its own, started on a snare or a hi-hat: the
    /// seam is an onset whose first step is one draw of that drum's noise, as large as the steps it takes next, and
    /// its pattern's places hold other draws, so neither the loop's junctions nor its places say how far a drum's
    /// first step goes. The jump into a sound that starts there is judged against the largest step that sound takes
    /// 1-5 ms later. The old code failed or warned on 4 of these 12 ("the waveform jumps by -0.1396 at the seam
    /// (7.6× the step 99 % of the loop's junctions stay under)", 12 of 48 such loops written with numpy); a click on
    /// the onset larger than the drum's own steps fails, and a click where no sound starts is judged as before.
    @Test func aDrumMachineLoopStartedOnAHitPasses() {
        for bpm in [90.0, 120, 128] {
            for bed in [0.0, 0.01] {
                let loop = LoopSignals.beatLoop(
                    bars: 2, bpm: bpm, sampleRate: Self.rate, bed: bed, drone: bed, machine: true, seed: 3)
                let beat = Int((60 / bpm * Double(Self.rate)).rounded())
                for start in [beat, beat + beat / 2] {
                    let rotated = LoopSignals.rotated(loop, by: start)
                    let r = SeamCheck.analyze(rotated)
                    let continuity = r.metric(.continuity)
                    #expect(
                        continuity?.status == .pass, "\(bpm) bpm, bed \(bed), from \(start): \(continuity?.note ?? "")")
                    let click = SeamCheck.analyze(LoopSignals.addingClick(to: rotated, at: 0, amplitude: 1.2))
                    #expect(click.verdict == .fail, "\(bpm) bpm, bed \(bed), from \(start), a click: \(click.reasons)")
                }
            }
        }
    }

    /// A beat loop whose whole mix drifts 3 dB down from its start to its end steps back up by 3 dB at every wrap:
    /// heard, and a fault of the file (a loop cut from a crescendo or a fade). Windows of 100 ms to 1.6 s
    /// rise and fall with the beats by 10-16 dB, which hides it; a window of the pattern's own period holds the same
    /// events wherever it lies, so the loop's own steps at that scale are its drift's (3 dB over the loop, a few
    /// tenths between neighbouring windows) and the seam's stands out. The old code passed all 6 on `level` ("level
    /// changes 18.20 dB across the seam (100 ms each side; 99 % of the loop's own steps stay under 22.08 dB)"); the
    /// seamless loops pass.
    @Test func aWholeMixDriftAcrossABeatLoopFailsAtItsPatternsScale() {
        for (bpm, bars) in [(90.0, 2), (120, 2), (128, 2), (90, 4), (120, 4), (128, 4)] {
            let loop = LoopSignals.beatLoop(
                bars: bars, bpm: bpm, sampleRate: 44_100, bed: 0.01, drone: 0.01, harmony: false)
            let beat = Int((60 / bpm * 44_100).rounded())
            let seamless = LoopSignals.rotated(loop, by: beat)
            let level = SeamCheck.analyze(seamless).metric(.level)
            #expect(level?.status == .pass, "\(bpm) bpm, \(bars) bars: \(level?.note ?? "")")
            var drifting = seamless
            let n = drifting.frameCount
            drifting.withMutableChannel(0) { x in
                for i in x.indices { x[i] *= Float(pow(10, -3 * Double(i) / Double(n) / 20)) }
            }
            let r = SeamCheck.analyze(drifting)
            let drift = r.metric(.level)
            #expect(drift?.status == .fail, "\(bpm) bpm, \(bars) bars, a drift: \(drift?.note ?? "")")
        }
    }

    /// The pulse search reads a period to a fraction of a millisecond (a 120 bpm groove's half bar as 44 087-44 114
    /// frames for 44 100), which the eight periods of a 4-bar loop multiply past the 1 ms a loop may miss its whole
    /// periods by: 15 of 48 seamless drum loops had no pattern by that chance. A period a few frames off finds the
    /// loop's own (its length over eight), where the waveform repeats at least as well; a loop 20 ms longer than its
    /// eight periods has none.
    @Test func aPeriodReadAFewFramesOffFindsTheLoopsOwnPattern() {
        let loop = LoopSignals.beatLoop(
            bars: 4, bpm: 120, sampleRate: 44_100, bed: 0.01, drone: 0.01, harmony: false)
        let view = LoopView(checking: loop, loop: 0..<loop.frameCount)
        for off in [-14, -7, 7, 14] {
            #expect(SeamMetrics.pattern(view, period: 44_100 + off) == nil, "\(off): eight periods miss by 1 ms")
            let found = SeamMetrics.pattern(view, mono: view.mono, period: 44_100 + off)
            #expect(found?.seconds == 1.0, "\(off) frames off: \(String(describing: found))")
        }
        let longer = AudioBuffer(
            channelData: [loop.withChannel(0) { Array($0) } + [Float](repeating: 0, count: 882)],
            sampleRate: loop.sampleRate)
        let view20 = LoopView(checking: longer, loop: 0..<longer.frameCount)
        #expect(SeamMetrics.pattern(view20, mono: view20.mono, period: 44_100) == nil)
    }

    /// A loop whose chords are held to each bar line changes at every bar line: across each, and across a seam on
    /// its first bar, its pulse keeps less of its self-similarity than at the ordinary points, most of them inside a
    /// bar. The pulse is judged against the least its pattern's places keep (the bar lines among them), and carries
    /// on; the old code warned ("the 1.000 s pulse breaks at the seam, 71 %") on every such loop started on a bar
    /// line, and none started elsewhere.
    @Test func aLoopWhoseChordsChangeAtItsBarLinesKeepsItsPulseOnABarLine() {
        for bars in [2, 4] {
            let held = LoopSignals.beatLoop(bars: bars, bpm: 120, sampleRate: Self.rate, bed: 0.01, held: true)
            for start in [0, 4 * Self.beat, Self.beat] {
                let r = SeamCheck.analyze(LoopSignals.rotated(held, by: start))
                let rhythm = r.metric(.rhythm)
                #expect(rhythm?.status == .pass, "\(bars) bars from frame \(start): \(rhythm?.note ?? "none")")
            }
            let onBar = SeamCheck.analyze(held).metric(.rhythm)?.note ?? ""
            #expect(onBar.contains("where its 1.000 s pattern repeats"), "\(onBar)")
        }
    }

    /// The places are the loop's coarsest division in whole periods: the half, then the thirds, the quarters, as few
    /// denominators as give three places (all of them in a loop of four periods or fewer), at most seven spread
    /// evenly. A 4-bar loop read at its half bar (8 periods) has its places on its three other bar lines, as an 8-bar
    /// one has; the old code read every eighth of the loop, so the 4-bar loop's were four half bars and three bar lines.
    @Test func thePlacesDivideTheLoopMostCoarsely() {
        #expect(SeamMetrics.coarsestPlaces(2) == [1])
        #expect(SeamMetrics.coarsestPlaces(3) == [1, 2])
        #expect(SeamMetrics.coarsestPlaces(4) == [1, 2, 3])
        #expect(SeamMetrics.coarsestPlaces(6) == [2, 3, 4])
        #expect(SeamMetrics.coarsestPlaces(8) == [2, 4, 6])
        #expect(SeamMetrics.coarsestPlaces(12) == [4, 6, 8])
        #expect(SeamMetrics.coarsestPlaces(16) == [4, 8, 12])
        #expect(SeamMetrics.coarsestPlaces(7) == [1, 2, 3, 4, 5, 6])
        #expect(SeamMetrics.coarsestPlaces(11) == [1, 3, 4, 6, 7, 9, 10])
        let loop = LoopSignals.beatLoop(bars: 4, bpm: 120, sampleRate: Self.rate, bed: 0, held: true, drone: 0)
        let pattern = SeamMetrics.rhythm(LoopView(checking: loop, loop: 0..<loop.frameCount)).pattern
        #expect(pattern?.junctions == [1, 2, 3].map { $0 * 16 * Self.beat / 4 }, "\(String(describing: pattern))")
    }

    /// A groove over held chords that change at each bar line, started on a bar line: each chord is released on the
    /// line and the next struck there, so the level dips 20-27 dB in 5 ms windows at every bar line, and the spectrum
    /// changes. Read at the loop's every eighth, the typical place was a half bar, where neither happens, and the old
    /// code failed these ("level dips 26.6 dB at the seam (5 ms windows ...); 99 % of the loop's own dips stay under
    /// 21.3 dB") or warned; at its quarters, its other bar lines, they pass. The bar lines differ among themselves
    /// (each chord's release ends in a different phase of its cycle), and a seam on one that dips more than the
    /// typical one, as far as they spread, passes too (the last three: the old code failed 16.1 dB in 20 ms windows
    /// against 10.9, the typical bar line alone against 12.7). A fade-out into the seam still fails.
    @Test func aGrooveOverChordsStartedOnABarLineIsJudgedAgainstItsOtherBarLines() {
        let grooves: [(Double, Double, UInt64, Int)] = [
            (120, 0, 1, 0), (128, 0.01, 1, 2), (128, 0.01, 2, 2),
            // Bar lines that dip more than the typical one, within the bar lines' own spread.
            (128, 0, 1, 0), (120, 0.01, 1, 2), (90, 0.01, 2, 0),
        ]
        for (bpm, bed, seed, bar) in grooves {
            let loop = LoopSignals.beatLoop(
                bars: 4, bpm: bpm, sampleRate: Self.rate, bed: bed, held: true, drone: 0, seed: seed)
            let start = bar * Int((4 * 60 / bpm * Double(Self.rate)).rounded())
            let r = SeamCheck.analyze(LoopSignals.rotated(loop, by: start))
            #expect(r.verdict == .pass, "\(bpm) bpm, bed \(bed), seed \(seed), bar \(bar): \(r.reasons)")
            let fade = SeamCheck.analyze(
                LoopSignals.fading(LoopSignals.rotated(loop, by: start), in: 0, out: 3 * Self.rate / 10))
            #expect(fade.verdict == .fail, "\(bpm) bpm, bar \(bar), a fade-out: \(SeamCheck.describe(fade))")
        }
    }

    /// A pulse of events whose waveform does not repeat (sixteen different strokes a beat apart, played once) has the
    /// places of its beats at the loop's quarters; the old code gave it none, so a groove whose chords change at
    /// every bar (its waveform never repeating at the half bar) was judged against ordinary junctions alone. A loop
    /// whose seam skips a beat by more than a listener hears has no places: the rhythm metric judges the skip.
    @Test func aPulseOfEventsHasItsBeatsAsPlaces() {
        let beat = 0.25
        let figure = LoopSignals.strokeFigure(strokes: 16, beat: beat, times: 1)
        let view = LoopView(checking: figure, loop: 0..<figure.frameCount)
        let step = Int(beat * Double(Self.rate))
        let r = SeamMetrics.rhythm(view)
        #expect(r.events && r.pattern?.junctions == [4, 8, 12].map { $0 * step }, "\(String(describing: r.pattern))")
        #expect(r.pattern?.repeats == false)
        // The last beat cut 40 ms short: a skip of 16 % of the beat.
        let short = figure.slice(frames: 0..<(figure.frameCount - Self.rate / 25))
        #expect(SeamMetrics.rhythm(LoopView(checking: short, loop: 0..<short.frameCount)).pattern == nil)
    }

    /// A 4-bar groove over held chords and a drone (110, 165 and 220 Hz: three of its 18.2 ms periods repeat as well
    /// as its bars): the pulse search takes the first lag that comes within 90 % of the best, and which comes first
    /// depends on where the loop starts. Started on its third or fourth bar it read the drone's 54.7 ms, which its
    /// events do not keep, so the old code judged it as a drone, on its phase, and the chord that changes at the seam
    /// failed it ("the waveform's 36.4 ms period (28 Hz) breaks at the seam: its phase jumps (8 % ...)"). Its events
    /// keep a pulse (six beats, where the drone comes back, or the bar, searched from a beat on): judged on it, the
    /// seam carries it on.
    @Test func aGrooveOverADroneIsJudgedOnItsBeatWhereverItStarts() {
        let loop = LoopSignals.beatLoop(bars: 4, bpm: 90, sampleRate: Self.rate, bed: 0.01, held: true, drone: 0.05)
        let bar = Int((4 * 60 / 90.0 * Double(Self.rate)).rounded())
        for start in [0, 1, 2, 3] {
            let rhythm = SeamCheck.analyze(LoopSignals.rotated(loop, by: start * bar)).metric(.rhythm)
            #expect(
                rhythm?.status == .pass && rhythm?.note.contains(" s pulse carries on") == true,
                "from bar \(start): \(rhythm?.note ?? "none")")
        }
    }

    /// The other side: a fault at the seam that the loop's own bar lines do not share stands out from them too: a
    /// click, 10 ms of digital silence, a loop cut 30 ms short of its bars, a 0.3 s fade-out into its end.
    @Test func aFaultAtTheSeamOfABeatLoopStillFails() {
        let n = Self.loop.frameCount
        var gap = Self.loop
        gap.withMutableChannel(0) { x in for i in (n - Self.rate / 100)..<n { x[i] = 0 } }
        let faults: [(String, AudioBuffer)] = [
            ("click", LoopSignals.addingClick(to: Self.loop, at: 0, amplitude: 0.4)),
            ("gap", gap),
            ("cut short", Self.loop.slice(frames: 0..<(n - 3 * Self.rate / 100))),
            ("fade-out", LoopSignals.fading(Self.loop, in: 0, out: 3 * Self.rate / 10)),
        ]
        for (fault, buffer) in faults {
            let r = SeamCheck.analyze(buffer)
            #expect(r.verdict == .fail, "\(fault): \(SeamCheck.describe(r)) \(r.reasons)")
        }
    }

    /// A fault of the loop's own at one place of its pattern excuses no seam: the seam is judged against the typical
    /// place (the median of their readings), not the most any place read. Read against the most, a beat loop whose
    /// second half a curator turned 6 dB down passed: the step at its middle bar line excused the one at the seam
    /// (12 such loops: 3 failed against the most, 6 against the typical place, as before the pattern).
    @Test func oneFaultyPlaceOfThePatternSetsNoReference() {
        let pattern = SeamMetrics.Pattern(junctions: [1, 2, 3], seconds: 1)
        // The places reach more than the 99th percentile: their typical reading plus twice their robust σ (the
        // smaller distance to it, 0.2, times 1.4826) is the reference, and named. The far place widens nothing.
        let bars = SeamMetrics.ownReference(1, atPattern: [1.2, 9, 1.4], pattern)
        #expect(abs(bars.value - (1.4 + 2 * 1.4826 * 0.2)) < 1e-12 && bars.pattern == 1)
        // One place reads far more (a step of the loop's own at its middle): the 99th percentile stays.
        let step = SeamMetrics.ownReference(1, atPattern: [0.5, 9, 0.6], pattern)
        #expect(step.value == 1 && step.pattern == nil)
        // One place reads far less (the same step read at the middle against a rise of the loop's own): no wider.
        let low = SeamMetrics.ownReference(1, atPattern: [-5, 1.2, 1.25], pattern)
        #expect(abs(low.value - (1.2 + 2 * 1.4826 * 0.05)) < 1e-12)
        // Places that differ among themselves (bar lines, each chord released differently): the seam may lie as far
        // from their middle as they do.
        let spread = SeamMetrics.ownReference(10, atPattern: [11.8, 12.7, 15.9], pattern)
        #expect(abs(spread.value - (12.7 + 2 * 1.4826 * 0.9)) < 1e-9 && spread.pattern == 1)
        // Two places (three bars): the lower, so a fault at one of them excuses nothing.
        #expect(SeamMetrics.ownReference(1, atPattern: [9, 0.8], pattern).pattern == nil)
        // No pattern: the 99th percentile.
        #expect(SeamMetrics.ownReference(1, atPattern: [], nil).value == 1)
    }

    /// Noise repeated to fill a loop has no events: it is no pattern, and its splices inside excuse none at the seam
    /// (a rumble clip whose ends do not meet, tiled four times, jumps at every splice and fails on its seam as it did).
    @Test func noiseRepeatedToFillALoopIsNoPattern() {
        let clip = Self.rate / 2
        // Half a cycle of smooth periodic noise: its ends do not meet.
        let rumble = LoopSignals.periodicNoise(
            period: 2 * clip, frames: clip, channels: 1, smoothingHz: 200, seed: 11)
        let tiled = AudioBuffer(
            channelData: [(0..<(4 * clip)).map { rumble.samples[$0 % clip] }], sampleRate: rumble.sampleRate)
        let r = SeamCheck.analyze(tiled)
        #expect(r.metric(.continuity)?.status == .fail, "\(SeamCheck.describe(r)) \(r.reasons)")
        let notes = r.metrics.map(\.note)
        #expect(!notes.contains { $0.contains("pattern repeats") }, "\(notes)")
    }

    /// The judgment's words: a reference set by the pattern's places names them and its period.
    @Test func theNoteNamesThePatternWhenItSetTheReference() {
        let m = SeamMetrics.Measure(
            .dip, .value(0.5, .dip(depth: 30, reference: 29.5, window: 0.005)), pattern: 2)
        #expect(
            SeamRules.rule(.dip).judge(m).note
                == "a dip of 30.0 dB at the seam (5 ms windows), 0.5 dB past the loop's own dips (29.5 dB) where its 2.000 s pattern repeats: too little to be heard as a gap (from 1.5 dB past)"
        )
        // The seam's jump against the places' jumps, each read against the seam's ±5 ms: the jumps compare directly.
        let step = SeamMetrics.Measure(.continuity, .value(2, .step(jump: 0.07, channel: nil)), pattern: 1)
        #expect(
            SeamRules.rule(.continuity).judge(step).note
                == "the waveform jumps by 0.0700 at the seam (2.0× the loop's own step where its 1.000 s pattern repeats)"
        )
        let level = SeamMetrics.Measure(.level, .value(9, .level(step: 9, reference: 8.8, window: 0.4)), pattern: 1)
        #expect(
            SeamRules.rule(.level).judge(level).note
                == "level changes 9.00 dB across the seam (400 ms each side; the loop's own steps reach 8.80 dB where its 1.000 s pattern repeats)"
        )
    }
}
