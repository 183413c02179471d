import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

@Suite struct StrikeFigureTests {
    /// The figure of `buffer` as the audition reads it (onsets, envelope and spectra of the same sound).
    static func figure(_ buffer: AudioBuffer) throws -> StrikeFigure {
        let decay = try #require(DecayAnalysis(buffer))
        return StrikeFigure(
            onsets: OnsetAnalysis(buffer).onsetTimes, envelope: decay.curve, hop: decay.curveHop,
            peakTime: decay.peakTime, spectrogram: Spectrogram(buffer), signal: buffer.finiteMonoMix())
    }

    /// The figure of `x` (mono, at `rate`) after each shift of silence in front, 0 to 2047 samples by `step`: where the
    /// file's start puts the frame grid, as leading silence or a codec's delay moves it.
    static func figures(_ x: [Float], rate: Int, step: Int) throws -> [(shift: Int, figure: StrikeFigure)] {
        try stride(from: 0, to: 2048, by: step).map { shift in
            (shift, try figure(SignalGenerator.buffer([Float](repeating: 0, count: shift) + x, sampleRate: rate)))
        }
    }

    /// Expects `strikes` strikes bringing `newNotes` new notes in `x` at every shift (``figures(_:rate:step:)``).
    static func expectStrikes(
        _ strikes: Int, newNotes: Int, in x: [Float], rate: Int, step: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (shift, f) in try figures(x, rate: rate, step: step) {
            #expect(f.strikes == strikes, "shifted \(shift) samples", sourceLocation: sourceLocation)
            #expect(f.newNotes == newNotes, "shifted \(shift) samples", sourceLocation: sourceLocation)
        }
    }

