import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline
@testable import AudioDSP

/// A figure whose notes swell in without a strike the flux finds (a pad's arpeggio, as in a break timer's "subtle"
/// theme) is a figure: such a note's spectral flux is small beside the first note's against the silence before the
/// file, but a tone and its harmonics rise 20 dB over all heard at their pitch. Nothing a struck body does reads so: a
/// bell's modes start at the strike, a split mode beats under its first level, a gong's blooming modes are not a
/// tone's harmonics (docs/bells.md, rule 5). The judgment holds across rates and gain as the suite's other cases do.
extension BellJudgmentInvarianceTests {
    /// Three soft notes (60 ms attacks) 0.3 s apart ringing 4 s over a recording's noise (−80 dBFS): no strike after
    /// the first is found (the first frame's change against the silence before the file holds the whole noise floor's
    /// spectrum), yet two notes enter; the class says so, at 22.05, 48 and 96 kHz and 20 dB down.
    @Test func softNotesOfAFigureEnterWithoutAStrike() {
        for rate in [22_050, 48_000, 96_000] {
            for gain in [0.0, -20.0] {
                let figure = BellSignals.figure(spacing: 0.3, seconds: 5, attack: 0.06, sampleRate: rate)
                let pad = BellSignals.scaled(BellSignals.noisy(figure, dbfs: -80), decibels: gain)
                let r = audition(pad)
                let label = "\(rate) Hz, \(gain) dB"
                #expect(r.metrics?.newNotes == 0, "\(label): the strikes alone miss it: \(r.reasons)")
                #expect(r.metrics?.enteringNotes == 2, "\(label): \(r.reasons)")
                #expect(r.bellClass == .notificationLike, "\(label): \(r.reasons)")
                #expect(
                    r.reasons.first?.contains("new tones rise 20 dB over all heard at their pitch at") == true,
                    "\(label): \(r.reasons)")
                // Each is read in the first frame (≈ 85 ms) that holds its note, which starts at 0.3 and 0.6 s.
                let times = r.metrics?.entryTimes ?? []
                #expect(zip(times, [0.3, 0.6]).allSatisfy { $0 - $1 >= 0 && $0 - $1 <= 0.1 }, "\(label): \(times)")
            }
        }
    }

    /// The same soft notes, all of one pitch (a pad's tone swelling again), are not a figure.
    @Test func theSameSoftNoteAgainDoesNotEnter() {
        let again = BellSignals.figure([523.25, 523.25, 523.25], spacing: 0.3, seconds: 5, attack: 0.06)
        #expect(audition(again).metrics?.enteringNotes == 0)
    }

    /// Struck bodies: a temple bell, the same bell beating, struck twice, and a gong whose inharmonic upper modes bloom
    /// 30 dB over 0.3 s after the strike. None has a note entering, and each stays bell-like.
    @Test func noStruckBodyHasANoteEntering() {
        let rate = 48_000
        let bloom = [P(733, 0.12, t60: 5), P(1187, 0.08, t60: 4), P(1561, 0.05, t60: 3)]
        let strike = BellSignals.strikes(
            BellSignals.templePartials, at: [0], seconds: 8, attack: 0.005, sampleRate: rate)
        let swell = BellSignals.strikes(bloom, at: [0.1], seconds: 8, attack: 0.3, sampleRate: rate)
        let twice = BellSignals.strikes(
            BellSignals.templePartials, at: [0, 0.8], seconds: 8, attack: 0.005, sampleRate: rate)
        let cases: [(String, AudioBuffer)] = [
            ("bell", BellSignals.bell(sampleRate: rate)),
            ("beating bell", BellSignals.bell(beat: 0.8, sampleRate: rate)),
            ("struck twice", SignalGenerator.buffer(twice, sampleRate: rate)),
            ("blooming gong", SignalGenerator.buffer(zip(strike, swell).map { $0 + $1 }, sampleRate: rate)),
        ]
        for (name, b) in cases {
            let r = audition(b)
            #expect(r.metrics?.enteringNotes == 0, "\(name): \(r.reasons)")
            #expect(r.bellClass == .bellLike, "\(name): \(r.reasons)")
        }
    }

    /// A tone counts only as a new partial with two of its harmonics, one of them new too: a chance octave between
    /// two inharmonic partials is not a tone, nor is a new partial under two old ones; a harmonic shared with the notes
    /// before (a fifth's octave is the third harmonic of the root) still counts.
    @Test func aNewPeriodicToneNeedsTwoHarmonicsOneOfThemNew() {
        func tone(_ p: [(Double, Bool)]) -> Bool { StrikeFigure.holdsANewPeriodicTone(p.map { ($0.0, $0.1) }) }
        #expect(tone([(523, true), (1046, true), (1569, true)]))
        #expect(tone([(784, true), (1569, false), (2352, true)]))
        #expect(tone([(517, true), (1034, true), (2068, true), (5233, true)]))
        #expect(!tone([(5014, true), (9926, true)]))
        #expect(!tone([(733, true), (1187, true), (1561, true), (2023, true)]))
        #expect(!tone([(500, true), (1000 * 1.03, true), (1500 * 0.97, true)]))
        #expect(!tone([(500, true), (1000, false), (1500, false)]))
        #expect(!tone([(500, false), (1000, true), (1500, true)]))
    }
}
