import CSampleRate

/// How hard the resampler works: libsamplerate's three band-limited sinc converters.
///
/// Use ``best`` for the offline asset pipeline, ``medium`` or ``fastest`` when converting at load or
/// play time. All three are band-limited (no zero-order hold or linear interpolation).
public enum ResamplerQuality: String, Sendable, CaseIterable {
    /// About 97 dB SNR, 97 % bandwidth. The corresponding C converter is `SRC_SINC_BEST_QUALITY`.
    case best
    /// About 97 dB SNR, 90 % bandwidth, several times faster. The corresponding C converter is `SRC_SINC_MEDIUM_QUALITY`.
    case medium
    /// About 97 dB SNR, 80 % bandwidth, the fastest sinc converter. The corresponding C converter is `SRC_SINC_FASTEST`.
    case fastest

    /// The libsamplerate converter type.
    var converterType: Int32 {
        switch self {
        case .best: return Int32(SRC_SINC_BEST_QUALITY)
        case .medium: return Int32(SRC_SINC_MEDIUM_QUALITY)
        case .fastest: return Int32(SRC_SINC_FASTEST)
        }
    }

    /// Input frames the converter reads on each side of an output instant at ratio 1 (half its filter),
    /// rounded up with margin. libsamplerate's half filter lengths are about 143, 46 and 19 input frames.
    var halfFilterFrames: Int {
        switch self {
        case .best: return 192
        case .medium: return 64
        case .fastest: return 32
        }
    }
}
