import CSndFile

/// A format Enso writes: container plus encoding.
public enum EncodeFormat: String, CaseIterable, Sendable, Codable {
    case wav16, wav24, wavf, flac, flac24, ogg, opus, mp3

    /// The libsndfile major|minor format value.
    var sndfileFormat: Int32 {
        switch self {
        case .wav16: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        case .wav24: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_24)
        case .wavf: return Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        case .flac: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case .flac24: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24)
        case .ogg: return Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        case .opus: return Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
        case .mp3: return Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
        }
    }

    /// Whether the format is lossy (quality applies).
    public var isLossy: Bool { self == .ogg || self == .opus || self == .mp3 }

    /// Whether samples are stored as 16- or 24-bit integers, so that those beyond full scale (|x| > 1) are clipped
    /// to it. Float WAV keeps them; the lossy encoders take floats.
    public var clipsBeyondFullScale: Bool { self == .wav16 || self == .wav24 || self == .flac || self == .flac24 }

    /// Whether the container can carry loop points in the file itself (WAV `smpl`).
    public var carriesLoops: Bool { self == .wav16 || self == .wav24 || self == .wavf }

    /// Whether the container can carry cue points (WAV `cue `); FLAC, Ogg, Opus and MP3 cannot, through libsndfile.
    public var carriesCues: Bool { carriesLoops }

    /// The format a file name's extension suggests (`.wav` 16-bit, `.flac` 16-bit, `.ogg`/`.oga`, `.opus`, `.mp3`).
    public static func inferred(fromPath path: String) -> EncodeFormat? {
        let lower = path.lowercased()
        if lower.hasSuffix(".wav") { return .wav16 }
        if lower.hasSuffix(".flac") { return .flac }
        if lower.hasSuffix(".ogg") || lower.hasSuffix(".oga") { return .ogg }
        if lower.hasSuffix(".opus") { return .opus }
        if lower.hasSuffix(".mp3") { return .mp3 }
        return nil
    }
}
