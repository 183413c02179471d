import AudioCore
import AudioDSP
import AudioFile
import Foundation

/// `enso loops bake`: makes a file that loops seamlessly by itself.
///
/// The output is the loop region, exactly `end − start` frames, whose first `C` frames are crossfaded with the
/// `C` frames that follow the loop end in the source: `out[j] = fadeOut(j/C)·x[end + j] + fadeIn(j/C)·x[start + j]`.
/// When the output wraps, its last frame `x[end − 1]` is followed by (almost exactly) `x[end]`, the frame that
/// followed it in the source, so the seam is as continuous as the recording itself. When nothing follows the loop
/// end but enough precedes its start, the crossfade is done at the tail instead with the frames before the start;
/// when neither side has room, the loop end moves back by `C` to make room (the only case where the length changes).
///
/// The curve is equal-gain when the two crossfaded runs correlate (normalised correlation ≥ 0.5: the amplitudes
/// add up) and equal-power otherwise (uncorrelated material: the powers add up), its gains scaled so that runs of
/// the measured correlation (over all channels) keep their power all through; a curve the caller gives is used as
/// given. The default length is 10 ms when the runs already match (correlation ≥ 0.9), otherwise an eighth of the
/// loop, between 100 ms and 1 s; never more than half the loop or the material available. Each channel's DC offset
/// (its mean over the baked loop) is removed.
///
/// - Thread safety: pure functions.
/// - Real-time safe: no.
public enum LoopBaker {
    /// What was baked and how.
    public struct Result: Sendable {
        /// The seamless loop: the whole buffer loops (`loop` is `0 ..< frameCount`).
        public var buffer: AudioBuffer
        /// The loop points to store with it.
        public var loop: LoopRegion
        /// The source region that became the loop.
        public var source: LoopRegion
        /// The crossfade length in frames.
        public var crossfade: Int
        public var curve: CrossfadeCurve
        /// Whether the curve was chosen from the correlation (not given by the caller).
        public var curveChosen: Bool
        /// The normalised correlation of the two crossfaded runs.
        public var correlation: Double
        /// Where the crossfade sits: "head" (material after the loop end) or "tail" (material before the start).
        public var placement: String
        /// The DC offset removed from each channel (its mean over the baked loop, full scale = 1).
        public var dcRemoved: [Double] = []
    }

    /// `buffer` with each channel's mean removed, and those means. A constant offset does not break a seam, so
    /// removing it keeps the loop exactly as continuous; it gives back headroom and the click a player makes when it
    /// starts or stops the loop at an offset.
    public static func removingDC(_ buffer: AudioBuffer) -> (buffer: AudioBuffer, offsets: [Double]) {
        var out = buffer
        var offsets: [Double] = []
        for c in 0..<buffer.channels {
            let mean =
                buffer.withChannel(c) { x in x.reduce(0.0) { $0 + Double($1) } } / Double(max(1, buffer.frameCount))
            offsets.append(mean)
            let m = Float(mean)
            if m != 0 { out.withMutableChannel(c) { p in for i in p.indices { p[i] -= m } } }
        }
        return (out, offsets)
    }

    /// Bakes the first of `regions` (best first: a search's candidates) whose baked seam `keeps` accepts, or the
    /// first one's when none does. A search ranks loops by how their ends match, and a crossfade may still leave a
    /// dip or a step that a later candidate's does not (a bird's call cut by the joint, a loop that ends on a rise
    /// of the material itself).
    ///
    /// - Parameter keeps: whether a baked loop will do; by default, its seam does not fail ``SeamRules``.
    /// - Returns: the baked loop and the index in `regions` of the region it was baked from.
    /// - Throws: the first region's error when it cannot be baked (a later one that cannot is passed over).
    public static func bakeFirst(
        _ buffer: AudioBuffer, regions: [LoopRegion], crossfade: Int? = nil, curve: CrossfadeCurve? = nil,
        keeps: (Result) -> Bool = { SeamRules.judge($0.buffer, loop: 0..<$0.buffer.frameCount).verdict != .fail }
    ) throws(EnsoError) -> (result: Result, index: Int) {
        guard let first = regions.first else { throw EnsoError(.invalidInput, "no loop to bake") }
        let best = try bake(buffer, region: first, crossfade: crossfade, curve: curve)
        if keeps(best) { return (best, 0) }
        for (i, region) in regions.enumerated().dropFirst() {
            guard let attempt = try? bake(buffer, region: region, crossfade: crossfade, curve: curve) else { continue }
            if keeps(attempt) { return (attempt, i) }
        }
        return (best, 0)
    }

