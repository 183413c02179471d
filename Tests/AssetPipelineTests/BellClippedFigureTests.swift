import AudioCore
import AudioTestSupport
import Testing

@testable import AssetPipeline

/// A clipped bell's figure is the figure of the sound under the clipping (issue 43 §1; docs/bells.md, "Clipped
/// sounds are measured under their clipping"): the clipper's own changes are not strikes, and the harmonics it adds
/// are not a new tone.
@Suite struct BellClippedFigureTests {
    typealias P = BellSignals.Partial

    /// A temple bell struck at 0.1 s over a low hum (150 Hz, ringing 20 s to fall 60 dB) that starts with the file,
    /// as a gong's or a bowl's rubbed hum does: one bell, one strike, whatever its level.
    static func bellOverHum(hum: Double) -> AudioBuffer {
        let rate = 48_000
        let bell = BellSignals.strikes(
            BellSignals.templePartials, at: [0.1], seconds: 3, attack: 0.005, sampleRate: rate)
        let low = BellSignals.strikes([P(150, hum, t60: 20)], at: [0], seconds: 3, attack: 0.02, sampleRate: rate)
        return SignalGenerator.buffer(zip(bell, low).map { $0 + $1 }, channels: 1, sampleRate: rate)
    }

    /// Clipped 20 dB over full scale, the bell's ring stays on the rail for over a second; as it leaves the rail the
    /// clipper's distortion comes and goes with the peaks that still touch it, and the flux reads those changes as
    /// strikes 1.4–1.5 s in. On the plateau they were as loud as the first strike (the envelope there had not fallen
    /// 10 dB), and one brought a "new note" (the distortion's products): "3 strikes bring 1 new note". Read on the
    /// envelope under the clipping, they are 15 dB down the ring: ornaments, not notes.
    @Test func theClipperLeavingTheRailIsNoStrike() throws {
        let original = BellAudition.audition(Self.bellOverHum(hum: 0.02), file: "bell.wav", profile: .temple)
        let clipped = BellAudition.audition(
            BellSignals.clipped(Self.bellOverHum(hum: 0.02), gain: 20), file: "clipped.wav", profile: .temple)
        #expect(original.bellClass == .bellLike, "\(original.reasons)")
        let onsets = try #require(clipped.metrics?.onsetTimes)
        #expect(onsets.contains { $0 > 1 }, "the clipper's changes no longer read as onsets: \(onsets)")
        #expect(clipped.metrics?.strikes == 1, "\(clipped.reasons)")
        #expect(clipped.metrics?.newNotes == 0, "\(clipped.reasons)")
        #expect(clipped.bellClass == .bellLike, "\(clipped.reasons)")
        #expect(clipped.defects.contains(.clipping))
    }

    /// With a 5 % offset, 20 dB up, the hum alone pins its tops to one rail and reads as loud as the strike; the
    /// strike's partials then rise over it with the harmonics the clipper adds to each (a partial with its harmonics
    /// is what a new periodic tone is), and read as a tone entering 30 ms after the strike. Under the clipping the
    /// hum is 20 dB under the strike, the strike is the sound's first note, and no tone enters.
    @Test func theClippersHarmonicsAreNoNewTone() throws {
        let original = BellAudition.audition(Self.bellOverHum(hum: 0.05), file: "bell.wav", profile: .temple)
        let offset = BellSignals.dcOffset(Self.bellOverHum(hum: 0.05), 0.05)
        let clipped = BellAudition.audition(
            BellSignals.clipped(offset, gain: 20), file: "clipped.wav", profile: .temple)
        #expect(original.bellClass == .bellLike, "\(original.reasons)")
        #expect(original.metrics?.enteringNotes == 0, "\(original.reasons)")
        #expect(clipped.metrics?.enteringNotes == 0, "\(clipped.metrics?.entryTimes ?? []) \(clipped.reasons)")
        #expect(clipped.bellClass == .bellLike, "\(clipped.reasons)")
    }

    /// The other side: a clipped arpeggio's second note still enters as a tone, its partials read on the file as it
    /// is (under the arcs, whose corners add harmonics of their own, it no longer rose 20 dB over its pitch).
    @Test func aClippedArpeggiosNotesStillEnter() throws {
        let clipped = BellAudition.audition(
            BellSignals.clipped(BellSignals.figure(), gain: 20), file: "clipped.wav", profile: .temple)
        let entries = try #require(clipped.metrics?.entryTimes, "\(clipped.reasons)")
        #expect(entries.contains { abs($0 - 0.25) < 0.03 }, "\(entries)")
        #expect(clipped.bellClass == .notificationLike, "\(clipped.reasons)")
    }

    /// A file that starts on the rail: a temple bell struck 0.1 s in over a 10 % offset, 20 dB up, so the offset alone
    /// sits at full scale before the strike. The arc under that first run is drawn from its one intact side, across
    /// the silence, and reads loud before the strike has sounded in the file; the strike's partials, each with the
    /// clipper's harmonics, then read as a tone entering after the first note. The first note lasts until a frame is
    /// loud on both readings.
    @Test func aFileStartingOnTheRailHasNoEnteringTone() throws {
        let rate = 48_000
        let x = BellSignals.strikes(BellSignals.templePartials, at: [0.1], seconds: 3, attack: 0.005, sampleRate: rate)
        let bell = SignalGenerator.buffer(x, channels: 1, sampleRate: rate)
        let clipped = BellAudition.audition(
            BellSignals.clipped(BellSignals.dcOffset(bell, 0.1), gain: 20), file: "clipped.wav", profile: .temple)
        #expect(clipped.metrics?.enteringNotes == 0, "\(clipped.metrics?.entryTimes ?? []) \(clipped.reasons)")
        #expect(clipped.bellClass == .bellLike, "\(clipped.reasons)")
    }
}
