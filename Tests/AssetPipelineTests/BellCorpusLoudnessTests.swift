import AudioCore
import AudioDSP
import AudioFile
import Foundation
import Testing

/// `loudness.integrated` is BS.1770-4 of the file as it is: on every corpus recording of 0.4 s or more it agrees
/// within 0.1 LU with libebur128 fed the unpadded samples directly (`LoudnessMeter`, one `ebur128_add_frames`
/// call), whatever path `LoudnessAnalysis` took (hop energies at tiling rates, a second meter otherwise), and
/// `integratedPadded` with libebur128 fed 0.4 s of silence, the file and 0.4 s of silence.
@Suite(.enabled(if: BellCorpus.available, "no calibration corpus at ../shared/corpus"))
struct BellCorpusLoudnessTests {
    static func libebur128(_ b: AudioBuffer, pad: Double) throws -> Double {
        let m = try LoudnessMeter(channels: b.channelCount, sampleRate: b.sampleRate, truePeak: false)
        let frames = Int(b.sampleRate.frames(seconds: pad))
        m.addSilence(frames: frames)
        m.add(b)
        m.addSilence(frames: frames)
        return m.integrated
    }

    @Test func integratedMatchesLibebur128OnTheUnpaddedSamples() throws {
        var checked = 0
        var rates: Set<Int> = []
        for e in try BellCorpus.bells() {
            let b = try AudioFileDecoder.decode(path: BellCorpus.path(e)).buffer
            guard b.duration >= 0.4 else { continue }
            let r = try LoudnessAnalysis.measure(b)
            let direct = try Self.libebur128(b, pad: 0)
            let padded = try Self.libebur128(b, pad: 0.4)
            if direct.isFinite {
                #expect(abs(r.integrated! - direct) <= 0.1, "\(e.id): \(r.integrated!) vs libebur128 \(direct)")
            } else {
                #expect(r.integrated == nil, "\(e.id)")
            }
            #expect(abs(r.integratedPadded! - padded) <= 0.1, "\(e.id): padded \(r.integratedPadded!) vs \(padded)")
            checked += 1
            rates.insert(b.sampleRate.hertz)
        }
        #expect(checked >= 60)
        // Rates whose 10 ms hop does not tile libebur128's blocks (11.025 and 22.05 kHz) take the direct path.
        #expect(rates.contains(44_100) && rates.contains(where: { $0 % 100 != 0 }), "\(rates)")
    }
}
