/// Audio held in memory: `Float` samples, planar (one contiguous run of frames per channel).
///
/// Planar, not interleaved, because almost everything Enso does works one channel at a time: DSP
/// (envelopes, FFT, loudness), loop voices and the mixer read a channel as one contiguous run, which
/// the compiler vectorises. Interleaving happens only at the edges, in file I/O and device output,
/// where ``init(interleaved:channels:sampleRate:)`` and ``interleaved()`` convert.
///
/// Storage is one array: channel `c` occupies `samples[c * frameCount ..< (c + 1) * frameCount]`.
public struct AudioBuffer: Sendable, Equatable {
    /// The channel count (1 ... 64).
    public let channels: Int
    /// The number of frames per channel.
    public let frameCount: Int
    /// Frames per second.
    public var sampleRate: SampleRate
    /// All samples, channel after channel.
    public var samples: [Float]

    /// A buffer of silence.
    public init(channels: ChannelCount, frameCount: Int, sampleRate: SampleRate) {
        precondition(frameCount >= 0, "negative frame count")
        self.channels = channels.count
        self.frameCount = frameCount
        self.sampleRate = sampleRate
        self.samples = [Float](repeating: 0, count: channels.count * frameCount)
    }

    /// A buffer from planar channel arrays, all of the same length.
    public init(channelData: [[Float]], sampleRate: SampleRate) {
        precondition(ChannelCount.validRange.contains(channelData.count), "1...64 channels required")
        let n = channelData[0].count
        precondition(channelData.allSatisfy { $0.count == n }, "channels differ in length")
        self.channels = channelData.count
        self.frameCount = n
        self.sampleRate = sampleRate
        self.samples = channelData.flatMap { $0 }
    }

    /// A buffer that takes planar samples as they are: channel after channel, the same number of frames each.
    public init(planarSamples: [Float], channels: ChannelCount, sampleRate: SampleRate) {
        precondition(planarSamples.count % channels.count == 0, "sample count is not a multiple of the channel count")
        self.channels = channels.count
        self.frameCount = planarSamples.count / channels.count
        self.sampleRate = sampleRate
        self.samples = planarSamples
    }

    /// A buffer from interleaved samples (frame after frame, as files and devices store them).
    public init(interleaved: UnsafeBufferPointer<Float>, channels: ChannelCount, sampleRate: SampleRate) {
        let c = channels.count
        precondition(interleaved.count % c == 0, "interleaved sample count is not a multiple of the channel count")
        let n = interleaved.count / c
        self.channels = c
        self.frameCount = n
        self.sampleRate = sampleRate
        self.samples = [Float](unsafeUninitializedCapacity: c * n) { out, initialized in
            for ch in 0..<c {
                let dst = out.baseAddress! + ch * n
                var src = interleaved.baseAddress! + ch
                for i in 0..<n {
                    dst[i] = src.pointee
                    src += c
                }
            }
            initialized = c * n
        }
    }

    /// The channel count as a checked type.
    public var channelCount: ChannelCount { ChannelCount(checked: channels) }

    /// The length in seconds (for display).
    public var duration: Double { sampleRate.seconds(frames: FrameCount(frameCount)) }

    /// The samples of one channel.
    public func channel(_ index: Int) -> ArraySlice<Float> {
        precondition(index >= 0 && index < channels, "channel \(index) out of range")
        return samples[index * frameCount..<(index + 1) * frameCount]
    }

    /// Calls `body` with a pointer to one channel's samples.
    public func withChannel<R>(_ index: Int, _ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        precondition(index >= 0 && index < channels, "channel \(index) out of range")
        return try samples.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[index * frameCount..<(index + 1) * frameCount]))
        }
    }

    /// Calls `body` with a mutable pointer to one channel's samples.
    public mutating func withMutableChannel<R>(
        _ index: Int, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R
    ) rethrows -> R {
        precondition(index >= 0 && index < channels, "channel \(index) out of range")
        let n = frameCount
        return try samples.withUnsafeMutableBufferPointer { all in
            try body(UnsafeMutableBufferPointer(rebasing: all[index * n..<(index + 1) * n]))
        }
    }

    /// The sample at `frame` in `channel`.
    public subscript(channel: Int, frame: Int) -> Float {
        get { samples[channel * frameCount + frame] }
        set { samples[channel * frameCount + frame] = newValue }
    }

    /// The samples interleaved, frame after frame.
    public func interleaved() -> [Float] {
        let c = channels
        let n = frameCount
        return [Float](unsafeUninitializedCapacity: c * n) { out, initialized in
            samples.withUnsafeBufferPointer { src in
                for ch in 0..<c {
                    let s = src.baseAddress! + ch * n
                    var d = out.baseAddress! + ch
                    for i in 0..<n {
                        d.pointee = s[i]
                        d += c
                    }
                }
            }
            initialized = c * n
        }
    }

    /// A mono mix-down (the mean of all channels).
    public func monoMix() -> [Float] {
        if channels == 1 { return samples }
        var out = [Float](repeating: 0, count: frameCount)
        let scale = 1 / Float(channels)
        samples.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for ch in 0..<channels {
                    let s = src.baseAddress! + ch * frameCount
                    for i in 0..<frameCount { dst[i] += s[i] * scale }
                }
            }
        }
        return out
    }

    /// The first NaN or infinite sample, channel by channel (`nil` when every sample is finite).
    ///
    /// - Complexity: O(n), eight samples at a time (``PeakScan/firstNonFinite(_:)``).
    public func firstNonFinite() -> (channel: Int, frame: Int, value: Float)? {
        for c in 0..<channels {
            if let f = withChannel(c, { PeakScan.firstNonFinite($0) }) { return (c, f, self[c, f]) }
        }
        return nil
    }

    /// A mono mix-down with non-finite samples counted as 0 (for analyses). A mono buffer whose samples are all
    /// finite is returned without a copy.
    public func finiteMonoMix() -> [Float] {
        var out = monoMix()
        let clean = out.withUnsafeBufferPointer { PeakScan.firstNonFinite($0) == nil }
        if !clean {
            out.withUnsafeMutableBufferPointer { p in
                for i in p.indices where !p[i].isFinite { p[i] = 0 }
            }
        }
        return out
    }

    /// The frames `range` of every channel, as a new buffer.
    public func slice(frames range: Range<Int>) -> AudioBuffer {
        precondition(range.lowerBound >= 0 && range.upperBound <= frameCount, "frame range out of bounds")
        // One copy, channel after channel, into the new buffer's storage.
        var out: [Float] = []
        out.reserveCapacity(channels * range.count)
        for ch in 0..<channels {
            out += samples[(ch * frameCount + range.lowerBound)..<(ch * frameCount + range.upperBound)]
        }
        return AudioBuffer(planarSamples: out, channels: ChannelCount(checked: channels), sampleRate: sampleRate)
    }

    /// Multiplies every sample by `factor` (a gain of 20·log10(factor) dB; nothing is clipped).
    public mutating func scale(by factor: Float) {
        samples.withUnsafeMutableBufferPointer { s in
            for i in s.indices { s[i] *= factor }
        }
    }

    /// The largest absolute sample value (0 for an empty buffer). Non-finite samples are ignored.
    public var peak: Float {
        samples.withUnsafeBufferPointer { PeakScan.absMax($0) }
    }
}
