import AudioCore
import Foundation

/// Loudness measurements of whole buffers, through ``LoudnessMeter`` (libebur128).
///
/// Three traps of metering one-shot sounds (see docs/bells.md) are handled here:
/// - integrated loudness depends on where the sound sits relative to the 400 ms block grid: `integrated` is
///   BS.1770-4 of the file as it is (what ffmpeg `ebur128`, loudgain and libebur128 itself read), and
///   `integratedPadded` the same with `padSeconds` (0.4 s) of silence at both ends, a measure that does not move
///   when a one-shot's lead-in changes;
/// - max momentary loudness of a short sound needs a fine hop (≤ 10 ms; EBU Tech 3341 case 13);
/// - a buffer shorter than 400 ms has no integrated loudness: reported as `nil`, not `-infinity`.
/// Samples are never clipped: values above 1.0 are metered as they are.
///
/// - Thread safety: stateless; call from any thread (each call makes its own meter).
/// - Real-time safe: no.
public enum LoudnessAnalysis {
    /// Measures integrated, max momentary, max short-term, range, true peak and sample peak.
    ///
    ///     let report = try LoudnessAnalysis.measure(buffer)
    ///     print(report.integrated ?? -.infinity, report.truePeak ?? -.infinity)
    ///
    /// - Parameters:
    ///   - buffer: the sound (any rate, 1...64 channels).
    ///   - momentaryHopSeconds: how often momentary loudness is read (default 10 ms).
    ///   - shortTermHopSeconds: how often short-term loudness is read (default 100 ms).
    ///   - padSeconds: silence added at both ends before metering (default 0.4 s).
    /// - Returns: the report; values that do not exist are `nil`.
    /// - Throws: `EnsoError` `.invalidInput` for non-finite samples or a hop shorter than one frame,
    ///   `.unsupported` when libebur128 refuses the format.
    /// - Complexity: O(n) when the hop tiles libebur128's windows (10 ms and 100 ms at common rates),
    ///   otherwise O(n · 0.4 s / hop): each direct momentary read sums a 400 ms window.
    public static func measure(
        _ buffer: AudioBuffer, momentaryHopSeconds: Double = 0.01, shortTermHopSeconds: Double = 0.1,
        padSeconds: Double = 0.4
    ) throws(EnsoError) -> LoudnessReport {
        let run = try scan(
            buffer, hopSeconds: momentaryHopSeconds, shortTermEvery: shortTermHopSeconds, padSeconds: padSeconds,
            wantMomentary: true)
        let meter = run.meter
        let peaks = try TruePeakScan.peaks(buffer)
        let unpadded: Double
        if let u = run.unpaddedIntegrated { unpadded = u } else { unpadded = try Self.integrated(buffer) }
        let padded = run.gated?.integrated ?? meter.integrated
        return LoudnessReport(
            integrated: finite(unpadded),
            integratedPadded: finite(padded),
            maxMomentary: run.momentary.filter(\.isFinite).max(),
            maxShortTerm: run.shortTerm.filter(\.isFinite).max(),
            range: buffer.frameCount > 0 && finite(padded) != nil ? run.gated?.range ?? meter.range : nil,
            truePeak: decibels(peaks.truePeak),
            samplePeak: decibels(Double(peaks.samplePeak)))
    }

    /// The integrated loudness of `buffer` **as it is played**: a mono file plays on both speakers, so it is metered
    /// as dual mono (its one channel counted twice, as ffmpeg's `ebur128=dualmono=true` reads it: libebur128's
    /// `EBUR128_DUAL_MONO`, one channel filtered, not a copy in two); a stereo file as it is. BS.1770 sums the
    /// channels' powers, so a mono file reads 3.01 dB more as played than its own reading (`integrated`), and the
    /// same sound as a dual-mono stereo file reads the same as played, bit for bit. Loudness-matched
    /// listening (the report's players, `bells audition --listen`) matches this figure; the tables show the file's
    /// own reading (docs/bells.md, "Loudness as played").
    ///
    /// - Returns: LUFS; nil when shorter than 400 ms or every block is under −70 LUFS.
    /// - Throws: `EnsoError` `.unsupported` when libebur128 refuses the format.
    public static func integratedAsPlayed(_ buffer: AudioBuffer) throws(EnsoError) -> Double? {
        finite(try integrated(buffer, dualMono: buffer.channels == 1))
    }

