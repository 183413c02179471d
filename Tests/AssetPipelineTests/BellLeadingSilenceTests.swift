import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// Silence put in front of a sound is no part of it (issue 43 §1: "up to 100 ms of leading silence"). The analyses
/// start on the sound's first sample that is not digital silence (``StruckMeasures``), so a pad of any length, not
/// only whole hops of the envelope's 5 ms grid, moves nothing they read: a padded copy is judged as its original, its
/// measures the same to the bit, its times later by the pad. Before, a pad that moved the sound on the grid flipped
/// 2 of 165 corpus copies padded by 12, 23 and 41 ms, and 6 of the proxy's 864 (docs/bells.md).
@Suite struct BellLeadingSilenceTests {
    /// Pads a frame count that is no whole hop at 48 or 44.1 kHz: 1 frame, 7, 12 ms, 23 ms, 41 ms and 100 ms.
    static func pads(_ rate: Int) -> [Int] { [1, 7, rate * 12 / 1000, rate * 23 / 1000, rate * 41 / 1000, rate / 10] }

    /// `b` after `frames` frames of digital silence.
    static func padded(_ b: AudioBuffer, _ frames: Int) -> AudioBuffer {
        let data = (0..<b.channels).map { [Float](repeating: 0, count: frames) + Array(b.channel($0)) }
        return AudioBuffer(channelData: data, sampleRate: b.sampleRate)
    }

    /// Whether `copy` (the sound after `pad` seconds of silence) is `original`'s audition: the same class, verdict,
    /// defects and measures, the times later by `pad`; what the file's own length and silence change aside (its
    /// duration, its loudness over BS.1770's blocks, which start at the file's first sample, and the defect scan's
    /// means over the whole file: its DC offset, its channels' correlation about their means and their balance).
    /// Returns the differences in words.
    static func differences(_ copy: BellAuditionResult, _ original: BellAuditionResult, pad: Double) -> [String] {
        var out: [String] = []
        if copy.bellClass != original.bellClass { out.append("class \(original.bellClass!) → \(copy.bellClass!)") }
        if copy.verdict != original.verdict { out.append("verdict \(original.verdict) → \(copy.verdict)") }
        if copy.defects != original.defects { out.append("defects \(original.defects) → \(copy.defects)") }
        guard var c = copy.metrics, let o = original.metrics else { return out + ["no metrics"] }
        func later(_ name: String, _ a: [Double], _ b: [Double]) {
            if a.count != b.count || zip(a, b).contains(where: { abs($0 - $1 - pad) > 1e-9 }) {
                out.append("\(name) \(b) → \(a) (pad \(pad) s)")
            }
        }
        later("peakTime", [c.decay.peakTime], [o.decay.peakTime])
        later("leadingSilence", [c.sound.leadingSilence], [o.sound.leadingSilence])
        later("onsetTimes", c.sound.onsetTimes, o.sound.onsetTimes)
        later("entryTimes", c.sound.entryTimes, o.sound.entryTimes)
        later("editFadeStart", c.decay.editFadeStart.map { [$0] } ?? [], o.decay.editFadeStart.map { [$0] } ?? [])
        (c.decay.peakTime, c.decay.editFadeStart, c.decay.curveStart) =
            (o.decay.peakTime, o.decay.editFadeStart, o.decay.curveStart)
        (c.sound.leadingSilence, c.sound.onsetTimes, c.sound.entryTimes) =
            (o.sound.leadingSilence, o.sound.onsetTimes, o.sound.entryTimes)
        (c.sound.duration, c.sound.loudness, c.sound.dcOffset) = (o.sound.duration, o.sound.loudness, o.sound.dcOffset)
        (c.sound.channelCorrelation, c.sound.channelBalance) = (o.sound.channelCorrelation, o.sound.channelBalance)
        if c.decay != o.decay { out.append("decay \(o.decay) → \(c.decay)") }
        if c.sound != o.sound { out.append("measures \(o.sound) → \(c.sound)") }
        if copy.likeness != original.likeness { out.append("likeness signature differs") }
        return out
    }

