import Foundation

extension SeamMetrics {
    /// The percentile of the high-band window energies a click is judged against: 99.9 (one moment in a thousand).
    static let clickReferencePercentile = 0.999

    /// Guard around the seam excluded from the "elsewhere" statistics: 5 ms each side.
    static let seamGuardSeconds = 0.005

    /// The highest rate the step and click measures look at: 48 kHz, whose band (up to 24 kHz) holds all that is
    /// heard. Above it they compare samples `analysisStride` apart, so a 96 kHz file reads as the same file at
    /// 48 kHz and content above hearing (a resampler's ringing, an empty band above 22 kHz) neither raises nor
    /// lowers a seam's step.
    static let analysisRate = 48_000

    /// The movement a step is judged against at least: −70 dBFS (3.2e-4, ten 16-bit steps), the level under which the
    /// level metric hears no step. In near-silence the ±5 ms move by a few quantisation steps, and a step of as few
    /// is a ratio of chance: pygame's `house_lo.mp3`, whose encoder's silence lies around its seam, read its seam's
    /// step of 0.0001 (−80 dBFS) as 23 times the loop's, and led its reasons with it.
    static let quietStep: Float = 3.162e-4

    /// How much more the waveform moves after a junction than before it where a sound starts there: 4 times (12 dB).
    /// The jump into a sound that starts rough (a snare's or a hi-hat's noise) is its own first step, as rough as the
    /// steps it takes next, and is judged against them.
    static let onsetRise: Float = 4

    /// Samples apart that the step and click measures compare at `sampleRate`: 1 up to 72 kHz, 2 at 88.2/96 kHz,
    /// 4 at 176.4/192 kHz (the nearest whole ratio to ``analysisRate``).
    static func analysisStride(_ sampleRate: Int) -> Int {
        max(1, Int((Double(sampleRate) / Double(analysisRate)).rounded()))
    }

