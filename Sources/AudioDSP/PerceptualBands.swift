import Foundation

/// Bands two ERBs wide on the ERB-number scale of Glasberg & Moore (1990), for spectra as a listener's auditory
/// filters group them.
///
/// The ERB number of `f` Hz is `21.4 · log10(1 + 0.00437 · f)`. Band `i` spans ERB numbers
/// `firstERB + 2i ..< firstERB + 2i + 2`; the first starts at 50 Hz and the last ends at 16 kHz (bands 1 … 18: a
/// bell's lowest hum to the top of what adult listeners hear of a chime's sparkle). A spectrum sampled at a rate
/// whose Nyquist frequency falls inside a band has only the bands below it (``count(nyquist:)``), so that a
/// resampled copy is compared on the bands both files hold.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public enum PerceptualBands {
    /// ERB number of `hertz` (Glasberg & Moore 1990).
    public static func erbNumber(_ hertz: Double) -> Double { 21.4 * log10(1 + 0.00437 * hertz) }

    /// The frequency (Hz) of ERB number `erb`.
    public static func hertz(erbNumber erb: Double) -> Double { (pow(10, erb / 21.4) - 1) / 0.00437 }

    /// The ERB number where band 0 starts (50 Hz).
    public static let firstERB = erbNumber(50)
    /// Each band's width in ERBs.
    public static let widthERB = 2.0
    /// How many bands span 50 Hz … 16 kHz.
    public static let maximumCount = Int(((erbNumber(16_000) - firstERB) / widthERB).rounded(.down))

    /// The edges (Hz) of band `index`.
    public static func edges(_ index: Int) -> (low: Double, high: Double) {
        let lo = firstERB + widthERB * Double(index)
        return (hertz(erbNumber: lo), hertz(erbNumber: lo + widthERB))
    }

    /// The bands whose upper edge is under 95 % of `nyquist` (the anti-alias filter's transition band is not
    /// heard as the sound).
    public static func count(nyquist: Double) -> Int {
        var n = 0
        while n < maximumCount && edges(n).high <= 0.95 * nyquist { n += 1 }
        return n
    }

    /// The power of each band in each frame of `spectrogram`: `frameCount × bands` values, frame after frame.
    ///
    /// Bands overlap as the ear's filters do: a bin's power goes to the two bands whose centres (ERB numbers
    /// `firstERB + widthERB · (i + ½)`) bracket it, in proportion to its nearness on the ERB scale (triangular
    /// weights that sum to 1), so a partial near a band edge moves smoothly from one band to the next instead of
    /// jumping with the bin grid, and a resampled or detuned copy reads the same levels.
    ///
    /// - Complexity: O(frames × bins).
    public static func bandPower(_ spectrogram: Spectrogram) -> (bands: Int, power: [Double]) {
        let bins = spectrogram.binCount
        let n = count(nyquist: spectrogram.binHertz * Double(spectrogram.size) / 2)
        let share = shares(bins: bins, binHertz: spectrogram.binHertz, bands: n)
        // The bins with a share lie in one run (those under 50 Hz and over the last band have none).
        let shared = share.indices.filter { share[$0] != nil }
        guard let firstBin = shared.first, let lastBin = shared.last else {
            return (n, [Double](repeating: 0, count: spectrogram.frameCount * n))
        }
        let band = (firstBin...lastBin).map { share[$0]?.band ?? 0 }
        let weight = (firstBin...lastBin).map { share[$0]?.weight ?? 0 }
        var out = [Double](repeating: 0, count: spectrogram.frameCount * n)
        out.withUnsafeMutableBufferPointer { o in
            spectrogram.power.withUnsafeBufferPointer { p in
                // Each band's running sum stays in a register while its bins come (they come in order): the same
                // additions, in the same order, as adding into the output at every bin, without a store and a load
                // between two additions to one band.
                for k in 0..<spectrogram.frameCount {
                    let row = p.baseAddress! + k * bins + firstBin
                    let bands = o.baseAddress! + k * n
                    var current = band[0]
                    var low = 0.0
                    var high = 0.0
                    for b in 0..<band.count {
                        let (i, w) = (band[b], weight[b])
                        if i != current {
                            bands[current] = low
                            if current + 1 < n { bands[current + 1] = high }
                            current = i
                            low = bands[i]
                            high = i + 1 < n ? bands[i + 1] : 0
                        }
                        let v = Double(row[b])
                        low += v * w
                        if w < 1 { high += v * (1 - w) }
                    }
                    bands[current] = low
                    if current + 1 < n { bands[current + 1] = high }
                }
            }
        }
        return (n, out)
    }

    /// Each bin's lower band and its weight there (the rest goes to the band above; triangular weights on the ERB
    /// scale, as ``bandPower(_:)`` describes); nil for a bin outside the `n` bands.
    static func shares(bins: Int, binHertz: Double, bands n: Int) -> [(band: Int, weight: Double)?] {
        (0..<bins).map { b in
            let f = Double(b) * binHertz
            guard f >= edges(0).low else { return nil }
            let x = (erbNumber(f) - firstERB) / widthERB - 0.5
            guard x < Double(n) - 0.5 else { return nil }
            if x < 0 { return (0, 1) }
            let i = Int(x.rounded(.down))
            if i >= n - 1 { return (n - 1, 1) }
            return (i, 1 - (x - Double(i)))
        }
    }
}
