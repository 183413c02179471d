import AudioCore

/// Changes the channel count of a buffer.
///
/// The rule, for `n` input channels and `m` output channels:
/// - `n == m`: unchanged.
/// - mono to any count: the one channel is copied to every output channel (mono to stereo duplicates).
/// - any count to mono: the mean of all channels (stereo to mono averages, so a full-scale
///   signal in both channels stays full scale and nothing clips).
/// - otherwise: output channel `k` takes input channel `k` for `k < n`; extra output channels
///   (`m > n`) are silent, and dropped input channels (`m < n`) are discarded. This keeps front
///   left/right in place for the usual WAV channel orders.
public enum ChannelMapper {
    /// `buffer` with `channels` channels, by the rule above.
    ///
    /// - Complexity: O(frames × channels).
    public static func map(_ buffer: AudioBuffer, to channels: ChannelCount) -> AudioBuffer {
        let n = buffer.channels
        let m = channels.count
        if n == m { return buffer }
        let frames = buffer.frameCount
        var out = AudioBuffer(channels: channels, frameCount: frames, sampleRate: buffer.sampleRate)
        if n == 1 {
            for k in 0..<m {
                out.samples.replaceSubrange((k * frames)..<((k + 1) * frames), with: buffer.samples)
            }
        } else if m == 1 {
            out.samples = buffer.monoMix()
        } else {
            for k in 0..<min(n, m) {
                out.samples.replaceSubrange((k * frames)..<((k + 1) * frames), with: buffer.channel(k))
            }
        }
        return out
    }
}
