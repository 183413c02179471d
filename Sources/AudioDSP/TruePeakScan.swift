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
/// can reach it. The scan feeds libebur128 the span from the first such frame to the last, with ``reach`` frames of
/// context either side (and silence after a span that ends the buffer, as the padding of ``LoudnessAnalysis`` does).
/// Values near the span's edges see a partly empty history; their sums are bounded the same way and stay below P.
/// So the result is the value libebur128 reports for the whole buffer, bit for bit (tests compare the two on
/// adversarial signals, among them the worst-case sign pattern of the half-sample branch just above P / G).
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
        // One pass: the peak of every block of 256 frames (all channels), then the exact frames inside the first
        // and last blocks that reach the floor.
        let block = 256
        let blocks = (n + block - 1) / block
        var blockPeaks = [Float](repeating: 0, count: blocks)
        var first = n
        var last = -1
        var peak: Float = 0
        buffer.samples.withUnsafeBufferPointer { s in
            for ch in 0..<buffer.channels {
                let p = s.baseAddress! + ch * n
                for b in 0..<blocks {
                    let m = PeakScan.absMax(UnsafeBufferPointer(start: p + b * block, count: min(block, n - b * block)))
                    blockPeaks[b] = max(blockPeaks[b], m)
                }
            }
            peak = blockPeaks.max() ?? 0
            guard peak > 0 else { return }
            let floor = peak / gainBound(sampleRate: buffer.sampleRate)
            guard let b0 = blockPeaks.firstIndex(where: { $0 >= floor }),
                let b1 = blockPeaks.lastIndex(where: { $0 >= floor })
            else { return }
            func reaches(_ i: Int) -> Bool {
                (0..<buffer.channels).contains { ch in abs(s[ch * n + i]) >= floor }
            }
            first = (b0 * block..<min(n, b0 * block + block)).first(where: reaches) ?? b0 * block
            last = (b1 * block..<min(n, b1 * block + block)).last(where: reaches) ?? min(n, b1 * block + block) - 1
        }
        guard last >= first else { return (0, peak) }
        let from = max(0, first - reach)
        let to = min(n, last + 1 + reach)
        // Momentary mode only: the interpolator does not depend on the loudness modes, and gating blocks or 3 s
        // blocks over the span would be summed for nothing.
        let meter = try LoudnessMeter(
            channels: buffer.channelCount, sampleRate: buffer.sampleRate, truePeak: true, momentaryOnly: true)
        meter.add(buffer, from: from, frames: to - from)
        // The interpolator's output lags its input: flush it with the silence that follows the buffer.
        if to == n { meter.addSilence(frames: reach) }
        return (meter.truePeak, peak)
    }
}