    /// Momentary (400 ms) loudness every `hopSeconds`, from the first hop to the end of the padded buffer.
    ///
    /// - Parameter frames: the part of `buffer` to meter (default: all of it), read in place.
    /// - Throws: as ``measure(_:momentaryHopSeconds:shortTermHopSeconds:padSeconds:)``.
    public static func momentarySeries(
        _ buffer: AudioBuffer, frames: Range<Int>? = nil, hopSeconds: Double = 0.01, padSeconds: Double = 0
    ) throws(EnsoError) -> LoudnessSeries {
        let run = try scan(
            buffer, frames: frames, hopSeconds: hopSeconds, shortTermEvery: nil, padSeconds: padSeconds,
            wantMomentary: true, momentaryOnly: true)
        return LoudnessSeries(
            hopSeconds: run.hopSeconds, windowSeconds: 0.4, startSeconds: -run.padSeconds, values: run.momentary)
    }

    /// Short-term (3 s) loudness every `hopSeconds`, from the first hop to the end of the padded buffer.
    ///
    /// - Throws: as ``measure(_:momentaryHopSeconds:shortTermHopSeconds:padSeconds:)``.
    public static func shortTermSeries(
        _ buffer: AudioBuffer, hopSeconds: Double = 0.1, padSeconds: Double = 0
    ) throws(EnsoError) -> LoudnessSeries {
        let run = try scan(
            buffer, hopSeconds: hopSeconds, shortTermEvery: hopSeconds, padSeconds: padSeconds, wantMomentary: false)
        return LoudnessSeries(
            hopSeconds: run.hopSeconds, windowSeconds: 3, startSeconds: -run.padSeconds, values: run.shortTerm)
    }

    // MARK: - Internals

    struct Scan {
        /// The meter fed pad + buffer + pad. Without gating blocks when ``gated`` holds what they would give.
        var meter: LoudnessMeter
        /// The gated integrated loudness of the buffer alone (no padding), from the hop energies when the hop
        /// tiles libebur128's 100 ms block step and the padding is whole hops; nil otherwise (meter it directly).
        var unpaddedIntegrated: Double?
        /// Integrated loudness and loudness range of pad + buffer + pad from the hop energies (when they tile
        /// libebur128's blocks and the padding is whole hops); nil otherwise: read them from ``meter``.
        var gated: (integrated: Double, range: Double)?
        var momentary: [Double]
        var shortTerm: [Double]
        var hopSeconds: Double
        var padSeconds: Double
    }

