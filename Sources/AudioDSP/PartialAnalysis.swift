import AudioCore
import Foundation

/// The strongest partials of a struck sound and what they say about its timbre.
///
/// Definitions:
/// - Partials are peaks of one long Hann-windowed spectrum (up to 1.37 s at 48 kHz, starting 10 ms after
///   the envelope peak, zero-padded to at least ×2: a power of two or three times one), at least 40 Hz, local
///   maxima over ±8 Hz, within 40 dB of the strongest; frequency and level by parabolic interpolation of the dB
///   spectrum. Up to 8 are kept.
/// - A partial is *strong* when within 25 dB of the strongest. `ratios` are strong partials' frequencies
///   over the lowest strong partial.
/// - `inharmonicity`: mean over strong partials above the lowest of 2·|r − round(r)| (0 harmonic … 1).
/// - `strikePitch`: the candidate fundamental (each strong partial, and its half and third) whose harmonics
///   1…8 within 1.5 % explain the most strong-partial amplitude (virtual pitch); an estimate.
/// - Each partial's `t60`: from its band level (±3 bins) in the ``Spectrogram``, the least-squares decay
///   rate from its maximum down to 40 dB below it, as seconds per 60 dB; nil when it does not fall 10 dB.
/// - `centroid` and `earlyCentroid`: power-weighted mean frequency of the whole sound and of the first
///   150 ms after the peak.
/// - `tonality`: the share of that long spectrum's power in spectral peaks (``TonalityAnalysis``): whether the ring
///   is carried by partials or is noise. Its resolution (under 1 Hz for a ring of 1.37 s, zero-padded) separates
///   the close, slowly beating partials of a gong; nil when silent, or when the span holds less than
///   ``tonalitySpanSeconds`` of ring (a sound cut at or just after its peak has no ring to read it from).
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct PartialAnalysis: Sendable, Codable, Equatable {
    public struct Partial: Sendable, Codable, Equatable {
        public var frequency: Double
        /// dB relative to the strongest partial (0 for the strongest).
        public var level: Double
        public var t60: Double?

        public init(frequency: Double, level: Double, t60: Double?) {
            (self.frequency, self.level, self.t60) = (frequency, level, t60)
        }
    }

    /// The level (dB re the strongest) down to which a partial is strong: it shapes the timbre as a voice of its
    /// own (``strongCount``, ``ratios``), and the beating of each strong partial is measured.
    public static let strongLevel = -25.0
    /// The least ring (s after the peak, the span's length) the tonality is read from: one frame of the
    /// ``Spectrogram`` every other spectral reading uses (80 ms). Whether a sound rings in partials is a property of
    /// its ring; the last 20–40 ms of a sound cut at its loudest are no ring, and there the share read swings from
    /// almost all to almost none of the power with a resampling of the file (a squeak cut 4 dB under its peak read
    /// 0.89 at 16 kHz and 0.007 at 96 kHz).
    public static let tonalitySpanSeconds = 0.08

    public var partials: [Partial]
    public var strongCount: Int
    public var ratios: [Double]
    public var inharmonicity: Double
    public var strikePitch: Double?
    public var centroid: Double
    public var earlyCentroid: Double
    public var tonality: Double?

    /// The samples the partials and the tonality are read from, of a sound of `count` samples at `sampleRate` Hz
    /// that peaks at `peakTime` (seconds): the ring's first 1.365 s, from 10 ms after the peak.
    public static func span(count: Int, sampleRate rate: Double, peakTime: Double) -> Range<Int> {
        let start = min(count, Int((peakTime + 0.01) * rate))
        return start..<(start + min(count - start, Int(1.365 * rate)))
    }

    /// Analyses `buffer` from `peakTime` (seconds) on, tracking partials through `spectrogram`.
    public init(_ buffer: AudioBuffer, peakTime: Double, spectrogram: Spectrogram) {
        self.init(
            mono: buffer.finiteMonoMix(), sampleRate: buffer.sampleRate.double, peakTime: peakTime,
            spectrogram: spectrogram)
    }

    /// Analyses a mono signal (finite samples) at `sampleRate` Hz from `peakTime` on.
    public init(mono: [Float], sampleRate rate: Double, peakTime: Double, spectrogram: Spectrogram) {
        let span = Self.span(count: mono.count, sampleRate: rate, peakTime: peakTime)
        let (start, length) = (span.lowerBound, span.count)
        var found: [Partial] = []
        var tonal: Double?
        if length >= 64 {
            let size = RealFFT.poolSize(atLeast: 2 * length)
            let fft = RealFFT.pooled(size: size)
            defer { RealFFT.recycle(fft) }
            var frame = [Float](repeating: 0, count: size)
            let window = HannWindow.shared(length)
            for i in 0..<length { frame[i] = mono[start + i] * window[i] }
            var power = [Float](repeating: 0, count: fft.binCount)
            frame.withUnsafeBufferPointer { f in
                power.withUnsafeMutableBufferPointer { p in fft.powerSpectrum(f.baseAddress!, into: p.baseAddress!) }
            }
            if Double(length) >= Self.tonalitySpanSeconds * rate {
                tonal = TonalityAnalysis.tonality(power: power.map(Double.init))
            }
            // The search compares powers (dB is monotonic in power); only the three bins of each peak's parabola
            // are turned into dB.
            func db(_ b: Int) -> Double { power[b] > 0 ? 10 * log10(Double(power[b])) : -300 }
            let binHz = rate / Double(size)
            let reach = max(1, Int(8 / binHz))
            let lowest = max(1, Int(40 / binHz))
            let topPower = power.dropFirst(Int(40 / binHz)).max() ?? 0
            let top = topPower > 0 ? 10 * log10(Double(topPower)) : -300
            var peaks: [(freq: Double, level: Double)] = []
            // Within 40 dB of the top, decided on power away from the boundary (±1 %) and in dB next to it, so the
            // answer is the dB comparison's without a logarithm per local maximum.
            let floorPower = Double(topPower) * 1e-4
            func withinReach(_ v: Float) -> Bool {
                let x = Double(v)
                if x > floorPower * 1.01 { return true }
                if x < floorPower * 0.99 { return false }
                return 10 * log10(x) > top - 40
            }
            power.withUnsafeBufferPointer { p in
                var b = lowest
                while b < p.count - 1 {
                    let v = p[b]
                    if v > 0, v >= p[b - 1], v > p[b + 1], withinReach(v) {
                        let lo = max(0, b - reach)
                        let hi = min(p.count - 1, b + reach)
                        if UnsafeBufferPointer(rebasing: p[lo...hi]).max() == v {
                            let (delta, level) = ParabolicPeak.interpolate(db(b - 1), db(b), db(b + 1))
                            peaks.append(((Double(b) + delta) * binHz, level))
                            b = hi
                        }
                    }
                    b += 1
                }
            }
            let strongest = peaks.map(\.level).max() ?? 0
            found = peaks.sorted { $0.level > $1.level }.prefix(8).map {
                Partial(frequency: $0.freq, level: $0.level - strongest, t60: nil)
            }
            found.sort { $0.frequency < $1.frequency }
        }
        for i in found.indices {
            let track = spectrogram.bandTrack(frequency: found[i].frequency, halfWidth: 3 * spectrogram.binHertz)
            found[i].t60 = Self.trackT60(track, hop: spectrogram.hopSeconds)
        }
        partials = found
        tonality = tonal
        let strong = found.filter { $0.level >= Self.strongLevel }
        strongCount = strong.count
        let f0 = strong.first?.frequency ?? 0
        ratios = f0 > 0 ? strong.map { $0.frequency / f0 } : []
        let devs = ratios.dropFirst().map { 2 * abs($0 - $0.rounded()) }
        inharmonicity = devs.isEmpty ? 0 : devs.reduce(0, +) / Double(devs.count)
        strikePitch = Self.virtualPitch(strong)
        centroid = spectrogram.centroid()
        let k0 = Int(peakTime / spectrogram.hopSeconds)
        earlyCentroid = spectrogram.centroid(frames: k0..<(k0 + max(1, Int((0.15 / spectrogram.hopSeconds).rounded()))))
    }

    static func trackT60(_ track: [Double], hop: Double) -> Double? {
        guard let top = track.indices.max(by: { track[$0] < track[$1] }) else { return nil }
        let peak = track[top]
        var end = top
        while end + 1 < track.count && track[end + 1] > peak - 40 { end += 1 }
        let seg = Array(track[top...end])
        guard seg.count >= 3, (seg.min() ?? peak) < peak - 10 else { return nil }
        let s = DecayAnalysis.slope(seg, hop: hop)
        return s < 0 ? -60 / s : nil
    }

    static func virtualPitch(_ strong: [Partial]) -> Double? {
        guard !strong.isEmpty else { return nil }
        var best: (f: Double, score: Double)?
        for p in strong {
            for div in [1.0, 2.0, 3.0] {
                let f = p.frequency / div
                guard f >= 30 else { continue }
                var score = 0.0
                for q in strong {
                    let h = (q.frequency / f).rounded()
                    if h >= 1, h <= 8, abs(q.frequency - h * f) <= 0.015 * q.frequency {
                        score += pow(10, q.level / 20)
                    }
                }
                if best == nil || score > best!.score * 1.05 { best = (f, score) }
            }
        }
        return best?.f
    }
}
