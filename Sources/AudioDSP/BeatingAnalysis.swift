import Foundation

/// Slow amplitude modulation ("beating") of a sound's partials, as real bells show when pairs of nearly
/// equal modes ring together.
///
/// For each partial, its band level (dB, from the ``Spectrogram``) is followed from its maximum while it
/// stays within 40 dB of it (at least 1 s); the straight-line decay is removed; `depth` is the peak-to-peak
/// size of what remains (2√2 × its RMS, in dB) and `rate` the number of its upward zero crossings per
/// second. A partial whose remainder rises through zero fewer than ``cycles`` times is not beating: a single bow is the
/// envelope's curve (a fade, a decay that slows), not a modulation that repeats. The partial with the deepest
/// modulation is reported. Rates above half the frame rate (≈ 11 Hz at 48 kHz) cannot be seen.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct BeatingAnalysis: Sendable, Codable, Equatable {
    /// Beat rate in Hz of the most modulated partial (0 when none).
    public var rate: Double
    /// Peak-to-peak modulation depth in dB.
    public var depth: Double
    /// The partial it was found on, Hz (0 when none).
    public var frequency: Double
}

extension BeatingAnalysis {
    /// The fewest upward zero crossings of a partial's remainder that make a beat: 2, two cycles of a modulation that
    /// repeats. A pure sine faded out linearly or by a cosine bows once (one crossing, 8–12 dB "deep"), and read as a
    /// beat it kept a synthesised tone from being one.
    public static let cycles = 2

    /// Measures beating on each of `frequencies` in `spectrogram`.
    public init(spectrogram: Spectrogram, frequencies: [Double]) {
        var best = BeatingAnalysis(rate: 0, depth: 0, frequency: 0)
        let hop = spectrogram.hopSeconds
        for f in frequencies {
            let track = spectrogram.bandTrack(frequency: f, halfWidth: 3 * spectrogram.binHertz)
            guard let top = track.indices.max(by: { track[$0] < track[$1] }) else { continue }
            var end = top
            while end + 1 < track.count && track[end + 1] > track[top] - 40 { end += 1 }
            let seg = Array(track[top...end])
            guard Double(seg.count) * hop >= 1 else { continue }
            let s = DecayAnalysis.slope(seg, hop: hop)
            let mean = seg.reduce(0, +) / Double(seg.count)
            let mid = Double(seg.count - 1) / 2
            let residual = seg.enumerated().map { $0.element - mean - s * hop * (Double($0.offset) - mid) }
            let rms = (residual.map { $0 * $0 }.reduce(0, +) / Double(residual.count)).squareRoot()
            var crossings = 0
            for i in 1..<residual.count where residual[i - 1] < 0 && residual[i] >= 0 { crossings += 1 }
            let depth = 2 * 2.0.squareRoot() * rms
            // A beat repeats: what does not rise through the line twice in the span is the envelope's own curve (a
            // linear or cosine fade in dB bows away from a straight line; so does a decay that slows), not beating.
            if crossings < Self.cycles { continue }
            if depth > best.depth {
                best = BeatingAnalysis(
                    rate: Double(crossings) / (Double(seg.count - 1) * hop), depth: depth, frequency: f)
            }
        }
        self = best
    }
}
