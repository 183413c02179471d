import AudioCore

/// The true peak of a whole buffer through libebur128, oversampling only the frames that can hold it.
///
/// libebur128's true peak runs a 49-tap Hann-windowed sinc interpolator (4× below 96 kHz, 2× below 192 kHz) on every
/// frame; on a decaying bell that costs more than all the loudness filtering, and almost all of it is spent on a
/// tail 20–60 dB below the peak. An interpolated value is a weighted sum of the input frames within the filter's
/// reach, so |value| ≤ G · (largest |input| in reach), where G is the sum of the absolute weights of one polyphase
/// branch: exactly 1 for the branch that reproduces the input frames, at most 1.86 for the others at 4× and 2.31 at
/// 2× (the half-sample branch; taps `sinc(m / factor) · Hann`, m = −24…24). ``gainBound(sampleRate:)`` takes 2 and
/// 2.5. The true peak is at least the sample peak P, so only values whose reach holds a frame with |x| ≥ P / bound
/// can reach it. The scan feeds libebur128 the spans of such frames (from the first frame of a run of 256-frame
/// blocks holding one to the last), each with ``reach`` frames of context either side, one after the other into one
/// meter (and silence after a span that ends the buffer, as the padding of ``LoudnessAnalysis`` does). Every value
/// whose reach holds a frame ≥ P / bound sees exactly the frames it sees in the whole buffer (its reach, at most 25
/// frames, stays within its span's context). Every other value, at a span's edge or where two spans meet in the
/// meter, is a sum over frames all below P / bound, so it stays below P. So the result is the value libebur128
/// reports for the whole buffer, bit for bit (tests compare the two on adversarial signals, among them the worst-case
/// sign pattern of the half-sample branch just above P / G, alone and after a loud pulse at many spacings). A bell
/// that beats or is struck again is loud in several places; the quieter stretches between are not oversampled.
///
/// - Thread safety: stateless; call from any thread.
/// - Real-time safe: no.
enum TruePeakScan {
    /// An upper bound on |interpolated value| / (largest |input| within the filter's reach) for libebur128's
    /// interpolator at `sampleRate`: 2 at 4× (below 96 kHz, true value 1.86), 2.5 at 2× (true value 2.31) and above.
    static func gainBound(sampleRate: SampleRate) -> Float { sampleRate.hertz < 96000 ? 2 : 2.5 }
    /// Input frames of context kept either side of the span: more than the filter's reach (49 taps at 2× = 25).
    static let reach = 32

    /// The largest true (inter-sample) peak of any channel of `buffer`, linear; 0 for silence.
    ///
    /// - Precondition: every sample is finite (``LoudnessAnalysis`` checks first).
    /// - Throws: `EnsoError` `.unsupported` when libebur128 refuses the channel count or rate.
    static func truePeak(_ buffer: AudioBuffer) throws(EnsoError) -> Double {
        try peaks(buffer).truePeak
    }

    /// The true peak (as ``truePeak(_:)``) and the sample peak (``AudioBuffer/peak``) from the same pass, linear.
    static func peaks(_ buffer: AudioBuffer) throws(EnsoError) -> (truePeak: Double, samplePeak: Float) {
        let n = buffer.frameCount
        guard n > 0 else { return (0, 0) }
        let (spans, peak) = loudSpans(buffer)
        guard let lastSpan = spans.last else { return (0, peak) }
        // Momentary mode only: the interpolator does not depend on the loudness modes, and gating blocks or 3 s
        // blocks over the spans would be summed for nothing.
        let meter = try LoudnessMeter(
            channels: buffer.channelCount, sampleRate: buffer.sampleRate, truePeak: true, momentaryOnly: true)
        for span in spans { meter.add(buffer, from: span.lowerBound, frames: span.count) }
        // The interpolator's output lags its input: flush it with the silence that follows the buffer.
        if lastSpan.upperBound == n { meter.addSilence(frames: reach) }
        return (meter.truePeak, peak)
    }

    /// The frames to oversample, in order and disjoint, and the sample peak P: for each run of 256-frame blocks that
    /// hold a frame ≥ P / ``gainBound(sampleRate:)`` (any channel), its first such frame to its last, with ``reach``
    /// frames of context either side. Runs are at least a quiet block apart, more than two contexts, so spans never
    /// overlap. No spans for silence.
    static func loudSpans(_ buffer: AudioBuffer) -> (spans: [Range<Int>], samplePeak: Float) {
        let n = buffer.frameCount
        // One pass: the peak of every block of 256 frames (all channels), then the exact frames inside the first
        // and last block of each run of blocks that reach the floor.
        let block = 256
        let blocks = (n + block - 1) / block
        var blockPeaks = [Float](repeating: 0, count: blocks)
        var spans: [Range<Int>] = []
        var peak: Float = 0
        buffer.samples.withUnsafeBufferPointer { s in
            blockPeaks.withUnsafeMutableBufferPointer { peaks in
                for ch in 0..<buffer.channels {
                    let channel = UnsafeBufferPointer(rebasing: s[(ch * n)..<(ch * n + n)])
                    SampleKernels.raiseBlockPeaks(channel, block: block, into: peaks)
                }
            }
            peak = blockPeaks.max() ?? 0
            guard peak > 0 else { return }
            let floor = peak / gainBound(sampleRate: buffer.sampleRate)
            func reaches(_ i: Int) -> Bool {
                (0..<buffer.channels).contains { ch in abs(s[ch * n + i]) >= floor }
            }
            var b = 0
            while b < blocks {
                guard blockPeaks[b] >= floor else {
                    b += 1
                    continue
                }
                let b0 = b
                while b + 1 < blocks && blockPeaks[b + 1] >= floor { b += 1 }
                let b1 = b
                b += 1
                let first = (b0 * block..<min(n, b0 * block + block)).first(where: reaches) ?? b0 * block
                let last =
                    (b1 * block..<min(n, b1 * block + block)).last(where: reaches) ?? min(n, b1 * block + block) - 1
                spans.append(max(0, first - reach)..<min(n, last + 1 + reach))
            }
        }
        return (spans, peak)
    }
}
