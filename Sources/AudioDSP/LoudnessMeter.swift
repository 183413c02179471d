import AudioCore
import Foundation

/// A BS.1770 / EBU R128 loudness meter: one libebur128 state fed frame by frame.
///
/// Feed audio with ``add(_:frames:)`` (planar, from an ``AudioBuffer``) or ``addSilence(frames:)``,
/// then read the momentary (last 400 ms), short-term (last 3 s), integrated and range values at any
/// point. All filtering, gating and true-peak oversampling is libebur128's; this type only routes calls.
///
/// Channel roles follow the channel count: 1 = mono, 2 = L R, 5 = L R C Ls Rs (EBU Tech 3341 case 6),
/// 6 = L R C LFE Ls Rs (LFE ignored), otherwise libebur128's default map.
/// A one-channel meter made `dualMono` counts its channel twice: a mono sound as played on two speakers.
///
/// - Thread safety: one thread at a time per instance.
/// - Real-time safe: no (allocates a scratch buffer when a larger chunk arrives).
public final class LoudnessMeter {
    /// The channel count this meter was made for.
    public let channels: Int
    /// The sample rate this meter was made for.
    public let sampleRate: SampleRate
    /// Whether this meter oversamples for ``truePeak``.
    public let measuresTruePeak: Bool

    private let state: EBUR128State
    private var scratch: [Float] = []

    /// Creates a meter.
    ///
    /// The corresponding C function is `ebur128_init`.
    ///
    /// - Parameters:
    ///   - truePeak: also oversample for ``truePeak`` (libebur128's 49-tap interpolator runs on every frame, which
    ///     costs more than all the loudness filtering; leave it off when no true peak is read).
    ///   - samplePeak: track ``samplePeak`` (a pass over every sample; off where the caller has the peak already).
    ///     A true-peak meter always tracks it.
    ///   - momentaryOnly: keep only what ``momentary`` and ``loudness(lastMilliseconds:)`` (up to 400 ms) need:
    ///     no 400 ms gating blocks and no 3 s blocks every 100 ms, so ``integrated``, ``shortTerm`` and ``range``
    ///     cannot be read.
    ///   - gating: keep the 400 ms gating blocks (every 100 ms) and the 3 s blocks (every second) that
    ///     ``integrated`` and ``range`` read. Summing them costs about 7 multiply-adds per sample; a caller that
    ///     gates hop energies itself (``LoudnessAnalysis``) turns it off, and then only ``momentary``, ``shortTerm``
    ///     and ``loudness(lastMilliseconds:)`` can be read.
    ///   - dualMono: meter a one-channel sound as dual mono, its channel counted twice (libebur128's
    ///     `EBUR128_DUAL_MONO`): what the sound reads as a stereo file of two equal channels, bit for bit (BS.1770
    ///     sums the channels' powers, and libebur128 doubles the one channel's power, block by block, where two
    ///     equal channels add the same power twice: a + a = 2a exactly), with one channel filtered instead of two.
    ///     A precondition: the meter has one channel.
    /// - Throws: `EnsoError` `.unsupported` when libebur128 refuses the channel count or rate
    ///   (or is out of memory).
    public init(
        channels: ChannelCount, sampleRate: SampleRate, truePeak: Bool = true, momentaryOnly: Bool = false,
        samplePeak: Bool = true, gating: Bool = true, dualMono: Bool = false
    ) throws(EnsoError) {
        precondition(!dualMono || channels.count == 1, "a dual-mono meter has one channel, not \(channels.count)")
        let loudness = momentaryOnly ? ebur128ModeMomentary : gating ? ebur128ModeLoudness : ebur128ModeShortTerm
        let mode = loudness | (truePeak ? ebur128ModeTruePeak : 0) | (samplePeak ? ebur128ModeSamplePeak : 0)
        guard
            let st = system_ebur128_init(
                channels: UInt32(channels.count), sampleRate: UInt(sampleRate.hertz), mode: mode)
        else {
            throw EnsoError(
                .unsupported, "libebur128 cannot meter \(channels) at \(sampleRate) (ebur128_init failed)")
        }
        self.state = st
        self.measuresTruePeak = truePeak
        self.channels = channels.count
        self.sampleRate = sampleRate
        let map: [Int32]
        switch channels.count {
        case 1: map = [dualMono ? EBUR128Channel.dualMono : EBUR128Channel.left]
        case 5:
            map = [
                EBUR128Channel.left, EBUR128Channel.right, EBUR128Channel.center,
                EBUR128Channel.leftSurround, EBUR128Channel.rightSurround,
            ]
        default: map = []
        }
        for (i, role) in map.enumerated() {
            let rc = system_ebur128_set_channel(st, UInt32(i), role)
            precondition(rc == 0, "ebur128_set_channel(\(i)) failed with \(rc)")
        }
    }

    deinit { system_ebur128_destroy(state) }

