import AudioCore
import AudioTestSupport
import Testing

@testable import AudioDSP

@Suite struct OnsetAnalysisTests {
    @Test func attackOfLinearRampsWithinTwoMilliseconds() {
        for ramp in [0.005, 0.01, 0.02, 0.03] {
            let o = OnsetAnalysis(BellSignals.bell(seconds: 2, attack: ramp))
            // 10→90 % of a linear ramp is 0.8 of it; issue #4 asks for 2 ms.
            #expect(abs(o.attack - 0.8 * ramp) <= 0.002, "ramp \(ramp): attack \(o.attack)")
            #expect(o.onsetCount == 1)
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
            BellSignals.strikes([BellSignals.Partial(f, 0.3, t60: 0.8)], at: [Double(i) * 0.15], seconds: 1.5, attack: 0.002, sampleRate: 48_000)
        }
        let sum = (0..<notes[0].count).map { i in notes.reduce(Float(0)) { $0 + $1[i] } }
        #expect(OnsetAnalysis(SignalGenerator.buffer(sum, sampleRate: 48_000)).onsetCount == 3)
    }
}
