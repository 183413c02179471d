/// The loudness of one sound, as EBU R128 defines it (all values through libebur128).
///
/// Values that do not exist are `nil`, never `-infinity`: integrated loudness of a file shorter than
/// 400 ms or entirely below the −70 LUFS gate, any loudness of digital silence, the peak of silence.
public struct LoudnessReport: Sendable, Equatable, Codable {
    /// BS.1770-4 gated integrated loudness of the sound as it is, in LUFS (what ffmpeg `ebur128`, loudgain and
    /// libebur128 read).
    public var integrated: Double?
    /// The same with 0.4 s of silence padded at both ends (``LoudnessAnalysis``): a one-shot measured this way reads
    /// the same whatever its lead-in, since where it falls on the 400 ms block grid no longer matters.
    public var integratedPadded: Double?
    /// The largest momentary (400 ms) loudness in LUFS, evaluated at the analysis hop (≤ 10 ms).
    public var maxMomentary: Double?
    /// The largest short-term (3 s) loudness in LUFS.
    public var maxShortTerm: Double?
    /// Loudness range (EBU Tech 3342) in LU.
    public var range: Double?
    /// True peak in dBTP (4× oversampled at 48 kHz, libebur128).
    public var truePeak: Double?
    /// Sample peak in dBFS.
    public var samplePeak: Double?
}
