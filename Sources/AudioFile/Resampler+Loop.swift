import AudioCore

extension Resampler {
    /// Converts a file with a loop region to `rate` so that the loop stays seamless (`enso convert` of a loop).
    ///
    /// A plain conversion treats the file's ends as silence beyond them, so the loop's last frames are filtered
    /// without its first ones after them and the wrap bends (a 250 Hz tone looping exactly over 4 s at 48 kHz
    /// fails `loops verify` after conversion to 44.1 kHz). Here the loop region is converted on its own in
    /// periodic mode (see ``resample(_:to:quality:periodic:)``): exactly `M = round(L × ratio)` frames that wrap
    /// without a seam. A loop that is the whole file is just that. Otherwise the rest of the file (an intro before
    /// the loop, a tail after it) comes from the plain conversion, with the periodic loop set in at
    /// `round(start × ratio)`: away from the loop's edges the two conversions agree, and the intro runs into the
    /// loop as it does in the source.
    ///
    /// - Returns: the converted buffer and the loop region in it (`M` frames long).
    /// - Throws: as ``resample(_:to:quality:periodic:)``.
    public static func resample(
        _ buffer: AudioBuffer, to rate: SampleRate, quality: ResamplerQuality, keepingSeamless loop: LoopRegion
    ) throws(EnsoError) -> (buffer: AudioBuffer, loop: LoopRegion) {
        precondition(
            loop.start >= 0 && loop.end <= buffer.frameCount && loop.start < loop.end, "loop outside the buffer")
        if rate == buffer.sampleRate { return (buffer, loop) }
        let whole = loop.start == 0 && loop.end == buffer.frameCount
        let region = whole ? buffer : buffer.slice(frames: Int(loop.start)..<Int(loop.end))
        let periodic = try resample(region, to: rate, quality: quality, periodic: true)
        if whole { return (periodic, LoopRegion(start: 0, end: FramePosition(periodic.frameCount))) }
        let plain = try resample(buffer, to: rate, quality: quality)
        let start = min(Int((Double(loop.start) * rate.double / buffer.sampleRate.double).rounded()), plain.frameCount)
        let m = periodic.frameCount
        // The tail after the loop, when the plain conversion has room for it after the periodic loop.
        let tail = max(0, plain.frameCount - (start + m))
        let total = start + m + tail
        let channels: [[Float]] = (0..<buffer.channels).map { c in
            var out = [Float](repeating: 0, count: total)
            plain.withChannel(c) { p in
                for i in 0..<start { out[i] = p[i] }
                for i in 0..<tail { out[start + m + i] = p[start + m + i] }
            }
            periodic.withChannel(c) { q in for i in 0..<m { out[start + i] = q[i] } }
            return out
        }
        return (
            AudioBuffer(channelData: channels, sampleRate: rate),
            LoopRegion(start: FramePosition(start), end: FramePosition(start + m))
        )
    }
}
