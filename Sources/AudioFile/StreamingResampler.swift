import AudioCore
import CSampleRate

/// A sample-rate converter fed in chunks: for files too long to hold twice in memory, or audio that
/// arrives in blocks.
///
/// Call ``process(_:)`` for each chunk, then ``flush()`` once at the end. The concatenated outputs are
/// the same samples ``Resampler/resample(_:to:quality:periodic:)`` produces for the whole input, for
/// any chunk sizes, and total exactly `round(inputFrames × ratio)` frames. Output lags input by about
/// half the filter length, so early chunks may produce few or no frames; ``flush()`` releases the rest.
///
///     let r = try StreamingResampler(channels: .stereo, from: .hz44100, to: .hz48000, quality: .medium)
///     for chunk in chunks { sink(try r.process(chunk)) }
///     sink(try r.flush())
///
/// - Thread safety: one thread at a time.
/// - Real-time safe: no (allocates output buffers).
public final class StreamingResampler {
    /// The channel count every chunk must have.
    public let channels: ChannelCount
    /// The rate of the input.
    public let sourceRate: SampleRate
    /// The rate of the output.
    public let targetRate: SampleRate
    /// The converter quality.
    public let quality: ResamplerQuality
    /// Output frames per input frame.
    public let ratio: Double

    /// Input frames consumed since creation or the last ``reset()``.
    public private(set) var inputFrames: Int64 = 0
    /// Output frames produced since creation or the last ``reset()``.
    public private(set) var outputFrames: Int64 = 0

    private let handle: SamplerateHandle
    private let exactRatio: (numerator: Int64, denominator: Int64)
    private var flushed = false
    /// The last output frame, interleaved: what pads the stream to its exact length at the end.
    private var lastFrame: [Float]

    /// Creates a converter from `sourceRate` to `targetRate`.
    ///
    /// The corresponding C function is `src_new`.
    ///
    /// - Throws: `EnsoError` of kind `.invalidArgument` when the ratio is outside 1/256 ... 256,
    ///   or `.ioFailure` when libsamplerate cannot create the converter.
    public convenience init(
        channels: ChannelCount, from sourceRate: SampleRate, to targetRate: SampleRate, quality: ResamplerQuality
    ) throws(EnsoError) {
        try self.init(
            channels: channels, sourceRate: sourceRate, targetRate: targetRate, quality: quality,
            numerator: Int64(targetRate.hertz), denominator: Int64(sourceRate.hertz))
    }

    /// Creates a converter with the exact ratio `numerator / denominator` (periodic mode uses
    /// `round(L × ratio) / L` so a loop fits a whole number of frames).
    init(
        channels: ChannelCount, sourceRate: SampleRate, targetRate: SampleRate, quality: ResamplerQuality,
        numerator: Int64, denominator: Int64
    ) throws(EnsoError) {
        let ratio = Double(numerator) / Double(denominator)
        guard numerator > 0, denominator > 0, system_src_is_valid_ratio(ratio) else {
            throw EnsoError(
                .invalidArgument, path: "",
                "resample: cannot convert \(sourceRate.hertz) Hz to \(targetRate.hertz) Hz (ratio \(ratio) is outside 1/256 ... 256)"
            )
        }
        var error: Int32 = 0
        guard let h = system_src_new(quality.converterType, Int32(channels.count), &error) else {
            throw EnsoError(
                .ioFailure, path: "",
                "resample: libsamplerate cannot create a converter: \(system_src_strerror(error))",
                code: error)
        }
        self.handle = h
        self.channels = channels
        self.sourceRate = sourceRate
        self.targetRate = targetRate
        self.quality = quality
        self.ratio = ratio
        self.exactRatio = (numerator, denominator)
        self.lastFrame = [Float](repeating: 0, count: channels.count)
    }

    deinit { system_src_delete(handle) }

    /// Converts one chunk and returns the frames that are ready (possibly none).
    ///
    /// The corresponding C function is `src_process`.
    ///
    /// - Precondition: `chunk` has ``channels`` channels and ``flush()`` has not been called since the last reset.
    /// - Throws: `EnsoError` of kind `.ioFailure` when libsamplerate reports an error.
    public func process(_ chunk: AudioBuffer) throws(EnsoError) -> AudioBuffer {
        precondition(
            chunk.channels == channels.count, "chunk has \(chunk.channels) channels, converter \(channels.count)")
        var out: [Float] = []
        let input = chunk.interleaved()
        try input.withUnsafeBufferPointer { (p) throws(EnsoError) in
            try processInterleaved(p, endOfInput: false, appendingTo: &out)
        }
        return planar(out)
    }

