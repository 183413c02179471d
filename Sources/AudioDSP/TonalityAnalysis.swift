import Foundation

/// Whether a stretch of sound is carried by partials (a ringing body) or spread like noise, from a ``Spectrogram``.
///
/// - `tonality`: the share of the power (of one spectrum, or averaged over spectrogram frames) that lies in bins
///   standing 10 dB or more above the median of their neighbourhood (about ±6–9 % in frequency, at least ±10 bins). A struck body rings in discrete modes, so
///   its ringing puts most of its power there (the bells of the calibration corpus: 0.6–1.0); in a noise each bin
///   scatters around its neighbourhood's level, and a bin 10 dB above the median is rare (under 1 % of the power,
///   whatever the noise's spectral tilt, since the reference is local). Nil when the frames hold no power.
/// - `noiseSlope`: how fast the noise part of the sound falls, dB/s: the least-squares slope of each frame's median
///   bin level. A noise floor is stationary (slope near 0); a decaying noise-like sound falls with the sound.
///
/// - Thread safety: stateless.
/// - Real-time safe: no.
public enum TonalityAnalysis {
    /// A bin "stands out" at this power ratio over its neighbourhood median (10 dB).
    public static let peakRatio: Float = 10
    /// Sound whose partials carry at least this share of its power is tonal (half: noise gives about 1 %).
    public static let tonalShare = 0.5

    /// The share of the power of `frames` in spectral peaks; nil without power.
    public static func tonality(_ s: Spectrogram, frames: Range<Int>) -> Double? {
        let frames = frames.clamped(to: 0..<s.frameCount)
        guard !frames.isEmpty else { return nil }
        return tonality(power: s.summedPower(frames: frames))
    }

    /// The share of the power of one spectrum (`power[b]` for bin b) in spectral peaks; nil without power.
    public static func tonality(power: [Double]) -> Double? {
        guard power.count > 2 else { return nil }
        // Bin 0 (DC) is left out: the analyses see the sound without its offset.
        let total = power.dropFirst().reduce(0, +)
        guard total > 0 else { return nil }
        let reference = localMedian(power)
        var peaks = 0.0
        for b in 1..<power.count where power[b] >= Double(peakRatio) * reference[b] { peaks += power[b] }
        return peaks / total
    }

    /// The slope (dB/s) of each frame's median bin level over `frames`; nil for fewer than 3 frames or silence.
    public static func noiseSlope(_ s: Spectrogram, frames: Range<Int>) -> Double? {
        let frames = frames.clamped(to: 0..<s.frameCount)
        guard frames.count >= 3 else { return nil }
        let bins = s.binCount
        var levels: [Double] = []
        var row = [Double](repeating: 0, count: bins - 1)
        s.power.withUnsafeBufferPointer { p in
            for k in frames {
                for b in 1..<bins { row[b - 1] = Double(p[k * bins + b]) }
                let m = OrderStatistic.select(&row, row.count / 2)
                levels.append(m > 0 ? 10 * log10(m) : -300)
            }
        }
        guard levels.allSatisfy({ $0 > -290 }) else { return nil }
        return DecayAnalysis.slope(levels, hop: s.hopSeconds)
    }

    /// The median of each bin's neighbourhood (about ±6–9 % of its frequency, at least ±10 bins), from medians of
    /// blocks: the spectrum is cut into blocks as wide as max(10 bins, 6 % of their frequency); each block's median is
    /// taken once, and each bin gets the median of its own block's and the two neighbours' (a robust local level,
    /// in O(n log w)).
    static func localMedian(_ x: [Double]) -> [Double] {
        let n = x.count
        var starts: [Int] = []
        var b = 1
        while b < n {
            starts.append(b)
            b += max(10, Int(Double(b) * 0.06))
        }
        starts.append(n)
        let blocks = starts.count - 1
        var medians = [Double](repeating: 0, count: blocks)
        var scratch: [Double] = []
        for i in 0..<blocks {
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: x[starts[i]..<starts[i + 1]])
            medians[i] = OrderStatistic.select(&scratch, scratch.count / 2)
        }
        var out = [Double](repeating: 0, count: n)
        for i in 0..<blocks {
            let trio = [medians[max(0, i - 1)], medians[i], medians[min(blocks - 1, i + 1)]].sorted()
            for j in starts[i]..<starts[i + 1] { out[j] = trio[1] }
        }
        return out
    }
}
