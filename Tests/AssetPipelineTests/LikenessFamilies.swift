import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import AudioTestSupport
import Foundation

/// Families of near-duplicates made from one sound by the changes a listener does not hear at matched loudness
/// (issue #45), and sounds made from it that a listener tells apart; with the pair precision and recall of the
/// groups ``LikenessGroups`` finds in them.
enum LikenessFamilies {
    /// One sound of a test set: its family (near-duplicates share one) and how it was made.
    struct Member {
        var family: String
        var name: String
        var buffer: AudioBuffer
    }

    /// `buffer` played `cents` higher: read as if recorded at a rate `2^(cents/1200)` times its own, resampled back.
    static func detuned(_ buffer: AudioBuffer, cents: Double) throws -> AudioBuffer {
        let rate = buffer.sampleRate.hertz
        let faster = AudioBuffer(
            planarSamples: buffer.samples, channels: buffer.channelCount,
            sampleRate: SampleRate(checked: Int((Double(rate) * pow(2, cents / 1200)).rounded())))
        // The rounding of the rate to whole hertz moves the pitch by under 0.04 cents at 44.1 kHz.
        var out = try Resampler.resample(faster, to: buffer.sampleRate, quality: .best)
        out = AudioBuffer(planarSamples: out.samples, channels: out.channelCount, sampleRate: buffer.sampleRate)
        return out
    }

    /// `buffer` with `seconds` of silence before it.
    static func padded(_ buffer: AudioBuffer, seconds: Double) -> AudioBuffer {
        let pad = Int(seconds * buffer.sampleRate.double)
        let data = (0..<buffer.channels).map { c in
            [Float](repeating: 0, count: pad) + buffer.withChannel(c) { Array($0) }
        }
        return AudioBuffer(channelData: data, sampleRate: buffer.sampleRate)
    }

    /// `buffer` resampled to `hertz` (libsamplerate, best).
    static func resampled(_ buffer: AudioBuffer, to hertz: Int) throws -> AudioBuffer {
        try Resampler.resample(buffer, to: SampleRate(checked: hertz), quality: .best)
    }

    /// `buffer` dying `factor` times as fast after its peak: an extra exponential fade at `(1/factor − 1)` times its
    /// own decay rate (from its T30, or EDT), so a decay 30 % shorter is `factor` 0.7.
    static func fasterDecay(_ buffer: AudioBuffer, factor: Double) -> AudioBuffer {
        let d = DecayAnalysis(buffer)!
        let t60 = d.t30 ?? d.t20 ?? d.edt ?? 2
        let extra = 60 / t60 * (1 / factor - 1)  // dB per second
        let peak = Int(d.peakTime * buffer.sampleRate.double)
        var out = buffer
        for c in 0..<buffer.channels {
            out.withMutableChannel(c) { p in
                for i in peak..<p.count {
                    p[i] *= Float(pow(10, -extra * Double(i - peak) / buffer.sampleRate.double / 20))
                }
            }
        }
        return out
    }

    /// The near-duplicates of `base` the issue names (level, 20 ms of pad, a resample, ±3 cents, noise at −72 dBFS),
    /// with `base` itself, all in family `family`.
    static func nearDuplicates(of base: AudioBuffer, family: String) throws -> [Member] {
        let otherRate = base.sampleRate.hertz == 44_100 ? 48_000 : 44_100
        return [
            Member(family: family, name: "original", buffer: base),
            Member(family: family, name: "-6 dB", buffer: BellSignals.scaled(base, decibels: -6)),
            Member(family: family, name: "20 ms pad", buffer: padded(base, seconds: 0.02)),
            Member(family: family, name: "resampled", buffer: try resampled(base, to: otherRate)),
            Member(family: family, name: "+3 cents", buffer: try detuned(base, cents: 3)),
            Member(family: family, name: "-3 cents", buffer: try detuned(base, cents: -3)),
            Member(family: family, name: "noise -72 dBFS", buffer: BellSignals.noisy(base, dbfs: -72, seed: 11)),
        ]
    }

    /// Pair precision and recall of `groups` against the families: a pair is positive when its two sounds share a
    /// family, and found when they share a group.
    static func precisionRecall(_ members: [Member], groups: [Int]) -> (precision: Double, recall: Double) {
        var truePositive = 0
        var found = 0
        var positive = 0
        for i in members.indices {
            for j in (i + 1)..<members.count {
                let same = members[i].family == members[j].family
                let grouped = groups[i] == groups[j]
                if same { positive += 1 }
                if grouped { found += 1 }
                if same && grouped { truePositive += 1 }
            }
        }
        return (
            found == 0 ? 1 : Double(truePositive) / Double(found),
            positive == 0 ? 1 : Double(truePositive) / Double(positive)
        )
    }

    /// The members that share a group but not a family, and those that share a family but not a group (for a
    /// failing test's message).
    static func mistakes(
        _ members: [Member], groups: [Int], explain: (Int, Int) -> String
    ) -> [String] {
        var out: [String] = []
        for i in members.indices {
            for j in (i + 1)..<members.count {
                let same = members[i].family == members[j].family
                if same != (groups[i] == groups[j]) {
                    out.append(
                        "\(same ? "split" : "merged"): \(members[i].family)/\(members[i].name) ~ \(members[j].family)/\(members[j].name) (\(explain(i, j)))"
                    )
                }
            }
        }
        return out
    }
}