    /// Bakes `region` of `buffer` into a seamless loop.
    ///
    /// - Parameters:
    ///   - crossfade: the crossfade length in frames; `nil` to choose from the material.
    ///   - curve: the crossfade curve; `nil` to choose from the correlation.
    /// - Throws: `EnsoError` `.invalidInput` when the region does not fit the buffer or is too short for
    ///   the crossfade.
    public static func bake(
        _ buffer: AudioBuffer, region: LoopRegion, crossfade: Int? = nil, curve: CrossfadeCurve? = nil
    ) throws(EnsoError) -> Result {
        let n = buffer.frameCount
        let s = Int(region.start)
        var e = Int(region.end)
        guard s >= 0, e <= n, e - s >= 4 else {
            throw EnsoError(.invalidInput, "loop \(region.start)..<\(region.end) does not fit in \(n) frames")
        }
        let mono = buffer.monoMix()
        let probe = min(max(1, buffer.sampleRate.hertz / 10), e - s)
        let quickMatch = e + probe <= n ? CrossCorrelation.normalized(mono, from: e, mono, from: s, count: probe) : 0
        let sr = buffer.sampleRate.hertz
        // Runs that repeat each other need only 10 ms to join, but only at the same level: correlation does not see
        // level, and 10 ms between runs 2 dB apart is a step (a hum baked so failed `verify`'s level metric). Past
        // 1 dB (about the smallest change of level heard in steady sound), the long crossfade spreads the change.
        // Level over up to 400 ms, as `verify` compares it: a slow swell shows only over the longer window.
        let levelRun = min(sr * 4 / 10, n - e, e - s)
        let levelStep = levelRun > 0 ? Self.levelDifference(mono, from: e, to: s, count: levelRun) : 0
        let joinsShort = quickMatch >= 0.9 && abs(levelStep) <= 1
        var c = crossfade ?? (joinsShort ? sr / 100 : min(sr, max(sr / 10, (e - s) / 8)))
        c = min(c, (e - s) / 2)
        guard c >= 1 else { throw EnsoError(.invalidInput, "the crossfade must be at least 1 frame") }
        if crossfade != nil && crossfade! > (e - s) / 2 {
            throw EnsoError(
                .invalidInput, "a crossfade of \(crossfade!) frames is more than half the \(e - s)-frame loop")
        }
        var placement = "head"
        if n - e < c {
            if s >= c {
                placement = "tail"
            } else if crossfade == nil && n - e > sr / 100 {
                c = n - e
            } else {
                e -= c
                guard e - s >= 2 * c else {
                    throw EnsoError(.invalidInput, "the loop is too short for a \(c)-frame crossfade")
                }
            }
        }
        // The runs that meet in the crossfade: (fading out, fading in, where in the output).
        let (outFrom, inFrom, at) = placement == "head" ? (e, s, 0) : (e - c, s - c, e - s - c)
        let r = correlation(buffer, outFrom, inFrom, count: c)
        let chosen = curve ?? (r >= 0.5 ? .equalGain : .equalPower)
        // A chosen curve keeps the power of runs that correlate by ρ (0 ... 1) constant: the sum of runs at gains g
        // and h has power (g² + h² + 2ρgh) times theirs, so both gains are divided by its square root. That is
        // exactly equal-gain at ρ = 1 and equal-power at ρ = 0; in between (a drone under noise, ρ ≈ 0.7) neither
        // curve alone holds the level: equal-gain dips 0.7 dB halfway, equal-power swells 2.3 dB.
        let rho = curve == nil ? Float(min(max(r, 0), 1)) : nil
        var out = buffer.slice(frames: s..<e)
        for j in 0..<c {
            let x = (Float(j) + 0.5) / Float(c)
            var g = chosen.fadeOut(x)
            var h = chosen.fadeIn(x)
            if let rho {
                let norm = (g * g + h * h + 2 * rho * g * h).squareRoot()
                g /= norm
                h /= norm
            }
            for ch in 0..<buffer.channels {
                // Head: the source's continuation fades out as the loop's head fades in. Tail: the loop's own tail
                // fades out as the material before its start fades in.
                out[ch, at + j] = g * buffer[ch, outFrom + j] + h * buffer[ch, inFrom + j]
            }
        }
        let (centred, offsets) = removingDC(out)
        return Result(
            buffer: centred, loop: LoopRegion(start: 0, end: FramePosition(e - s)),
            source: LoopRegion(start: FramePosition(s), end: FramePosition(e)), crossfade: c, curve: chosen,
            curveChosen: curve == nil, correlation: r, placement: placement, dcRemoved: offsets)
    }

    /// The normalised correlation of `count` frames from `a` with `count` frames from `b`, over all channels:
    /// `Σ x·y / √(Σ x² · Σ y²)` summed over every channel, so that `1 + 2ρgh + g² + h²`-style power sums hold for the
    /// channels as heard. A mono mix would not do: noise that is independent between channels partly cancels in
    /// it, and a stereo drone under such noise correlates 0.84 in the mix but 0.73 in each channel.
    static func correlation(_ buffer: AudioBuffer, _ a: Int, _ b: Int, count: Int) -> Double {
        var ab = 0.0
        var aa = 0.0
        var bb = 0.0
        for ch in 0..<buffer.channels {
            buffer.withChannel(ch) { x in
                for j in 0..<count {
                    let u = Double(x[a + j])
                    let v = Double(x[b + j])
                    ab += u * v
                    aa += u * u
                    bb += v * v
                }
            }
        }
        let denom = (aa * bb).squareRoot()
        return denom > 0 ? ab / denom : 0
    }

    /// The level of `count` frames from `b` against those from `a`, in dB (0 when either is silent).
    static func levelDifference(_ x: [Float], from a: Int, to b: Int, count: Int) -> Double {
        var ea = 0.0
        var eb = 0.0
        for i in 0..<count {
            ea += Double(x[a + i]) * Double(x[a + i])
            eb += Double(x[b + i]) * Double(x[b + i])
        }
        guard ea > 0, eb > 0 else { return 0 }
        return 10 * log10(eb / ea)
    }
}
