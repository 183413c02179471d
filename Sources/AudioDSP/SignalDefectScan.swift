import AudioCore
import Foundation

/// Sample-level facts that reveal damaged audio: clipping runs, DC offset, non-finite samples, and
/// channels that are inverted copies of each other or nearly silent.
///
/// Definitions:
/// - a clipping run is 3 or more consecutive samples of one channel at full scale (|x| ≥ 32767/32768, the largest
///   value a 16-bit sample holds), of either sign. A smooth peak that reaches full scale stays within that one step
///   of it for under 2 samples (a 1.0 sine at 1 kHz and 44.1 kHz: cos θ ≥ 1 − 2⁻¹⁵ for |θ| < 0.008 rad, 0.06
///   samples; at 100 Hz 0.55), while ≥ 0.999 holds a 100 Hz peak for 6 samples. Clipped, a tone's flattened tops
///   hold as many samples as its overs last, but a high tone's half-cycle holds few (a triangle's 11 kHz at 44.1 kHz:
///   two), so its clipped tops alternate in sign, rail to rail from one sample to the next, which no unclipped sound
///   does (a step of 2 in one sample needs a full-scale tone above rate/π, and three samples in a row on the rails
///   one near the Nyquist frequency). A file clipped and then turned down holds its rails below full scale; where
///   ``ClipRails/find(in:blocks:)`` finds such a rail (flat runs against a top that nothing exceeds, with a
///   corner beside them), the runs are counted on it the same way, and `clipRails` holds it. `clippedSamples` counts
///   the samples in such runs, `longestClipRun` is the longest;
/// - `dcOffset` is the largest |mean| of any channel, in full-scale units (0.02 = 2 %);
/// - `nonFinite` counts NaN and ±infinity samples; `firstNonFinite` is the first one's time in seconds;
/// - `peak` is the largest finite |x| of any channel (as ``AudioBuffer/peak``, from the same pass);
/// - `channelCorrelation` is the Pearson correlation between the first two channels (nil for mono);
///   `channelBalance` is the quietest channel's RMS relative to the loudest, in dB (0 for mono;
///   ``silentChannelBalance`` for a digitally silent one), and
///   `quietestChannel` that channel's index (0 = the first; nil for mono, or when all channels are silent).
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct SignalDefectScan: Sendable, Codable, Equatable {
    public var clippedSamples: Int
    public var longestClipRun: Int
    public var clipRuns: Int
    public var dcOffset: Double
    public var nonFinite: Int
    public var firstNonFinite: Double?
    public var channelCorrelation: Double?
    public var channelBalance: Double
    public var quietestChannel: Int?
    public var peak: Float
    /// The rails the clipping runs were counted on when one lies below full scale (nil: full scale on both sides).
    public var clipRails: ClipRails?

    /// The rails the clipping runs were counted on: ``clipRails``, or full scale.
    public var rails: ClipRails { clipRails ?? .fullScale }

    /// The `channelBalance` of a channel that is digitally silent beside a sounding one (dB).
    public static let silentChannelBalance = -200.0

    /// The sample magnitude treated as full scale.
    public static let fullScale: Float = 32767 / 32768
    /// The shortest run of full-scale samples counted as clipping.
    public static let minimumRun = 3
    /// A DC offset above this share of full scale (1 %, −40 dBFS) is a defect wherever a file is judged (`bells
    /// audition`, `assets check`, `loops verify`): starting or stopping the file steps the output by as much, a click
    /// as loud as an audible cut (−40 dB re peak, docs/bells.md). The one DC threshold of every command.
    public static let audibleDCOffset = 0.01

    /// Scans `buffer`.
    public init(_ buffer: AudioBuffer) {
        let n = buffer.frameCount
        var clipped = 0
        var longest = 0
        var runs = 0
        var dc = 0.0
        var bad = 0
        var firstBad: Int?
        // Each block's largest and smallest finite sample, per channel: where ``ClipRails`` looks for a rail.
        var extremes: [[BlockExtremes]] = []
        var rms: [Double] = []
        for ch in 0..<buffer.channels {
            var blocks: [BlockExtremes] = []
            blocks.reserveCapacity(n / Self.block + 1)
            buffer.withChannel(ch) { p in
                var run = 0
                var sum = 0.0
                var sq = 0.0
                func close() {
                    if run >= Self.minimumRun {
                        clipped += run
                        runs += 1
                        longest = max(longest, run)
                    }
                    run = 0
                }
                // Blocks of 1024: one whose samples are all finite and below full scale only adds to the sums
                // (eight lanes at a time, Float within the block, Double across blocks) and closes any clipping run;
                // the others go sample by sample.
                var start = 0
                while start < n {
                    let end = min(n, start + Self.block)
                    if let (s, q, hi, lo) = Self.quietBlockSums(p.baseAddress! + start, count: end - start) {
                        close()
                        sum += s
                        sq += q
                        blocks.append(BlockExtremes(highest: hi, lowest: lo))
                        start = end
                        continue
                    }
                    var (hi, lo) = (-Float.infinity, Float.infinity)
                    for i in start..<end {
                        let x = p[i]
                        guard x.isFinite else {
                            bad += 1
                            firstBad = min(firstBad ?? i, i)
                            close()
                            continue
                        }
                        sum += Double(x)
                        sq += Double(x) * Double(x)
                        (hi, lo) = (max(hi, x), min(lo, x))
                        if abs(x) >= Self.fullScale {
                            run += 1
                        } else {
                            close()
                        }
                    }
                    blocks.append(BlockExtremes(highest: hi, lowest: lo))
                    start = end
                }
                close()
                if n > 0 {
                    dc = max(dc, abs(sum / Double(n)))
                    rms.append((sq / Double(n)).squareRoot())
                }
            }
            extremes.append(blocks)
        }
        let highest = extremes.joined().map(\.highest).max() ?? -.infinity
        let lowest = extremes.joined().map(\.lowest).min() ?? .infinity
        peak = highest >= lowest ? max(highest, -lowest, 0) : 0
        clipRails = highest >= lowest ? ClipRails.find(in: buffer, blocks: extremes) : nil
        if let clipRails {
            (clipped, runs, longest) = clipRails.runs(in: buffer)
        }
        clippedSamples = clipped
        longestClipRun = longest
        clipRuns = runs
        dcOffset = dc
        nonFinite = bad
        firstNonFinite = firstBad.map { buffer.sampleRate.seconds(frames: Int64($0)) }
        if buffer.channels >= 2 && n > 1 {
            channelCorrelation = buffer.withChannel(0) { a in
                buffer.withChannel(1) { b in Self.correlation(a, b, skipNonFinite: bad > 0) }
            }
        } else {
            channelCorrelation = nil
        }
        (channelBalance, quietestChannel) = Self.balance(rms)
    }

    /// `channelBalance` and `quietestChannel` from each channel's RMS.
    static func balance(_ rms: [Double]) -> (Double, Int?) {
        guard let loud = rms.max(), let quiet = rms.min(), loud > 0 else { return (0, nil) }
        return (
            quiet > 0 ? 20 * log10(quiet / loud) : Self.silentChannelBalance,
            rms.count >= 2 ? rms.firstIndex(of: quiet) : nil
        )
    }

    /// Samples per block of the fast path.
    static let block = 1024

    /// The largest and the smallest finite sample of one block of ``block`` samples (−∞ and +∞ when it has none).
    struct BlockExtremes {
        var highest: Float
        var lowest: Float
    }

    /// Σx, Σx², the largest and the smallest sample of a block whose samples are all finite and below ``fullScale`` (in
    /// `Float` lanes), or nil when one is not (that block is then scanned sample by sample).
    static func quietBlockSums(_ x: UnsafePointer<Float>, count: Int) -> (Double, Double, Float, Float)? {
        let raw = UnsafeRawPointer(x)
        let limit = SIMD8<Float>(repeating: fullScale)
        var sum = SIMD8<Float>(repeating: 0)
        var sq = SIMD8<Float>(repeating: 0)
        var top = SIMD8<Float>(repeating: -.infinity)
        var bottom = SIMD8<Float>(repeating: .infinity)
        var i = 0
        while i + 8 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            let a = SIMDLanes.abs(v)
            // NaN fails `<`, so a non-finite sample also leaves the fast path.
            guard all(a .< limit) else { return nil }
            sum += v
            sq += v * v
            top = SIMDLanes.max(top, v)
            bottom = bottom.replacing(with: v, where: v .< bottom)
            i += 8
        }
        var s = Double(sum.sum())
        var q = Double(sq.sum())
        var (hi, lo) = (top.max(), bottom.min())
        while i < count {
            let v = x[i]
            guard abs(v) < fullScale else { return nil }
            s += Double(v)
            q += Double(v) * Double(v)
            (hi, lo) = (max(hi, v), min(lo, v))
            i += 1
        }
        return (s, q, hi, lo)
    }

    /// The Pearson correlation of two channels (0 when either is constant). With `skipNonFinite`, pairs holding
    /// a NaN or infinity are left out (sample by sample); otherwise the sums run in `Float` lanes per block.
    static func correlation(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>, skipNonFinite: Bool)
        -> Double
    {
        let n = a.count
        var sa = 0.0, sb = 0.0, sab = 0.0, saa = 0.0, sbb = 0.0
        func add(_ x: Double, _ y: Double) {
            sa += x
            sb += y
            sab += x * y
            saa += x * x
            sbb += y * y
        }
        var pairs = n
        if skipNonFinite {
            pairs = 0
            for i in 0..<n where a[i].isFinite && b[i].isFinite {
                pairs += 1
                add(Double(a[i]), Double(b[i]))
            }
        } else {
            let ra = UnsafeRawPointer(a.baseAddress!)
            let rb = UnsafeRawPointer(b.baseAddress!)
            var start = 0
            while start < n {
                let end = min(n, start + block)
                var la = SIMD8<Float>(repeating: 0), lb = la, lab = la, laa = la, lbb = la
                var i = start
                while i + 8 <= end {
                    let x = ra.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
                    let y = rb.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
                    la += x
                    lb += y
                    lab += x * y
                    laa += x * x
                    lbb += y * y
                    i += 8
                }
                sa += Double(la.sum())
                sb += Double(lb.sum())
                sab += Double(lab.sum())
                saa += Double(laa.sum())
                sbb += Double(lbb.sum())
                while i < end {
                    add(Double(a[i]), Double(b[i]))
                    i += 1
                }
                start = end
            }
        }
        return pearson(sa: sa, sb: sb, sab: sab, saa: saa, sbb: sbb, pairs: pairs, frames: n)
    }

    /// The correlation of two channels from their sums over `pairs` pairs of `frames`: centred on the means over
    /// all the frames, Σ(x − ma)(y − mb) and so on.
    static func pearson(sa: Double, sb: Double, sab: Double, saa: Double, sbb: Double, pairs: Int, frames n: Int)
        -> Double
    {
        let m = Double(pairs)
        let ma = sa / Double(n)
        let mb = sb / Double(n)
        let cab = sab - mb * sa - ma * sb + m * ma * mb
        let caa = saa - 2 * ma * sa + m * ma * ma
        let cbb = sbb - 2 * mb * sb + m * mb * mb
        return caa > 0 && cbb > 0 ? cab / (caa * cbb).squareRoot() : 0
    }
}