    /// Feeds pad + buffer (or its `frames`) + pad hop by hop, reading momentary every hop and short-term every
    /// `shortTermEvery` seconds (rounded to whole hops).
    ///
    /// libebur128 re-sums its whole 400 ms (3 s) window on every momentary (short-term) read, which made
    /// this scan O(n · window / hop). When the hop is a whole number of milliseconds that tiles both windows
    /// exactly (10 ms and 100 ms at 44.1/48/96 kHz), each hop's K-weighted energy is read once with
    /// `ebur128_loudness_window` and the momentary and short-term values are the means of the last 40 / 300
    /// hop energies: the same frames and the same sums libebur128 would make, without the re-reading.
    /// `windowSums: false` forces the direct reads (tests compare the two).
    /// `momentaryOnly` makes a meter that keeps no gating or short-term blocks (``LoudnessMeter``), for series
    /// that read momentary loudness alone.
    static func scan(
        _ buffer: AudioBuffer, frames part: Range<Int>? = nil, hopSeconds: Double, shortTermEvery: Double?,
        padSeconds: Double, wantMomentary: Bool, windowSums: Bool = true, momentaryOnly: Bool = false
    ) throws(EnsoError) -> Scan {
        let part = part ?? 0..<buffer.frameCount
        precondition(part.lowerBound >= 0 && part.upperBound <= buffer.frameCount, "frames outside the buffer")
        let rate = buffer.sampleRate
        let hop = Int(rate.frames(seconds: hopSeconds))
        guard hop >= 1 else {
            throw EnsoError(.invalidInput, "loudness hop \(hopSeconds) s is shorter than one frame at \(rate)")
        }
        guard padSeconds >= 0, padSeconds.isFinite else {
            throw EnsoError(.invalidInput, "loudness padding must be ≥ 0 s, got \(padSeconds)")
        }
        for ch in 0..<buffer.channels {
            if let bad = buffer.withChannel(ch, { PeakScan.firstNonFinite(UnsafeBufferPointer(rebasing: $0[part])) }) {
                throw EnsoError(
                    .invalidInput,
                    "non-finite sample in channel \(ch + 1) at frame \(part.lowerBound + bad); loudness is undefined")
            }
        }
        let pad = Int(rate.frames(seconds: padSeconds))
        let tiling = windowSums ? hopTiling(rate: rate, hop: hop, hopSeconds: hopSeconds) : nil
        // When the hops tile libebur128's 100 ms step and the padding is whole hops, its gating blocks (400 ms every
        // 100 ms) and LRA blocks (3 s every second) are sums of hop energies: the meter keeps none of them.
        let gatesItself = tiling?.stepHops != nil && pad % hop == 0 && !momentaryOnly
        // True peak is read separately (``TruePeakScan``): oversampling every frame here would cost more than the rest.
        // The sample peak is the buffer's own (``AudioBuffer/peak``, found by ``TruePeakScan/peaks(_:)``): the same value
        // without libebur128's extra pass.
        let meter = try LoudnessMeter(
            channels: buffer.channelCount, sampleRate: rate, truePeak: false, momentaryOnly: momentaryOnly,
            samplePeak: false, gating: !gatesItself)
        let length = part.count
        let total = pad + length + pad
        let stEvery = shortTermEvery.map { max(1, Int((($0 / hopSeconds)).rounded())) }
        var momentary: [Double] = []
        var shortTerm: [Double] = []
        if wantMomentary { momentary.reserveCapacity(total / hop + 1) }
        var energies: [Double] = []
        if tiling != nil { energies.reserveCapacity(total / hop + 1) }
        var fed = 0
        var hopIndex = 0
        while fed < total {
            let end = min(fed + hop, total)
            // Split [fed, end) into the leading pad, buffer, and trailing pad parts.
            let a = min(max(fed, 0), pad)
            let aEnd = min(end, pad)
            if aEnd > a { meter.addSilence(frames: aEnd - a) }
            let b = max(fed, pad)
            let bEnd = min(end, pad + length)
            if bEnd > b { meter.add(buffer, from: part.lowerBound + b - pad, frames: bEnd - b) }
            let c = max(fed, pad + length)
            if end > c { meter.addSilence(frames: end - c) }
            fed = end
            hopIndex += 1
            let shortTermDue = stEvery.map { hopIndex % $0 == 0 || fed == total } ?? false
            // The last hop may be short; its reads go to libebur128 directly.
            if let t = tiling, fed % hop == 0 {
                energies.append(energy(ofLoudness: meter.loudness(lastMilliseconds: t.milliseconds)))
                if wantMomentary { momentary.append(loudness(meanOfLast: t.momentaryHops, energies)) }
                if shortTermDue { shortTerm.append(loudness(meanOfLast: t.shortTermHops, energies)) }
            } else {
                if wantMomentary { momentary.append(meter.momentary) }
                if shortTermDue { shortTerm.append(meter.shortTerm) }
            }
        }
        var unpadded: Double?
        var gated: (Double, Double)?
        if let t = tiling, let step = t.stepHops, gatesItself {
            unpadded = gatedIntegrated(
                hopEnergies: energies, firstHop: pad / hop, frames: length, hop: hop, blockHops: t.momentaryHops,
                stepHops: step)
            gated = (
                gatedIntegrated(
                    hopEnergies: energies, firstHop: 0, frames: total, hop: hop, blockHops: t.momentaryHops,
                    stepHops: step),
                loudnessRange(hopEnergies: energies, blockHops: t.shortTermHops, stepHops: step)
            )
        }
        return Scan(
            meter: meter, unpaddedIntegrated: unpadded, gated: gated, momentary: momentary, shortTerm: shortTerm,
            hopSeconds: rate.seconds(frames: Int64(hop)), padSeconds: rate.seconds(frames: Int64(pad)))
    }