    /// Metric 1: the sample jump at the wrap against the steps at ordinary junctions of the loop.
    ///
    /// At a junction between frames k − 1 and k the step is |x[k] − x[k−1]| divided by the median step within
    /// ±5 ms around it (the local movement of the waveform: a step inside a crackle is judged against the crackle;
    /// steps of 0, digital silence, do not move and are left out: a loop that stops dead for 8 ms before its start
    /// read its first sample's step of 2 LSB as 28 times the usual jump, where the fault is the gap), the worst
    /// channel. The seam's step (x[L−1] to x[0]) is divided by the 99th percentile of the same measure
    /// at ``interiorJunctions`` junctions spread evenly through the loop; a seam joining opposite phases of a tone
    /// or cut out of a noise bed scores 3 ... 30, a designer loop at most about 1. A DC step across the seam is a
    /// jump like any other. The slope change (a kink) is the click metric's business: in smooth material the
    /// second difference is quantisation noise, and a kink that only it shows is inaudible. Above 72 kHz the step
    /// spans s = ``analysisStride(_:)`` samples, as at 48 kHz: the largest of x[k + a] − x[k + a − s], a = 0 ..< s.
    ///
    /// The places of the loop's pattern (``Pattern``) are read against the seam's own ±5 ms, not theirs: the seam's
    /// jump against theirs. A place holds what the seam holds when the wrap is seamless, so their jumps compare
    /// directly; their movements do not at an onset, where half of the ±5 ms is the quiet before it and half the
    /// sound after, and the median falls on either side by chance (a dry loop's snare onsets, one sample each, read
    /// 0.85, 3.7, 28 and 61 times their own movement, so a loop started on its snare failed).
    ///
    /// Where a sound starts at the seam (its ±5 ms after move ``onsetRise`` times as much as those before), the jump
    /// is also read against the largest step that sound takes 1-5 ms after the seam, and judged against the larger
    /// reference: a drum machine's snare or hi-hat draws new noise at each hit, so its first step is a draw as large
    /// as the next ones, which neither the loop's junctions nor its pattern's places (other draws) bound; the sound
    /// masks a step no larger than its own. The first ms is left out, where a click's own way back lies, so a click
    /// larger than the drum's steps still stands out.
    static func continuity(_ view: LoopView, pattern: Pattern?) -> Measure {
        let n = view.count
        let stride = analysisStride(view.sampleRate)
        guard n >= 16 * stride else {
            return skipped(.continuity, .tooShort(frames: n))
        }
        // Local movement: ±5 ms, at most a quarter of the loop either side (a sustain loop may be a few ms long).
        let half = max(2, min(view.frames(seamGuardSeconds), (n - 2) / 4))
        // Junction k joins frame k − 1 to frame k (cyclically); junction 0 is the seam.
        let inner = evenly(interiorJunctions, over: 1...(n - 1))
        let junctions = [0] + inner + (pattern?.junctions ?? [])
        var ratios = [Double](repeating: 0, count: junctions.count)
        var scratch = [Float](repeating: 0, count: 2 * half)
        var spare = [Float](repeating: 0, count: 2 * half)
        let clickFrames = view.frames(0.001)
        // Each channel's seam: its step's ratio to its movement, the step, and its `onsetStep` (0: no sound starts).
        var seam = [(ratio: Double, jump: Float, largest: Float)](
            repeating: (0, 0, 0), count: view.channelCount)
        // The pattern's places come after the seam and the ordinary junctions.
        let firstPlace = 1 + inner.count
        for c in 0..<view.channelCount {
            // The seam's local movement on this channel (set at junction 0, the first read).
            var seamLocal: Float = quietStep
            view.withChannel(c) { x in
                // The step across junction k: x[k] − x[k − 1] at 48 kHz and below; above, the largest of the s
                // steps x[k + a] − x[k + a − s] (a = 0 ..< s) that straddle it, so no sample escapes (a one-sample
                // click at x[k] is in the step from x[k − s]).
                func step(_ k: Int) -> Float {
                    var largest: Float = 0
                    for a in 0..<stride {
                        let i = (((k + a) % n) + n) % n
                        let d = x[i] - x[(i - stride + n) % n]
                        if abs(d) > abs(largest) { largest = d }
                    }
                    return largest
                }
                // The same step without the cyclic index arithmetic, for a junction whose ±5 ms do not wrap.
                func inside(_ k: Int) -> Float {
                    if stride == 1 { return x[k] - x[k - 1] }
                    var largest: Float = 0
                    for a in 0..<stride {
                        let d = x[k + a] - x[k + a - stride]
                        if abs(d) > abs(largest) { largest = d }
                    }
                    return largest
                }
                // At a seam where a sound starts (the ±5 ms after it move ``onsetRise`` times as much as those before
                // it), the largest step that sound takes 1 to 5 ms after the seam (the first ms is left out, where a
                // click's own way back lies); 0 elsewhere.
                func onsetStep(_ x: UnsafeBufferPointer<Float>) -> Float {
                    guard half > clickFrames else { return 0 }
                    func at(_ i: Int) -> Float { x[((i % n) + n) % n] }
                    func median(_ v: [Float]) -> Float {
                        var v = v
                        return OrderStatistic.select(&v, v.count / 2)
                    }
                    let before = median((1...half).map { abs(at(-$0) - at(-$0 - stride)) })
                    let after = median((1...half).map { abs(at($0) - at($0 - stride)) })
                    guard after >= onsetRise * max(before, quietStep) else { return 0 }
                    return ((clickFrames + 1)...half).reduce(0) { largest, i in
                        max(largest, abs(at(i) - at(i - stride)))
                    }
                }
                for (j, k) in junctions.enumerated() {
                    // The pattern's places: their jumps against the seam's movement.
                    if j >= firstPlace {
                        let jump = step(k)
                        let r = Double(abs(jump)) / Double(seamLocal)
                        ratios[j] = max(ratios[j], r)
                        continue
                    }
                    // Only steps that move count: digital silence beside the junction (a gap at the seam) has no
                    // movement to judge a step against; the gap itself is the dip metric's.
                    var m = 0
                    let wraps = k - half - stride < 0 || k + half + stride > n
                    if !wraps && stride == 1 {
                        m = scratch.withUnsafeMutableBufferPointer { v in
                            movingSteps(around: x.baseAddress! + k, half: half, into: v.baseAddress!)
                        }
                    } else {
                        for d in 1...half {
                            let before = abs(wraps ? step(k - d) : inside(k - d))
                            let after = abs(wraps ? step(k + d) : inside(k + d))
                            if before > 0 {
                                scratch[m] = before
                                m += 1
                            }
                            if after > 0 {
                                scratch[m] = after
                                m += 1
                            }
                        }
                    }
                    // Movement under ``quietStep`` is read at it: a step is judged against no less than one too small
                    // to hear (and silence on both sides does not divide by zero).
                    let median =
                        m > 0
                        ? scratch.withUnsafeMutableBufferPointer { v in
                            spare.withUnsafeMutableBufferPointer { t in
                                OrderStatistic.select(v.baseAddress!, count: m, m / 2, scratch: t.baseAddress!)
                            }
                        } : 0
                    let local = max(median, quietStep)
                    if j == 0 { seamLocal = local }
                    let jump = step(k)
                    let r = Double(abs(jump)) / Double(local)
                    if j == 0 { seam[c] = (r, jump, onsetStep(x)) }
                    ratios[j] = max(ratios[j], r)
                }
            }
        }
        let (own, place) = ownReference(
            percentile(Array(ratios[1...inner.count]), 0.99), atPattern: Array(ratios[(inner.count + 1)...]), pattern)
        // Each channel's seam against the larger of the loop's own step (`own` times the seam's movement) and the
        // largest step of a sound that starts there: the worst channel.
        var worst = (value: -1.0, channel: 0, sound: nil as Double?)
        for (c, s) in seam.enumerated() {
            let ownValue = s.ratio / max(own, 1e-9)
            let soundValue = s.largest > 0 ? Double(abs(s.jump)) / Double(s.largest) : .infinity
            let value = min(ownValue, soundValue)
            if value > worst.value { worst = (value, c, soundValue < ownValue ? Double(s.largest) : nil) }
        }
        let channel = view.channelCount > 1 ? worst.channel : nil
        let jump = Double(seam[worst.channel].jump)
        return measured(
            .continuity, worst.value, .step(jump: jump, channel: channel, sound: worst.sound),
            pattern: worst.sound == nil ? place : nil)
    }