    /// A bell, a ding-dong, a bell cut while it rings, a clipped bell, a bell with a DC offset, a stereo bell and a
    /// bell at 44.1 kHz, each padded by every length of ``pads(_:)``: the same audition, to the bit.
    @Test func aPadOfAnyLengthMovesNothingTheAnalysesRead() {
        let bell = BellSignals.bell(seconds: 4)
        let sounds: [(String, AudioBuffer)] = [
            ("temple bell", bell),
            ("ding-dong", BellSignals.twoNoteChime()),
            ("bell cut 20 dB down", BellSignals.cutTail(bell, below: 20)),
            ("bell clipped 12 dB over", BellSignals.clipped(bell)),
            ("bell with a DC offset", BellSignals.dcOffset(bell)),
            ("stereo bell", BellSignals.bell(seconds: 4, channels: 2)),
            ("bell at 44.1 kHz", BellSignals.bell(seconds: 4, sampleRate: 44_100)),
        ]
        for (name, sound) in sounds {
            let original = BellAudition.audition(sound, file: "\(name).wav", profile: .temple)
            for pad in Self.pads(sound.sampleRate.hertz) {
                let copy = BellAudition.audition(Self.padded(sound, pad), file: "\(name).wav", profile: .temple)
                let seconds = Double(pad) / sound.sampleRate.double
                let d = Self.differences(copy, original, pad: seconds)
                #expect(d.isEmpty, "\(name) after \(pad) frames of silence: \(d.joined(separator: "; "))")
            }
        }
    }

    /// The report draws the padded copy's decay and spectra on the file's clock: its decay curve starts where its
    /// sound does (``DecayAnalysis/curveStart``), and the spectra start after the silence (``BellAnalysis/soundStart``).
    @Test func theAnalysisSaysWhereTheSoundStarts() throws {
        let bell = BellSignals.bell(seconds: 2)
        let pad = 1_103
        let a = BellAudition.analyse(Self.padded(bell, pad), file: "bell.wav", profile: .temple)
        let plain = BellAudition.analyse(bell, file: "bell.wav", profile: .temple)
        // The synthetic bell's first sample is its attack's 0.
        #expect(a.soundStart == plain.soundStart + pad && plain.soundStart == 1)
        let decay = try #require(a.decay)
        let plainDecay = try #require(plain.decay)
        #expect(abs(decay.curveStart - Double(1 + pad) / 48_000) < 1e-12)
        #expect(decay.curve == plainDecay.curve)
        #expect(a.spectrogram?.power == plain.spectrogram?.power)
    }

    /// Every bell and notification of the calibration corpus, decoded and padded by 12, 23 and 41 ms in memory: the
    /// same audition as the file's.
    @Test(.enabled(if: BellCorpus.available, "no calibration corpus at ../shared/corpus (or ENSO_CORPUS)"))
    func corpusSoundsPaddedOffTheGridAreJudgedAsTheirFiles() throws {
        let entries = try BellCorpus.bells().filter { ["bell", "notification"].contains($0.kind) }
        #expect(entries.count >= 50)
        var cases = 0
        var failures: [String] = []
        for e in entries {
            let sound = try AudioFileDecoder.decode(path: BellCorpus.path(e)).buffer
            let original = BellAudition.audition(sound, file: e.id, profile: .temple)
            let rate = sound.sampleRate.hertz
            for pad in [rate * 12 / 1000, rate * 23 / 1000, rate * 41 / 1000] {
                let copy = BellAudition.audition(Self.padded(sound, pad), file: e.id, profile: .temple)
                cases += 1
                let d = Self.differences(copy, original, pad: Double(pad) / Double(rate))
                if !d.isEmpty { failures.append("\(e.id) after \(pad) frames: \(d.joined(separator: "; "))") }
            }
        }
        print("corpus sounds padded off the envelope's grid: \(failures.count) of \(cases) copies differ")
        #expect(failures.isEmpty, Comment(rawValue: failures.joined(separator: "\n")))
    }
}