    /// BS.1770-4 gated integrated loudness (libebur128's `ebur128_loudness_global`) of `frames` frames of audio
    /// whose K-weighted hop energies start at `energies[firstHop]`: 400 ms blocks (`blockHops` hops) every 100 ms
    /// (`stepHops` hops) from the first frame, as many as fit wholly in the audio; blocks under −70 LUFS are
    /// dropped, then those more than 10 LU under the mean of the rest; the loudness of the mean of what remains.
    /// The K-weighting filter starts from silence in both cases (the padding is digital zeros), so the hops are the
    /// ones libebur128 would filter from the unpadded audio. `-infinity` when no block passes.
    static func gatedIntegrated(
        hopEnergies energies: [Double], firstHop: Int, frames: Int, hop: Int, blockHops: Int, stepHops step: Int
    ) -> Double {
        precondition(step >= 1, "gating blocks need a step of at least one hop")
        var blocks: [Double] = []
        var k = 0
        while (k * step + blockHops) * hop <= frames {
            let a = firstHop + k * step
            guard a + blockHops <= energies.count else { break }
            var sum = 0.0
            for i in a..<(a + blockHops) { sum += energies[i] }
            blocks.append(sum / Double(blockHops))
            k += 1
        }
        return gated(blocks)
    }

    /// The gated loudness of 400 ms block energies (BS.1770-4: absolute gate −70 LUFS, relative gate −10 LU).
    static func gated(_ blocks: [Double]) -> Double {
        let absolute = energy(ofLoudness: -70)
        let loud = blocks.filter { $0 >= absolute }
        guard !loud.isEmpty else { return -.infinity }
        let relative = loud.reduce(0, +) / Double(loud.count) * 0.1
        let kept = loud.filter { $0 >= relative }
        guard !kept.isEmpty else { return -.infinity }
        let mean = kept.reduce(0, +) / Double(kept.count)
        return 10 * log10(mean) - 0.691
    }

    /// Loudness range (EBU Tech 3342) as libebur128's `ebur128_loudness_range` reads it, from hop energies that
    /// start at the first frame: 3 s blocks (`blockHops` hops) ending at 3 s and every second after it
    /// (`stepHops` hops = 100 ms: its block counter restarts at 2 s after each block), those of −70 LUFS or more;
    /// then those at least 20 LU under their mean are dropped (the relative gate), and the range is the 95th minus
    /// the 10th percentile of the rest, each read at index `(count − 1) · p + 0.5` of the sorted energies. 0 when
    /// no block passes.
    static func loudnessRange(hopEnergies energies: [Double], blockHops: Int, stepHops step: Int) -> Double {
        let absolute = energy(ofLoudness: -70)
        var blocks: [Double] = []
        var end = 30 * step
        while end <= energies.count {
            var sum = 0.0
            for i in (end - blockHops)..<end { sum += energies[i] }
            let e = sum / Double(blockHops)
            if e >= absolute { blocks.append(e) }
            end += 10 * step
        }
        guard !blocks.isEmpty else { return 0 }
        blocks.sort()
        let relative = blocks.reduce(0, +) / Double(blocks.count) * 0.01
        let kept = blocks.drop { $0 < relative }
        guard !kept.isEmpty else { return 0 }
        func at(_ p: Double) -> Double { kept[kept.startIndex + Int(Double(kept.count - 1) * p + 0.5)] }
        return 10 * log10(at(0.95)) - 10 * log10(at(0.1))
    }