    /// A temple bell with a second event 0.6 s in, while it still rings within 10 dB of its peak: either a click (30 ms
    /// of high-passed noise, `clickDecibels` re the ring's level there) or a new tone (a harmonic note at 1046.5 Hz).
    static func bellWith(clickDecibels: Double?) -> AudioBuffer {
        let rate = 48_000
        var x = BellSignals.strikes(BellSignals.templePartials, at: [0], seconds: 4, attack: 0.005, sampleRate: rate)
        let start = Int(0.6 * Double(rate))
        if let db = clickDecibels {
            let length = Int(0.03 * Double(rate))
            let white = SignalGenerator.whiteNoise(frames: length + 1, amplitude: 0.5, seed: 7)
            var click = (0..<length).map { i in
                (white[i + 1] - white[i]) * Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(length - 1)))
            }
            func rms(_ v: ArraySlice<Float>) -> Double {
                (v.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(v.count)).squareRoot()
            }
            let gain = rms(x[start..<start + length]) * pow(10, db / 20) / rms(click[...])
            for i in click.indices { click[i] *= Float(gain) }
            for i in click.indices { x[start + i] += click[i] }
        } else {
            let note = [
                BellSignals.Partial(1046.5, 0.12, t60: 1), BellSignals.Partial(2093, 0.06, t60: 0.8),
                BellSignals.Partial(3139.5, 0.03, t60: 0.6),
            ]
            let tone = BellSignals.strikes(note, at: [0.6], seconds: 4, attack: 0.002, sampleRate: rate)
            for i in x.indices { x[i] += tone[i] }
        }
        return SignalGenerator.buffer(x, sampleRate: rate)
    }

    /// A click far under the ring is found as a strike (the flux's log scale counts its bins as fully as a partial's
    /// rise, and the ring is within 10 dB of its peak) but brings no note: what it adds is 30–50 dB under the sound.
    /// Before ``StrikeFigure/newEnergyAudibility``, each read "2 strikes bring 1 new note".
    @Test func aClickUnderTheRingBringsNoNote() throws {
        for db in [-30.0, -40, -50] {
            let f = try Self.figure(Self.bellWith(clickDecibels: db))
            #expect(f.strikes == 2, "click at \(db) dB")
            #expect(f.newNotes == 0, "click at \(db) dB")
        }
    }

    /// The other side: a new tone struck at the same moment is a new note.
    @Test func aNewToneStruckOverTheRingIsANote() throws {
        let f = try Self.figure(Self.bellWith(clickDecibels: nil))
        #expect(f.strikes == 2)
        #expect(f.newNotes == 1)
    }

    /// A harmonic note of 523.25 Hz (its overtones dying ten times faster than it) and, 250 ms later, its octave:
    /// the octave's partials lie on the first note's harmonics, so it brings no new pitch, however far the figure
    /// falls from the spectrogram's frame grid. Shifted by eighths of a hop (256 samples at 48 kHz, as leading silence
    /// or a codec's delay shifts it), the grid's frame pair read the first note's harmonics after they had faded in
    /// three of the eight shifts, and the octave as a new note there (2 strikes, 1 new note: notification-like).
    @Test func anOctaveBringsTheSameCountWhereverItFallsOnTheGrid() throws {
        let rate = 48_000
        func tone(_ f: Double, _ amplitude: Double, overtoneDecay: Double) -> [BellSignals.Partial] {
            (1...4).map { n in
                BellSignals.Partial(
                    Double(n) * f, amplitude / Double(1 << (n - 1)), t60: n == 1 ? 1.5 : 1.5 * overtoneDecay)
            }
        }
        let first = BellSignals.strikes(
            tone(523.25, 0.4, overtoneDecay: 0.1), at: [0.2], seconds: 2, attack: 0.002, sampleRate: rate)
        let octave = BellSignals.strikes(
            tone(1046.5, 0.3, overtoneDecay: 1), at: [0.45], seconds: 2, attack: 0.002, sampleRate: rate)
        let x = zip(first, octave).map { $0 + $1 }
        try Self.expectStrikes(2, newNotes: 0, in: x, rate: rate, step: 256)
    }

    /// A chord on C6 (1046.5 Hz over C5, with a faint A4 26 dB under its strongest partial) and, 0.5 s later, a loud
    /// A4. The second strike's energy lies on the chord's faint A4, so it read as the chord's own partial and the figure
    /// as one bell struck twice (0 new notes); the chord struck again would bring there under 1 % of what the A4 brings:
    /// a new pitch on a faint partial, 1 new note.
    @Test func aLoudNoteOnAFaintPartialOfTheMainStrikeIsANewNote() throws {
        let rate = 48_000
        let chord = [
            BellSignals.Partial(1046.5, 0.4, t60: 2), BellSignals.Partial(523.25, 0.15, t60: 2),
            BellSignals.Partial(2093, 0.1, t60: 1.5), BellSignals.Partial(440, 0.4 * pow(10, -26.0 / 20), t60: 2),
        ]
        let a4 = [
            BellSignals.Partial(440, 0.3, t60: 2), BellSignals.Partial(880, 0.05, t60: 1.5),
            BellSignals.Partial(1320, 0.02, t60: 1),
        ]
        let x = zip(
            BellSignals.strikes(chord, at: [0.2], seconds: 2.5, attack: 0.002, sampleRate: rate),
            BellSignals.strikes(a4, at: [0.7], seconds: 2.5, attack: 0.002, sampleRate: rate)
        ).map { $0 + $1 }
        let f = try Self.figure(SignalGenerator.buffer(x, sampleRate: rate))
        #expect(f.strikes == 2)
        #expect(f.newNotes == 1)
    }

    /// The other side: a bell whose faint mode (1500 Hz, 27 dB under its strongest partial in the strike's new energy)
    /// blooms after the strike to be its loudest, as a gong's modes do, and is struck again in that balance: the mode is
    /// the bell's own as it has rung, so the second strike brings no new note. Read against the balance as struck alone,
    /// 23 % of its energy would be the bell's: a new note.
    @Test func aBellStruckAgainInTheBalanceItBloomedToBringsNoNewNote() throws {
        let rate = 48_000
        var x = BellSignals.strikes(
            BellSignals.templePartials, at: [0.2], seconds: 3, attack: 0.005, sampleRate: rate)
        let again = BellSignals.templePartials.map { BellSignals.Partial($0.frequency, $0.amplitude / 4, t60: $0.t60) }
        let second = BellSignals.strikes(
            again + [BellSignals.Partial(1500, 0.22, t60: 1)], at: [1.6], seconds: 3, attack: 0.005, sampleRate: rate)
        // The mode: faint from the strike, swelling from 0.5 to 0.8 s to 0.3, then dying (T60 0.5 s).
        let faint = 0.2 * pow(10, -29.0 / 20)
        for i in Int(0.2 * Double(rate))..<x.count {
            let t = Double(i) / Double(rate)
            let swell = min(1, max(0, (t - 0.5) / 0.3))
            let level = t < 0.8 ? faint + (0.3 - faint) * swell : 0.3 * pow(10, -3 * (t - 0.8) / 0.5)
            x[i] += Float(level * sin(2 * Double.pi * 1500 * (t - 0.2))) + second[i]
        }
        let f = try Self.figure(SignalGenerator.buffer(x, sampleRate: rate))
        #expect(f.strikes == 2)
        #expect(f.newNotes == 0)
    }

    /// A bell of two partials three bins apart in the spectrogram (240 and 276 Hz at 48 kHz, the upper 15 dB under
    /// the lower), struck at 0.2 s and struck again at 0.8 s on its upper partial. The upper partial is a peak of the
    /// main strike's new energy (over the bins beside it), but the lower one's main lobe still stands 15 dB under it two
    /// bins away: read as a peak only where it tops the two bins either side, it was no partial of the bell, and the
    /// second strike read as a new note (the way `lo-soul`'s bass read at 48 kHz and not at 44.1). Shifted by quarters
    /// of a hop, as leading silence or a codec's delay shifts it, the second strike brings no new note anywhere.
    @Test func aPartialBesideALouderOneIsTheBellsOwn() throws {
        let rate = 48_000
        let bell = [P(240, 0.4, t60: 3), P(276, 0.4 * pow(10, -15.0 / 20), t60: 3)]
        let x = zip(
            BellSignals.strikes(bell, at: [0.2], seconds: 2.5, attack: 0.002, sampleRate: rate),
            BellSignals.strikes([P(276, 0.25, t60: 3)], at: [0.8], seconds: 2.5, attack: 0.002, sampleRate: rate)
        ).map { $0 + $1 }
        try Self.expectStrikes(2, newNotes: 0, in: x, rate: rate, step: 512)
    }

    /// Two bells struck in turn every 100 ms, as a twin-bell alarm clock rings (one of four partials about 1 kHz, one of
    /// two about 3.1 kHz), six strikes: each strike of the high bell is a new note, 3 at every shift. Each strike's
    /// frames start at its attack, so what they hold moves with the sound. Read on the grid's pair, or on a pair placed
    /// at the onset (on the flux's 11 ms grid), taking the one with more new energy, the frame after could hold part of
    /// the next strike, the other bell's, so the main strike's partials took in the high bell's at some shifts and
    /// the figure read no new note there (`lo-alarm-clock` with 30 ms of silence in front: 86 strikes of one bell).
    @Test func twoBellsStruckInTurnAreTwoNotesWhereverTheOnsetsFall() throws {
        let rate = 44_100
        let low = [P(1017, 0.2, t60: 1.2), P(1038, 0.4, t60: 1.2), P(1056, 0.4, t60: 1.2), P(1080, 0.2, t60: 1.2)]
        let high = [P(3142, 0.4, t60: 1.5), P(3154, 0.32, t60: 1.5)]
        var x = [Float](repeating: 0, count: Int(1.6 * Double(rate)))
        for k in 0..<6 {
            let strike = BellSignals.strikes(
                k % 2 == 0 ? low : high, at: [0.1 + 0.1 * Double(k)], seconds: 1.6, attack: 0.001, sampleRate: rate)
            for i in x.indices { x[i] += strike[i] }
        }
        try Self.expectStrikes(6, newNotes: 3, in: x, rate: rate, step: 128)
    }

    /// The other side: a note a whole tone over the bell's loud partial (269.4 Hz over 240 Hz, 2.5 bins at 48 kHz, where
    /// the partial's window has its first sidelobe, 31.5 dB under it) is a new note at every shift: a sidelobe is under
    /// the 30 dB the main strike's peaks are taken within, so no bin of it is a partial of the bell.
    @Test func aNoteAWholeToneOverALoudPartialIsANewNote() throws {
        let rate = 48_000
        let bell = [P(240, 0.4, t60: 3), P(617, 0.1, t60: 3)]
        let note = [P(269.4, 0.3, t60: 3), P(538.8, 0.1, t60: 2), P(808.2, 0.05, t60: 1.5)]
        let x = zip(
            BellSignals.strikes(bell, at: [0.2], seconds: 2.5, attack: 0.002, sampleRate: rate),
            BellSignals.strikes(note, at: [0.8], seconds: 2.5, attack: 0.002, sampleRate: rate)
        ).map { $0 + $1 }
        try Self.expectStrikes(2, newNotes: 1, in: x, rate: rate, step: 512)
    }

    typealias P = BellSignals.Partial

    /// A root (C5) whose third harmonic starts strong and dies within 0.3 s.
    static let root = [
        P(523.25, 0.4, t60: 1.5), P(1046.5, 0.2, t60: 1.2), P(1569.75, 0.4, t60: 0.3), P(2093, 0.05, t60: 0.8),
    ]

    /// The root and its fifth (G5) swelling in over 120 ms from 0.3 s: the fifth's octave lies on the root's third
    /// harmonic, and its partials rise across the frames that hold the swell. Shifted by sixteenths of a hop (128
    /// samples at 48 kHz), the grid's frames alone read the fifth entering at 8 of the 16 shifts; read every half hop,
    /// it enters at each, 0.07–0.09 s into its swell.
    @Test func aFifthSwellingInEntersWhereverItFallsOnTheGrid() throws {
        let rate = 48_000
        let first = BellSignals.strikes(Self.root, at: [0], seconds: 1.6, attack: 0.002, sampleRate: rate)
        let fifth = BellSignals.strikes(
            [P(783.99, 0.2, t60: 1.5), P(1567.98, 0.06, t60: 1.2), P(2351.97, 0.04, t60: 1)], at: [0.3], seconds: 1.6,
            attack: 0.12, sampleRate: rate)
        let x = zip(first, fifth).map { $0 + $1 }
        for (shift, f) in try Self.figures(x, rate: rate, step: 128) {
            #expect(f.enteringNotes == 1, "shifted \(shift) samples: \(f.entryTimes)")
            let t = (f.entryTimes.first ?? 0) - Double(shift) / Double(rate)
            #expect(t >= 0.3 && t <= 0.42, "shifted \(shift) samples: \(f.entryTimes)")
        }
    }

    /// The other side: the root alone, and the root struck again at 0.3 s, bring no tone entering at any shift (the
    /// frames between the grid's read no partial of a struck note over what its strike was heard at).
    @Test func aRootAloneOrStruckAgainHasNoToneEnteringAtAnyShift() throws {
        let rate = 48_000
        for times in [[0.0], [0.0, 0.3]] {
            let x = BellSignals.strikes(Self.root, at: times, seconds: 1.6, attack: 0.002, sampleRate: rate)
            for (shift, f) in try Self.figures(x, rate: rate, step: 128) {
                #expect(f.enteringNotes == 0, "struck at \(times), shifted \(shift) samples: \(f.entryTimes)")
            }
        }
    }

    /// The other side: an arpeggio of three notes (C5, E5, G5, 250 ms apart) brings two new notes at every shift.
    @Test func anArpeggioBringsItsNotesWhereverItFallsOnTheGrid() throws {
        let x = BellSignals.figure(spacing: 0.25, t60: 2, seconds: 2.5)
        try Self.expectStrikes(3, newNotes: 2, in: x.finiteMonoMix(), rate: 48_000, step: 256)
    }
}
