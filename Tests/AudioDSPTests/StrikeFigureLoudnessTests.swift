import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// A strike's level against the peak's, both heard over ``StrikeFigure/loudnessSpan`` (100 ms).
@Suite struct StrikeFigureLoudnessTests {
    /// A temple bell struck at 0.2 s and, at 1.7 s, a note of two partials 22 Hz apart (and an octave) at `amplitude`:
    /// its 10 ms level beats by a dB from top to trough, as a struck sound's close partials do.
    static func bellAndBeatingNote(amplitude: Double, shift: Int) -> AudioBuffer {
        let rate = 48_000
        let bell = BellSignals.strikes(
            BellSignals.templePartials, at: [0.2], seconds: 4.2, attack: 0.005, sampleRate: rate)
        let note = BellSignals.strikes(
            [
                BellSignals.Partial(1046.5, amplitude, t60: 1.5), BellSignals.Partial(1068.5, amplitude, t60: 1.5),
                BellSignals.Partial(2093, amplitude / 2, t60: 1),
            ], at: [1.7], seconds: 4.2, attack: 0.002, sampleRate: rate)
        let mixed = zip(bell, note).map { $0 + $1 }
        return SignalGenerator.buffer([Float](repeating: 0, count: shift) + mixed, sampleRate: rate)
    }

    /// Whether a note comes within 10 dB of the peak does not turn on where the 5 ms grid falls on its beating.
    /// Shifted by sixteenths of a hop (15 samples at 48 kHz, as leading silence, a codec's delay or another rate shift
    /// it), the note's loudest 10 ms read about −10.4 to −9.7 dB re the peak's, across the line, and it was a strike in
    /// some shifts and not in others (as `ox-sys-log-out-long`'s second strike, 9.86 dB under as it is and 10.02 dB as
    /// MP3, Ogg or at 22.05 kHz); over 100 ms it lies 1.5 dB lower, and no grid moves it by more than a few hundredths.
    @Test func aBeatingNoteNearTheLineReadsAlikeWhereverTheGridFalls() throws {
        var counts: [Int] = []
        for k in 0..<16 {
            counts.append(
                try StrikeFigureTests.figure(Self.bellAndBeatingNote(amplitude: 0.041, shift: k * 15)).strikes)
        }
        #expect(Set(counts).count == 1, "strikes by shift: \(counts)")
        #expect(counts.first == 1, "strikes by shift: \(counts)")
    }

    /// The other side: the same note 4 dB louder (−7.5 dB re the peak over 100 ms) is a strike, and a new note, at
    /// every shift.
    @Test func aLouderBeatingNoteIsAStrikeAtEveryShift() throws {
        for k in 0..<16 {
            let f = try StrikeFigureTests.figure(Self.bellAndBeatingNote(amplitude: 0.065, shift: k * 15))
            #expect(f.strikes == 2, "shift \(k)")
            #expect(f.newNotes == 1, "shift \(k)")
        }
    }

    /// A strike's level is what it brings before the next onset. Noise that starts with the file (−45 dBFS, 36 dB under
    /// the peak) is an onset at 0 s, against the silence before the file; a bell struck 0.12 s later came within the
    /// 100 ms spans read after it, so the noise's start read as a strike as loud as the bell's, and its spectrum as a new
    /// note: a gong over noise was "2 strikes bring 1 new note". A second real strike 0.12 s after the first is still
    /// one (a new tone struck over the ring, as loud as the first).
    @Test func aStrikeIsAsLoudAsWhatItBringsBeforeTheNext() throws {
        let rate = 48_000
        let bell = BellSignals.strikes(
            BellSignals.templePartials, at: [0.12], seconds: 3, attack: 0.005, sampleRate: rate)
        let overNoise = BellSignals.noisy(SignalGenerator.buffer(bell, sampleRate: rate))
        // The onsets the gong over noise gave: the file's start and the strike.
        let decay = try #require(DecayAnalysis(overNoise))
        let noisy = StrikeFigure(
            onsets: [0, 0.12], envelope: decay.curve, hop: decay.curveHop, peakTime: decay.peakTime,
            spectrogram: Spectrogram(overNoise), signal: overNoise.finiteMonoMix())
        #expect(noisy.strikes == 1 && noisy.newNotes == 0, "\(noisy)")
        let second = BellSignals.strikes(
            [BellSignals.Partial(1318.5, 0.5, t60: 2), BellSignals.Partial(2637, 0.2, t60: 1.5)], at: [0.24],
            seconds: 3, attack: 0.002, sampleRate: rate)
        let twice = try StrikeFigureTests.figure(
            SignalGenerator.buffer(zip(bell, second).map { $0 + $1 }, sampleRate: rate))
        #expect(twice.strikes == 2, "\(twice)")
    }

    /// The loudness over 100 ms is the mean power of the envelope's values across it: a steady level reads as itself,
    /// two values of +20 dB among silence read 10 dB lower (a tenth of the span's twenty), and outside the file is
    /// silent.
    @Test func theLoudnessIsTheMeanPowerOverTheSpan() {
        let steady = StrikeFigure.loudness([Double](repeating: -6, count: 100), hop: 0.005)
        #expect(abs(steady[50] - -6) < 1e-9)
        // Half the span lies before the file's start: half the power.
        #expect(abs(steady[0] - (-6 - 10 * log10(2))) < 1e-9)
        var burst = [Double](repeating: -200, count: 100)
        burst[50] = 20
        burst[51] = 20
        let read = StrikeFigure.loudness(burst, hop: 0.005)
        #expect(abs(read[50] - 10) < 1e-6)
    }
}