    /// Feeds `frames` frames of `buffer` starting at frame `start` (planar in, interleaved to libebur128).
    ///
    /// The corresponding C function is `ebur128_add_frames_float`.
    public func add(_ buffer: AudioBuffer, from start: Int = 0, frames: Int? = nil) {
        precondition(buffer.channels == channels, "meter has \(channels) channels, buffer \(buffer.channels)")
        let n = frames ?? (buffer.frameCount - start)
        precondition(start >= 0 && n >= 0 && start + n <= buffer.frameCount, "frame range out of bounds")
        if n == 0 { return }
        let c = channels
        if c == 1 {
            // One channel: planar is interleaved, no copy.
            buffer.samples.withUnsafeBufferPointer { src in
                let rc = system_ebur128_add_frames_float(state, src.baseAddress! + start, n)
                precondition(rc == 0, "ebur128_add_frames_float failed with \(rc) (out of memory)")
            }
            return
        }
        if scratch.count < n * c { scratch = [Float](repeating: 0, count: n * c) }
        let total = buffer.frameCount
        buffer.samples.withUnsafeBufferPointer { src in
            scratch.withUnsafeMutableBufferPointer { dst in
                for ch in 0..<c {
                    let s = src.baseAddress! + ch * total + start
                    var d = dst.baseAddress! + ch
                    for i in 0..<n {
                        d.pointee = s[i]
                        d += c
                    }
                }
                let rc = system_ebur128_add_frames_float(state, UnsafePointer(dst.baseAddress!), n)
                precondition(rc == 0, "ebur128_add_frames_float failed with \(rc) (out of memory)")
            }
        }
    }

    /// Feeds `frames` frames of digital silence.
    public func addSilence(frames: Int) {
        precondition(frames >= 0, "negative frame count")
        if frames == 0 { return }
        let c = channels
        if scratch.count < frames * c { scratch = [Float](repeating: 0, count: frames * c) }
        scratch.withUnsafeMutableBufferPointer { dst in
            for i in 0..<(frames * c) { dst[i] = 0 }
            let rc = system_ebur128_add_frames_float(state, UnsafePointer(dst.baseAddress!), frames)
            precondition(rc == 0, "ebur128_add_frames_float failed with \(rc) (out of memory)")
        }
    }

    /// Momentary loudness (the last 400 ms) in LUFS; `-infinity` for silence.
    ///
    /// The corresponding C function is `ebur128_loudness_momentary`.
    public var momentary: Double { read { system_ebur128_loudness_momentary(state, &$0) } }

    /// Short-term loudness (the last 3 s) in LUFS; `-infinity` for silence.
    ///
    /// The corresponding C function is `ebur128_loudness_shortterm`.
    public var shortTerm: Double { read { system_ebur128_loudness_shortterm(state, &$0) } }

    /// Loudness of the last `milliseconds` (ungated, K-weighted) in LUFS; `-infinity` for silence.
    ///
    /// `milliseconds` must not exceed the longest window the meter keeps (3000 ms).
    /// The corresponding C function is `ebur128_loudness_window`.
    public func loudness(lastMilliseconds milliseconds: Int) -> Double {
        precondition(milliseconds > 0 && milliseconds <= 3000, "window \(milliseconds) ms outside 1...3000")
        return read { system_ebur128_loudness_window(state, UInt(milliseconds), &$0) }
    }

    /// Frames libebur128 reads for a window of `milliseconds` (its own integer rounding).
    func windowFrames(milliseconds: Int) -> Int { Self.windowFrames(milliseconds: milliseconds, rate: sampleRate) }

    /// Frames libebur128 reads for its momentary (400 ms) window.
    var momentaryFrames: Int { Self.momentaryFrames(rate: sampleRate) }

    /// Frames libebur128 reads for its short-term (3 s) window.
    var shortTermFrames: Int { Self.shortTermFrames(rate: sampleRate) }

    /// Frames libebur128 reads at `rate` for a window of `milliseconds`.
    static func windowFrames(milliseconds: Int, rate: SampleRate) -> Int { rate.hertz * milliseconds / 1000 }

    /// Frames in libebur128's 100 ms step at `rate` (its gating blocks and 3 s blocks advance by it).
    static func stepFrames(rate: SampleRate) -> Int { (rate.hertz + 5) / 10 }

    /// Frames libebur128 reads at `rate` for its momentary (400 ms) window.
    static func momentaryFrames(rate: SampleRate) -> Int { stepFrames(rate: rate) * 4 }

    /// Frames libebur128 reads at `rate` for its short-term (3 s) window.
    static func shortTermFrames(rate: SampleRate) -> Int { stepFrames(rate: rate) * 30 }

    /// Gated integrated loudness of everything fed so far, in LUFS; `-infinity` when no 400 ms block
    /// passes the −70 LUFS gate (silence, or less than 400 ms fed).
    ///
    /// The corresponding C function is `ebur128_loudness_global`.
    public var integrated: Double { read { system_ebur128_loudness_global(state, &$0) } }

    /// Loudness range (EBU Tech 3342) in LU; 0 when there are too few short-term blocks.
    ///
    /// The corresponding C function is `ebur128_loudness_range`.
    public var range: Double { read { system_ebur128_loudness_range(state, &$0) } }

    /// The largest absolute sample value of any channel so far (linear, 1.0 = full scale).
    ///
    /// The corresponding C function is `ebur128_sample_peak`.
    /// - Precondition: the meter was made with `samplePeak: true` (the default) or `truePeak: true`.
    public var samplePeak: Double {
        (0..<channels).map { ch in read { system_ebur128_sample_peak(state, UInt32(ch), &$0) } }.max() ?? 0
    }

    /// The largest true (inter-sample, oversampled) peak of any channel so far (linear).
    ///
    /// The corresponding C function is `ebur128_true_peak`.
    /// - Precondition: the meter was made with `truePeak: true`.
    public var truePeak: Double {
        precondition(measuresTruePeak, "this LoudnessMeter was made without true-peak oversampling")
        return (0..<channels).map { ch in read { system_ebur128_true_peak(state, UInt32(ch), &$0) } }.max() ?? 0
    }

    private func read(_ call: (inout Double) -> Int32) -> Double {
        var out = 0.0
        let rc = call(&out)
        precondition(rc == 0, "libebur128 query failed with \(rc) (mode not enabled)")
        return out
    }
}
