import AudioCore

/// Whole-buffer sample-rate conversion through libsamplerate, with an exact output length and a
/// periodic mode for loops.
///
/// The output has exactly `round(frames × ratio)` frames (`ratio` = target rate / source rate, halves
/// rounded up) and is time-aligned with the input: frame `j` of the output is the input at time `j / ratio`.
public enum Resampler {
    /// Converts `buffer` to `rate`.
    ///
    /// With `periodic`, the buffer is one period of a loop: the signal is treated as wrapping around
    /// (the filter sees the loop's tail before its head and its head after its tail), and the ratio is
    /// adjusted to `round(L × ratio) / L` so the loop is a whole number of frames. The result is exactly
    /// `round(L × ratio)` frames and still loops without a seam. The ratio adjustment changes pitch by
    /// less than half a frame per loop (under 10 ppm for a loop longer than 50 000 frames).
    ///
    /// The corresponding C functions are `src_new`, `src_process` and `src_delete`.
    ///
    /// - Parameters:
    ///   - buffer: the input; its ``AudioBuffer/sampleRate`` is the source rate.
    ///   - rate: the target rate.
    ///   - quality: the libsamplerate converter.
    ///   - periodic: treat `buffer` as one period of a loop.
    /// - Returns: a buffer at `rate` with the same channel count; `buffer` itself when the rates are equal.
    /// - Throws: `EnsoError` of kind `.invalidArgument` (ratio outside 1/256 ... 256, or a periodic
    ///   loop shorter than one output frame) or `.ioFailure` (libsamplerate failed).
    /// - Complexity: O(frames × filter length).
    public static func resample(
        _ buffer: AudioBuffer, to rate: SampleRate, quality: ResamplerQuality, periodic: Bool = false
    ) throws(EnsoError) -> AudioBuffer {
        if rate == buffer.sampleRate { return buffer }
        if buffer.frameCount == 0 {
            return AudioBuffer(channels: buffer.channelCount, frameCount: 0, sampleRate: rate)
        }
        if periodic { return try resamplePeriodic(buffer, to: rate, quality: quality) }
        let converter = try StreamingResampler(
            channels: buffer.channelCount, from: buffer.sampleRate, to: rate, quality: quality)
        return try convertWhole(buffer, with: converter)
    }

    /// Runs all of `buffer` through `converter` and flushes it.
    ///
    /// Feeds 4096 frames per `src_process` call, interleaved chunk by chunk into a small scratch block,
    /// and deinterleaves each call's output straight into the planar result, so the only full-size
    /// allocation is the result. libsamplerate's sinc converters also run faster on short calls than on
    /// one call over a long buffer (see docs/benchmarks.md); the output does not depend on the split.
    private static func convertWhole(_ buffer: AudioBuffer, with converter: StreamingResampler) throws(EnsoError)
        -> AudioBuffer
    {
        let c = buffer.channels
        let frames = buffer.frameCount
        let chunk = 4096
        let expected = Int(converter.expectedOutputFrames(forInputFrames: Int64(frames)))
        var result = [Float](repeating: 0, count: expected * c)
        var produced = 0
        var scratch = [Float](repeating: 0, count: chunk * c)
        var chunkOut: [Float] = []
        chunkOut.reserveCapacity(converter.callSlackFrames(inputFrames: chunk) * c)
        var offset = 0
        while offset <= frames {
            let n = min(chunk, frames - offset)
            chunkOut.removeAll(keepingCapacity: true)
            if n > 0 {
                scratch.withUnsafeMutableBufferPointer { dst in
                    buffer.samples.withUnsafeBufferPointer { src in
                        interleave(
                            src.baseAddress!, stride: frames, at: offset, frames: n, channels: c, into: dst.baseAddress!
                        )
                    }
                }
                try scratch.withUnsafeBufferPointer { (p) throws(EnsoError) in
                    try converter.processInterleaved(
                        UnsafeBufferPointer(rebasing: p[0..<(n * c)]), endOfInput: false, appendingTo: &chunkOut)
                }
            } else {
                try converter.processInterleaved(
                    UnsafeBufferPointer(start: nil, count: 0), endOfInput: true, appendingTo: &chunkOut)
            }
            let g = min(chunkOut.count / c, expected - produced)
            result.withUnsafeMutableBufferPointer { dst in
                chunkOut.withUnsafeBufferPointer { src in
                    deinterleave(
                        src.baseAddress!, frames: g, channels: c, into: dst.baseAddress!, stride: expected, at: produced
                    )
                }
            }
            produced += g
            offset += max(n, 1)
        }
        return AudioBuffer(planarSamples: result, channels: converter.channels, sampleRate: converter.targetRate)
    }

    /// Periodic mode: surround one period with wrapped context, convert, and cut one period out.
    ///
    /// With `M = round(L × ratio)` and the exact ratio `M / L`, input frame `P` maps to output frame
    /// `P × M / L`, a whole number when `P` is a multiple of `L / gcd(L, M)`. The context before the loop
    /// is the smallest such `P` at least half a filter long, so the cut lands exactly on a frame.
    private static func resamplePeriodic(
        _ buffer: AudioBuffer, to rate: SampleRate, quality: ResamplerQuality
    ) throws(EnsoError) -> AudioBuffer {
        let l = Int64(buffer.frameCount)
        let m = (l * Int64(rate.hertz) * 2 + Int64(buffer.sampleRate.hertz)) / (2 * Int64(buffer.sampleRate.hertz))
        guard m > 0 else {
            throw EnsoError(
                .invalidArgument, path: "",
                "resample: a \(l)-frame loop is shorter than one frame at \(rate.hertz) Hz")
        }
        let converter = try StreamingResampler(
            channels: buffer.channelCount, sourceRate: buffer.sampleRate, targetRate: rate, quality: quality,
            numerator: m, denominator: l)
        let ratio = Double(m) / Double(l)
        // Half a filter in input frames; the filter stretches by 1/ratio when downsampling.
        let context = Int64((Double(quality.halfFilterFrames) / min(ratio, 1)).rounded(.up))
        let step = l / gcd(l, m)
        let before = (context + step - 1) / step * step
        let after = context
        let total = Int(before + l + after)
        let n = Int(l)
        let offset = Int(before % l)
        // Frame i of `wrapped` is frame (i - before) mod L of the loop, for every channel.
        var wrapped = AudioBuffer(channels: buffer.channelCount, frameCount: total, sampleRate: buffer.sampleRate)
        for ch in 0..<buffer.channels {
            let loop = Array(buffer.channel(ch))
            wrapped.withMutableChannel(ch) { dst in
                var srcFrame = (n - offset) % n
                for i in 0..<total {
                    dst[i] = loop[srcFrame]
                    srcFrame += 1
                    if srcFrame == n { srcFrame = 0 }
                }
            }
        }
        let all = try convertWhole(wrapped, with: converter)
        let first = Int(before * m / l)
        return all.slice(frames: first..<(first + Int(m)))
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