    /// Ends the stream: returns the frames still inside the filter, so the total output is exactly
    /// `round(inputFrames × ratio)` frames.
    ///
    /// The corresponding C function is `src_process` with `end_of_input` set.
    ///
    /// - Throws: `EnsoError` of kind `.ioFailure` when libsamplerate reports an error.
    public func flush() throws(EnsoError) -> AudioBuffer {
        var out: [Float] = []
        try processInterleaved(UnsafeBufferPointer(start: nil, count: 0), endOfInput: true, appendingTo: &out)
        return planar(out)
    }

    /// Forgets all input so the converter can start a new stream; keeps its memory.
    ///
    /// The corresponding C function is `src_reset`.
    public func reset() {
        _ = system_src_reset(handle)
        inputFrames = 0
        outputFrames = 0
        flushed = false
        for i in lastFrame.indices { lastFrame[i] = 0 }
    }

    /// The exact output length for `frames` input frames: `round(frames × ratio)`, halves rounded up.
    public func expectedOutputFrames(forInputFrames frames: Int64) -> Int64 {
        (frames * exactRatio.numerator * 2 + exactRatio.denominator) / (2 * exactRatio.denominator)
    }

    /// The output room one call reserves for `inputFrames` of input: its share plus the filter's backlog.
    func callSlackFrames(inputFrames: Int) -> Int {
        Int(Double(inputFrames) * ratio) + 2 * quality.halfFilterFrames * Int(max(1, ratio.rounded(.up))) + 64
    }

    /// Converts interleaved input and appends interleaved output to `out`.
    ///
    /// With `endOfInput`, drains the filter and trims the stream to its exact length, or pads it by holding its
    /// last frame (libsamplerate stops at the last input frame's time, up to a frame short of the rounded
    /// length; a held frame, not silence, so a file that loops as a whole gets no gap at its seam).
    func processInterleaved(
        _ input: UnsafeBufferPointer<Float>, endOfInput: Bool, appendingTo out: inout [Float]
    ) throws(EnsoError) {
        precondition(!flushed, "StreamingResampler used after flush() without reset()")
        if input.baseAddress == nil {
            // libsamplerate (0.2.2) does nothing, without an error, for a call whose `data_in` is NULL, even with
            // `end_of_input`: the flush must point at some (empty) input, or the filter's last half-length is
            // never released (3.3 ms at best quality) and the end would be padded with silence.
            let none: [Float] = [0]
            try none.withUnsafeBufferPointer { (p) throws(EnsoError) in
                try processInterleaved(
                    UnsafeBufferPointer(rebasing: p[0..<0]), endOfInput: endOfInput, appendingTo: &out)
            }
            return
        }
        let c = channels.count
        let inFrames = input.count / c
        var consumed = 0
        let startCount = out.count
        // Room for this call's share plus the filter's backlog; the loop below grows it if short.
        var capacity = callSlackFrames(inputFrames: inFrames)
        while true {
            let base = out.count
            out.append(contentsOf: repeatElement(0, count: capacity * c))
            var data = SRC_DATA()
            var rc: Int32 = 0
            out.withUnsafeMutableBufferPointer { o in
                data.data_in = input.baseAddress.map { UnsafePointer($0 + consumed * c) }
                data.input_frames = inFrames - consumed
                data.data_out = o.baseAddress! + base
                data.output_frames = capacity
                data.end_of_input = endOfInput ? 1 : 0
                data.src_ratio = ratio
                rc = system_src_process(handle, &data)
            }
            if rc != 0 {
                out.removeSubrange(base...)
                throw EnsoError(.ioFailure, path: "", "resample: \(system_src_strerror(rc))", code: rc)
            }
            let generated = data.output_frames_gen
            out.removeSubrange((base + generated * c)...)
            consumed += data.input_frames_used
            if consumed >= inFrames && (!endOfInput ? generated < capacity : generated == 0) { break }
            if generated == 0 && data.input_frames_used == 0 && !endOfInput { break }
            capacity = max(capacity, 1024)
        }
        inputFrames += Int64(inFrames)
        outputFrames += Int64((out.count - startCount) / c)
        guard endOfInput else {
            if out.count - startCount >= c { lastFrame.replaceSubrange(0..<c, with: out[(out.count - c)...]) }
            return
        }
        flushed = true
        let target = expectedOutputFrames(forInputFrames: inputFrames)
        if outputFrames > target {
            let excess = Int(min(outputFrames - target, Int64((out.count - startCount) / c)))
            out.removeLast(excess * c)
            outputFrames -= Int64(excess)
        }
        if out.count - startCount >= c { lastFrame.replaceSubrange(0..<c, with: out[(out.count - c)...]) }
        if outputFrames < target {
            for _ in 0..<(target - outputFrames) { out.append(contentsOf: lastFrame) }
            outputFrames = target
        }
    }

    private func planar(_ interleaved: [Float]) -> AudioBuffer {
        interleaved.withUnsafeBufferPointer { AudioBuffer(interleaved: $0, channels: channels, sampleRate: targetRate) }
    }
}
