import Foundation

/// The three bundled bells and the acoustics each rests on (sources in docs/assets.md).
enum BellCatalog {
    /// Ratios of the (n,0) ring modes n = 2 ... 7 of a thin shell, from Rayleigh's inextensional theory:
    /// f(n) ∝ n(n² − 1) / √(n² + 1). Measured Tibetan bowls (Inácio, Henrique & Antunes 2006) and the
    /// (n,0) family of bonshō follow this law to within a few percent.
    static let ringModeRatios: [Double] = (2...7).map { n -> Double in
        let d = Double(n)
        return d * (d * d - 1) / (d * d + 1).squareRoot()
    }.map { $0 / (2.0 * 3.0 / 5.0.squareRoot()) }

    /// Ratios of the transverse modes of a free-free bar or tube (Euler-Bernoulli beam):
    /// (β_n / β_1)² with β = 4.7300, 7.8532, 10.9956, 14.1372, 17.2788.
    static let freeBarRatios: [Double] = [4.7300, 7.8532, 10.9956, 14.1372, 17.2788].map {
        ($0 / 4.7300) * ($0 / 4.7300)
    }

    /// One mode per ratio, with its relative amplitude and its doublet's split in Hz (the beating rate).
    static func modes(_ ratios: [Double], amplitudes: [Double], splits: [Double]) -> [ModalBell.Mode] {
        zip(ratios, zip(amplitudes, splits)).map { ModalBell.Mode(ratio: $0, amplitude: $1.0, split: $1.1) }
    }

    /// A Tibetan singing bowl struck with a leather-wrapped mallet: clear fundamental and bright
    /// (n,0) partials, beating doublets of about 1 to 5 Hz.
    static let singingBowl = ModalBell(
        fundamental: 233.1,
        modes: modes(
            ringModeRatios, amplitudes: [1.0, 1.0, 0.9, 0.8, 0.6, 0.4], splits: [0.8, 1.9, 2.7, 3.6, 4.4, 5.1]),
        t60: 13, decayExponent: 0.6, contactTime: 0.0008, contactNoise: 0.06, contactNoiseFrequency: 3200,
        duration: 16)

    /// A large bonshō-like temple bell struck with a wooden beam (shumoku): low pitch, long contact that
    /// leaves the low modes dominant, slow and deep beating ("naminari").
    static let templeBell = ModalBell(
        fundamental: 98.0,
        modes: modes(
            ringModeRatios, amplitudes: [1.0, 1.5, 1.6, 1.4, 1.2, 1.0], splits: [0.45, 0.9, 1.4, 1.9, 2.5, 3.0]),
        t60: 15, decayExponent: 0.55, contactTime: 0.004, contactNoise: 0.05, contactNoiseFrequency: 700,
        duration: 18)

    /// A soft tubular chime struck with a felt mallet: the free-bar mode series, faint beating from the
    /// suspension, shorter (but still bell-like) decay.
    static let softChime = ModalBell(
        fundamental: 587.3,
        modes: modes(freeBarRatios, amplitudes: [1.0, 0.9, 0.7, 0.5, 0.35], splits: [0.15, 0.3, 0.5, 0.7, 0.9]),
        t60: 12, decayExponent: 0.8, contactTime: 0.00035, contactNoise: 0.04, contactNoiseFrequency: 4500,
        duration: 14)
}