    /// The integrated loudness of `buffer` alone, metered by libebur128 directly (when the hop energies of a scan
    /// cannot give it).
    ///
    /// - Parameter dualMono: a one-channel `buffer` counted twice (``LoudnessMeter``'s `dualMono`).
    static func integrated(_ buffer: AudioBuffer, dualMono: Bool = false) throws(EnsoError) -> Double {
        let meter = try LoudnessMeter(
            channels: buffer.channelCount, sampleRate: buffer.sampleRate, truePeak: false, samplePeak: false,
            dualMono: dualMono)
        meter.add(buffer)
        return meter.integrated
    }

    /// How a hop tiles libebur128's windows: its length in ms and how many hops make 400 ms and 3 s, and
    /// 100 ms (its block step) when that is whole hops too.
    struct HopTiling {
        var milliseconds: Int
        var momentaryHops: Int
        var shortTermHops: Int
        var stepHops: Int?
    }

    /// The tiling when `hop` frames are exactly libebur128's window of a whole number of milliseconds and
    /// a whole number of hops make its momentary and short-term windows; `nil` otherwise.
    static func hopTiling(meter: LoudnessMeter, hop: Int, hopSeconds: Double) -> HopTiling? {
        hopTiling(rate: meter.sampleRate, hop: hop, hopSeconds: hopSeconds)
    }

    /// ``hopTiling(meter:hop:hopSeconds:)`` for a meter at `rate`.
    static func hopTiling(rate: SampleRate, hop: Int, hopSeconds: Double) -> HopTiling? {
        let ms = (hopSeconds * 1000).rounded()
        guard ms >= 1, ms <= 400, abs(ms - hopSeconds * 1000) < 1e-9 else { return nil }
        let m = Int(ms)
        let momentary = LoudnessMeter.momentaryFrames(rate: rate)
        let shortTerm = LoudnessMeter.shortTermFrames(rate: rate)
        let step = LoudnessMeter.stepFrames(rate: rate)
        guard LoudnessMeter.windowFrames(milliseconds: m, rate: rate) == hop, momentary % hop == 0,
            shortTerm % hop == 0
        else { return nil }
        return HopTiling(
            milliseconds: m, momentaryHops: momentary / hop, shortTermHops: shortTerm / hop,
            stepHops: step % hop == 0 ? step / hop : nil)
    }

    /// Mean K-weighted energy (libebur128's `ebur128_energy_to_loudness`, inverted).
    static func energy(ofLoudness lufs: Double) -> Double {
        lufs.isFinite ? pow(10, (lufs + 0.691) / 10) : 0
    }

    /// Loudness of the mean of the last `count` hop energies; hops before the first count as silence,
    /// as libebur128's zero-filled window does. `-infinity` when the energy is 0.
    static func loudness(meanOfLast count: Int, _ energies: [Double]) -> Double {
        let from = max(0, energies.count - count)
        var sum = 0.0
        energies.withUnsafeBufferPointer { e in
            for i in from..<e.count { sum += e[i] }
        }
        let mean = sum / Double(count)
        return mean > 0 ? 10 * log10(mean) - 0.691 : -.infinity
    }

    private static func finite(_ x: Double) -> Double? { x.isFinite ? x : nil }

    private static func decibels(_ linear: Double) -> Double? {
        linear > 0 && linear.isFinite ? 20 * log10(linear) : nil
    }
}
