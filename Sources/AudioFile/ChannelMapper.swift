import AudioCore
import Glibc

/// Changes the channel count of a buffer: folds any layout libsndfile reads down to stereo or mono with documented
/// coefficients, and spreads mono or stereo up.
///
/// The rule, for `n` input channels and `m` output channels:
/// - `n == m`: unchanged.
/// - mono to any count: the one channel is copied to every output channel (mono to stereo duplicates).
/// - more than 2 channels to stereo: folded by ``stereoFold(channels:)``, the ITU-R BS.775 downmix for the
///   layouts WAV's channel order names (front left, front right, centre, LFE, back, side), equal-power panning
///   for any other count. The sum is not scaled down: a channel at full scale stays at full scale in its side,
///   as the standard has it (the engine's soft clipper and `convert`'s float output keep the rest).
/// - more than 2 channels to mono: folded to stereo as above, then the mean of the two.
/// - stereo to mono: the mean of the two (a full-scale signal in both channels stays full scale; nothing clips).
/// - otherwise (stereo up to 4, 6 to 4, ...): output channel `k` takes input channel `k` for `k < n`; extra output
///   channels are silent, dropped input channels are discarded.
public enum ChannelMapper {
    /// −3 dB (1/√2): the gain BS.775 gives the centre and the surrounds in a stereo downmix.
    public static let minus3dB: Float = 0.707_106_77

    /// The stereo downmix of an `n`-channel frame in WAV channel order: `(left, right)` gains of each input channel.
    ///
    /// - 3 (L R C): `L + 0.707 C`, `R + 0.707 C`.
    /// - 4 (quad, L R Ls Rs): `L + 0.707 Ls`, `R + 0.707 Rs`.
    /// - 5 (L R C Ls Rs) and 6 (5.1, L R C LFE Ls Rs): `L + 0.707 C + 0.707 Ls`, `R + 0.707 C + 0.707 Rs`;
    ///   the LFE is left out (BS.775: it carries nothing a full-range pair needs).
    /// - 8 (7.1, L R C LFE Lb Rb Ls Rs): as 5.1 with both surround pairs at 0.707.
    /// - any other count (7, 9 and more, an ambisonic or a custom layout): equal-power panning, channel `k` of `n`
    ///   at position `k / (n − 1)` from left to right, gains `cos` and `sin` of that times π/2.
    public static func stereoFold(channels n: Int) -> [(left: Float, right: Float)] {
        let c = minus3dB
        switch n {
        case 3: return [(1, 0), (0, 1), (c, c)]
        case 4: return [(1, 0), (0, 1), (c, 0), (0, c)]
        case 5: return [(1, 0), (0, 1), (c, c), (c, 0), (0, c)]
        case 6: return [(1, 0), (0, 1), (c, c), (0, 0), (c, 0), (0, c)]
        case 8: return [(1, 0), (0, 1), (c, c), (0, 0), (c, 0), (0, c), (c, 0), (0, c)]
        default:
            return (0..<n).map { k in
                let angle = Double(k) / Double(max(1, n - 1)) * Double.pi / 2
                return (Float(cos(angle)), Float(sin(angle)))
            }
        }
    }

    /// Folds `frames` interleaved frames of `n` channels (`n` > 2) into interleaved stereo at `destination`.
    ///
    /// The one place the fold's arithmetic is written, so a streamed theme and a loaded one fold alike, bit for bit.
    public static func foldToStereo(
        _ source: UnsafePointer<Float>, channels n: Int, frames: Int, into destination: UnsafeMutablePointer<Float>
    ) {
        let gains = stereoFold(channels: n)
        for f in 0..<frames {
            var l: Float = 0
            var r: Float = 0
            for k in 0..<n {
                let x = source[f * n + k]
                l += x * gains[k].left
                r += x * gains[k].right
            }
            destination[2 * f] = l
            destination[2 * f + 1] = r
        }
    }

    /// `buffer` with `channels` channels, by the rule above.
    ///
    /// - Complexity: O(frames × channels).
    public static func map(_ buffer: AudioBuffer, to channels: ChannelCount) -> AudioBuffer {
        let n = buffer.channels
        let m = channels.count
        if n == m { return buffer }
        let frames = buffer.frameCount
        if n > 2 && m <= 2 {
            let interleaved = buffer.interleaved()
            var stereo = [Float](repeating: 0, count: 2 * frames)
            interleaved.withUnsafeBufferPointer { src in
                stereo.withUnsafeMutableBufferPointer { dst in
                    foldToStereo(src.baseAddress!, channels: n, frames: frames, into: dst.baseAddress!)
                }
            }
            let folded = stereo.withUnsafeBufferPointer {
                AudioBuffer(interleaved: $0, channels: .stereo, sampleRate: buffer.sampleRate)
            }
            return m == 2 ? folded : map(folded, to: channels)
        }
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

    // MARK: - Channel repairs (`enso convert --use-channel`, `--invert-channel`)

    /// `buffer` with every channel a copy of channel `source` (0 = the first): a dead or broken channel replaced by
    /// the live one. The channel count stays; the sound becomes dual mono.
    ///
    /// - Precondition: `source` is one of the buffer's channels.
    public static func useChannel(_ buffer: AudioBuffer, _ source: Int) -> AudioBuffer {
        precondition(source >= 0 && source < buffer.channels, "no channel \(source)")
        var out = buffer
        let live = Array(buffer.channel(source))
        for k in 0..<buffer.channels where k != source {
            out.withMutableChannel(k) { p in for i in p.indices { p[i] = live[i] } }
        }
        return out
    }

    /// `buffer` with channel `channel` (0 = the first) inverted in polarity: channels that are out of phase (their
    /// mono mix cancels) come back in phase.
    ///
    /// - Precondition: `channel` is one of the buffer's channels.
    public static func invertChannel(_ buffer: AudioBuffer, _ channel: Int) -> AudioBuffer {
        precondition(channel >= 0 && channel < buffer.channels, "no channel \(channel)")
        var out = buffer
        out.withMutableChannel(channel) { p in for i in p.indices { p[i] = -p[i] } }
        return out
    }
}