    /// The steps |x[i] − x[i − 1]| that move (are not 0) at the `half` junctions before the one at `center` and the
    /// `half` after it, written to `out` (room for `2 · half`); returns how many. The order differs from the
    /// continuity metric's walk outwards from the junction, which does not matter to the median taken of them (the
    /// same values, so the same order statistic); the steps are taken in one pass over the samples each side (which
    /// vectorises) and only a run that holds a step of 0 (digital silence) is compacted.
    static func movingSteps(around center: UnsafePointer<Float>, half: Int, into out: UnsafeMutablePointer<Float>)
        -> Int
    {
        var zeros = 0
        let before = center - half
        for t in 0..<half {
            let v = abs(before[t] - before[t - 1])
            out[t] = v
            zeros &+= v == 0 ? 1 : 0
        }
        for t in 0..<half {
            let v = abs(center[t + 1] - center[t])
            out[half + t] = v
            zeros &+= v == 0 ? 1 : 0
        }
        guard zeros > 0 else { return 2 * half }
        var m = 0
        for t in 0..<(2 * half) where out[t] != 0 {
            out[m] = out[t]
            m += 1
        }
        return m
    }

    /// Metric 4: high-band transient energy at the seam vs the file's own.
    ///
    /// The high band is the second difference x[i+1] − 2x[i] + x[i−1] (gain rising 12 dB per octave, +12 dB at
    /// Nyquist, −35 dB at 1 kHz for 48 kHz audio). Its energy in a window of about 1.5 ms (four quarter windows:
    /// 72 frames at 48 kHz, 64 at 44.1 kHz), the loudest of those that lie within the 5 ms guard either side of the
    /// seam (a quarter window apart), is compared with the energy of such windows elsewhere (every quarter window).
    /// Value: the ratio in dB. Within 5 ms the seam's artefacts lie: a gap of 3-4 ms straddling it has its edges
    /// there, 1.5-2 ms either side, while the window centred on the seam holds only the gap's dither (a pad's 3 ms
    /// dithered gap read −49 dB and passed half the time).
    ///
    /// The reference is the energy that one window in a thousand reaches (p99.9 over every window), not the
    /// loudest: material with its own high-frequency transients (crackle, static) hides a click among them, while
    /// a single transient inside the loop excuses nothing. Windows are counted in thousands (a quarter window is
    /// 0.4 ms), so the p99.9 is an observed value, not an extrapolation. A phase jump at
    /// a zero crossing of a tone (a kink without a step) scores P² / 355 in energy for a period of P frames:
    /// +16 dB at 120 frames.
    static func click(_ view: LoopView, pattern: Pattern?) -> Measure {
        let n = view.count
        let hop = max(2, view.frames(0.0015) / 4)
        let w = 4 * hop
        // Above 72 kHz the second difference spans `stride` samples (x[i+s] − 2x[i] + x[i−s]): the high band of a
        // 48 kHz file, peaking at 24 kHz, so energy above hearing does not count.
        let stride = analysisStride(view.sampleRate)
        let guardFrames = max(2, view.frames(seamGuardSeconds)) + w + stride - 1
        guard n >= 2 * guardFrames + 4 * w else {
            return skipped(.click, .tooShort(frames: n))
        }
        // The seam's windows: every one that lies within the 5 ms guard either side of it, a quarter window apart
        // (the edges of a gap of a few ms, a splice's artefact beside the seam), each channel's energy summed per
        // window; the seam reads the largest. So do the pattern's places.
        let reach = max(0, view.frames(seamGuardSeconds) - w / 2)
        let offsets = Array(Swift.stride(from: -(reach / hop) * hop, through: reach, by: hop))
        var seamNear = [Double](repeating: 0, count: offsets.count)
        let places = pattern?.junctions ?? []
        var placesNear = [[Double]](repeating: [Double](repeating: 0, count: offsets.count), count: places.count)
        var sums: [Double] = []
        // Windows start at guardFrames + j·hop and hold d[start + 1 ... start + w] while start + w < n − guardFrames.
        let windows = (n - 2 * guardFrames - w - 1) / hop + 1
        for c in 0..<view.channelCount {
            // Second differences of the wrapped signal around the seam.
            let (e, blocks) = view.withChannel(c) { x in
                // The high-band energy of the window centred on junction j (the seam's wraps).
                func centred(_ j: Int) -> Double {
                    var e = 0.0
                    for k in (j - w / 2)..<(j + w - w / 2) {
                        let i = (k % n + n) % n
                        let d = x[(i + stride) % n] - 2 * x[i] + x[(i - stride + n) % n]
                        e += Double(d * d)
                    }
                    return e
                }
                for (p, j) in places.enumerated() {
                    for (o, offset) in offsets.enumerated() { placesNear[p][o] += centred(j + offset) }
                }
                let e = offsets.map { centred($0) }
                guard stride > 1 else {
                    return (e, SampleKernels.curvatureEnergy(x, start: guardFrames + 1, block: hop, count: windows + 3))
                }
                let start = guardFrames + 1
                let blocks = (0..<(windows + 3)).map { b in
                    var sum = 0.0
                    for i in (start + b * hop)..<(start + (b + 1) * hop) {
                        let d = x[i + stride] - 2 * x[i] + x[i - stride]
                        sum += Double(d * d)
                    }
                    return sum
                }
                return (e, blocks)
            }
            for o in offsets.indices { seamNear[o] += e[o] }
            if sums.isEmpty { sums = [Double](repeating: 0, count: windows) }
            for j in 0..<windows { sums[j] += blocks[j] + blocks[j + 1] + blocks[j + 2] + blocks[j + 3] }
        }
        let seamEnergy = seamNear.max() ?? 0
        let atPattern = placesNear.map { $0.max() ?? 0 }
        // The high-band energy one ordinary moment in a thousand reaches (see ``clickReferencePercentile``).
        let (reference, place) = ownReference(
            percentile(sums, clickReferencePercentile), atPattern: atPattern, pattern)
        // Floor at 1e-14 (about −140 dB): digital silence elsewhere still gives a finite, huge ratio for any click.
        let ratio = 10 * log10(max(seamEnergy, 1e-14) / max(reference, 1e-14))
        return measured(.click, ratio, .click, pattern: place)
    }

    /// Metric 5: the DC offset, the mean of each channel over the loop, in percent of full scale (worst channel).
    ///
    /// A constant offset does not break a seam (the wrap is as continuous as the rest; a DC *step* across the seam
    /// is a jump, metric 1): it costs headroom and clicks when playback starts or stops (the judgment side warns of
    /// it past ``SignalDefectScan/audibleDCOffset``, as every command). `loops bake` and `bells` remove it.
    static func dcOffset(_ view: LoopView) -> Measure {
        var worst = 0.0
        var worstChannel = 0
        var signedWorst = 0.0
        for c in 0..<view.channelCount {
            let mean = view.means[c]
            if abs(mean) * 100 > worst { (worst, worstChannel, signedWorst) = (abs(mean) * 100, c, mean) }
        }
        let channel = view.channelCount > 1 ? worstChannel : nil
        return measured(.dcOffset, worst, .offset(mean: signedWorst, channel: channel))
    }
}
