import AudioCore
import AudioTestSupport
import Testing

@testable import AudioDSP

@Suite struct OnsetAnalysisTests {
    @Test func attackOfLinearRampsWithinTwoMilliseconds() {
        let bowl = [
            BellSignals.Partial(220, 0.3, t60: 9), BellSignals.Partial(598, 0.15, t60: 7),
            BellSignals.Partial(1131, 0.08, t60: 5),
        ]
        for ramp in [0.005, 0.01, 0.02, 0.03, 0.045, 0.06, 0.08, 0.1, 0.15, 0.2] {
            // A 1.3 Hz beat bends the envelope of a 200 ms ramp itself (the beating pair is down to cos(π·1.3·0.2) =
            // 0.68 at its top), so its true 10→90 % time is no longer 0.8 of the ramp: beating is tested to 150 ms.
            var sounds = [
                ("temple", BellSignals.bell(seconds: 2, attack: ramp)),
                ("bowl", BellSignals.bell(bowl, seconds: 2, attack: ramp)),
            ]
            if ramp <= 0.15 { sounds.append(("temple beating", BellSignals.bell(seconds: 2, attack: ramp, beat: 1.3))) }
            for (name, b) in sounds {
                let o = OnsetAnalysis(b)
                // 10→90 % of a linear ramp is 0.8 of it (the synthesised decay starts after the ramp), within 2 ms.
                #expect(abs(o.attack - 0.8 * ramp) <= 0.002, "\(name), ramp \(ramp): attack \(o.attack)")
                #expect(o.onsetCount == 1, "\(name), ramp \(ramp)")
            }
        }
        // An instant strike reads the 4 ms window's own rise (about 3 ms), never more than 4 ms.
        #expect(OnsetAnalysis(BellSignals.bell(seconds: 2, attack: 0)).attack <= 0.004)
    }

    @Test func leadingSilenceIsTheFirstSampleAboveMinus60dBFS() {
        let o = OnsetAnalysis(BellSignals.preRoll(BellSignals.bell(seconds: 2), seconds: 1.5))
        // The 5 ms linear ramp crosses 0.001 within its first 0.1 ms (partials sum to ≈ 0.53 peak).
        #expect(abs(o.leadingSilence - 1.5) <= 0.001)
        #expect(o.onsetCount == 1 && abs(o.onsetTimes[0] - 1.5) <= 0.02)
    }

    @Test func twoNoteChimeHasTwoOnsetsAndArpeggioThree() {
        #expect(OnsetAnalysis(BellSignals.twoNoteChime()).onsetCount == 2)
        let notes = [523.0, 659, 784].enumerated().map { i, f in
            BellSignals.strikes(
                [BellSignals.Partial(f, 0.3, t60: 0.8)], at: [Double(i) * 0.15], seconds: 1.5, attack: 0.002,
                sampleRate: 48_000)
        }
        let sum = (0..<notes[0].count).map { i in notes.reduce(Float(0)) { $0 + $1[i] } }
        #expect(OnsetAnalysis(SignalGenerator.buffer(sum, sampleRate: 48_000)).onsetCount == 3)
    }
}
