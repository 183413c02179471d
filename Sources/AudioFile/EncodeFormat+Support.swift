import AudioCore
import CSndFile

extension EncodeFormat {
    /// The sample rates Opus holds.
    public static let opusRates = [8000, 12000, 16000, 24000, 48000]
    /// The sample rates MPEG-1/2/2.5 Layer III holds.
    public static let mp3Rates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]

    /// Why a format cannot hold a stream, and what would make it fit.
    ///
    /// The reason states the format's limit and the stream's value, nothing more: each front end says in its own
    /// words how to change the rate or the channels (`convert --rate`, converting before `bells trim`).
    public struct Limit: Sendable, Equatable {
        /// What the format holds against what it was given: `Opus holds 8, 12, 16, 24 or 48 kHz, not 44100 Hz`.
        public var reason: String
        /// The sample rate that fits, when the rate is what does not.
        public var sampleRate: Int?
        /// The channel count that fits, when the channel count is what does not.
        public var channels: Int?
    }

    /// Why this format cannot hold `sampleRate` with `channels` channels, or `nil` when libsndfile writes it:
    /// known codec limits first (Opus 8/12/16/24/48 kHz, MP3 its nine rates and at most two channels), then
    /// libsndfile's own check. A command asks before any work, so a combination known to fail is bad usage,
    /// not a failure after decoding and resampling.
    ///
    /// The corresponding C function is `sf_format_check`.
    public func limit(sampleRate: SampleRate, channels: Int) -> Limit? {
        let hz = sampleRate.hertz
        switch self {
        case .opus where !Self.opusRates.contains(hz):
            return Limit(reason: "Opus holds 8, 12, 16, 24 or 48 kHz, not \(hz) Hz", sampleRate: 48000)
        case .mp3 where !Self.mp3Rates.contains(hz):
            let rates = Self.mp3Rates.map(String.init).joined(separator: ", ")
            return Limit(reason: "MP3 holds 8 to 48 kHz (\(rates) Hz), not \(hz) Hz", sampleRate: 44100)
        case .mp3 where channels > 2:
            return Limit(reason: "MP3 holds mono or stereo, not \(channels) channels", channels: 2)
        default:
            break
        }
        var info = SF_INFO()
        info.samplerate = Int32(hz)
        info.channels = Int32(channels)
        info.format = sndfileFormat
        guard system_sf_format_check(&info) == Int32(SF_TRUE) else {
            return Limit(reason: "libsndfile cannot write \(rawValue) at \(hz) Hz with \(channels) channels")
        }
        return nil
    }
}
