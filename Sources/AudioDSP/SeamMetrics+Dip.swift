import Foundation

extension SeamMetrics {
    /// The window lengths of the dip: 5 ms and 20 ms. Gaps in broadband sound are heard from about 2–3 ms (the
    /// gap-detection threshold), so a collapse that fills a 5 ms window is a gap anyone hears; a shorter dip that
    /// is not digital silence (a designer's 2 ms fade-in) is below it.
    static let dipScales = [0.005, 0.02]

    /// The deepest a dip reads: 60 dB, silence (digital silence reads it too).
    static let deepestDip = 60.0

    /// The span a dip is measured against: 400 ms centred on the junction (half of a loop shorter than 0.8 s).
    static let dipContext = 0.4

    /// The spans a fade at the loop's ends is read over (``fadeAtEnds(_:energy:around:)``): 100 and 400 ms (half of a
    /// loop shorter than twice the span).
    static let fadeSpans = [0.1, 0.4]

    /// How far under the loop's median level the span around the seam must sit to be read as a fade: 10 dB, about
    /// half as loud (Stevens' sone scale). A fade takes the sound away; a swell's trough that is heard as the sound
    /// growing softer, not going (a designer's string loop whose seam falls 6 dB down in its bowing's swell), is not
    /// one.
    static let fadeDepth = 10.0

    /// The shortest run of digital silence at the seam that counts as a gap (the deepest dip, 60 dB): 1 ms.
    static let gapSeconds = 0.001

    /// Metric 7: a dip in level at the seam: a fade-out into the loop's end, a fade-in from its start, a gap of
    /// digital silence or a level collapse.
    ///
    /// The energy of all channels in windows of 5 and 20 ms (every half window; each window about its own mean:
    /// ``ownEnergy(_:energy:from:count:)``), each against the
    /// mean energy of the 400 ms centred on the junction (half of a loop shorter than 0.8 s, from 0.1 s:
    /// ``shortestLevelLoop``): a junction's dip is how many dB the deepest window reaching
    /// within 10 ms of it sits below that mean (at most 60 dB; digital silence counts as 60). The seam's dip is
    /// compared with the 99th percentile of the dips at the junctions whose windows do not reach the seam (their
    /// 400 ms may): ``interiorJunctions`` spread evenly over the part whose 400 ms do not, and more at the same spacing
    /// beside the seam (``extending(_:from:through:)``). Value: the seam's dip minus that percentile, in dB, at the
    /// scale where it stands out most. A dip is a collapse shorter than the windows' reach (a fade or a gap at the
    /// loop's ends); a level as low beside it, where the seam's windows do not reach, is the material's own slow
    /// swell (a designer's loop of one tremolo cycle whose trough falls at the seam). A steady bed dips by a dB or
    /// two anywhere; a 50 ms fade-in from silence dips by 10 dB or more; sparse material (drips with silence between
    /// them) dips everywhere and no seam stands out.
    ///
    /// Digital silence is named as such: a run of exact zeros on every channel of 1 ms or more touching the seam
    /// measures 60 dB, with its length as evidence, when the loop holds no run of zeros as long elsewhere,
    /// whatever the loop's length. Exact zeros in material that is never silent are no part of a recording: they
    /// are an edit (padding, a dropped buffer), and they step into and out of silence. A loop digitally silent
    /// elsewhere for 5 ms or more (a call with pauses between its events) has silences of its own: then the dip
    /// judges the seam's silence against the loop's own dips.
    static func dip(_ view: LoopView, energy: CyclicEnergy, pattern: Pattern?) -> Measure {
        let n = view.count
        let (seamZeros, insideZeros) = zeroRuns(view)
        let gap = view.frames(gapSeconds)
        // A loop that falls digitally silent elsewhere for a dip window or more (5 ms, past the gap-detection
        // threshold) has pauses of its own: silence at its seam is one more, judged by its dips like any moment.
        let pauses = insideZeros >= view.frames(dipScales[0])
        if seamZeros >= gap && seamZeros > insideZeros && !pauses {
            return measured(
                .dip, deepestDip, .gap(silence: view.seconds(seamZeros), elsewhere: view.seconds(insideZeros)))
        }
        // The level a dip is measured against: the 400 ms centred on the junction, or half of a loop shorter than
        // 0.8 s (so that ordinary junctions whose span does not reach the seam exist), from ``shortestLevelLoop``.
        let around = min(view.frames(dipContext / 2), n / 4)
        let reach = view.frames(0.01)
        guard n >= view.frames(shortestLevelLoop) else {
            return skipped(.dip, .tooShortForDips(seconds: view.seconds(n)))
        }
        let inner = evenly(interiorJunctions, over: (around + reach)...(n - around - reach))
        var best: (value: Double, seam: Double, own: Double, scale: Int, pattern: Double?)?
        for w in dipScales.map({ view.frames($0) }) {
            // Ordinary junctions: every one whose windows do not reach the seam (the level around it may: a gap or a
            // fade at the seam only lowers that level, and so the junction's dip).
            let junctions = extending(inner, from: reach + w, through: n - reach - w)
            let hop = max(1, w / 2)
            var scratch: [Double] = []
            func depth(_ j: Int) -> Double? {
                let level = energy.mean(j - around, j + around)
                guard level > 0 else { return nil }
                var deepest = 0.0
                let first = j - reach - w
                let windows = (2 * reach + w) / hop + 1
                // Windows that stay inside the loop are summed side by side (``ownEnergies``); those that wrap at
                // its ends (the seam's) one by one.
                if first >= 0 && first + (windows - 1) * hop + w <= n {
                    ownEnergies(view, energy: energy, from: first, hop: hop, windows: windows, count: w, into: &scratch)
                    for e in scratch.prefix(windows) {
                        deepest = max(deepest, e > 0 ? min(deepestDip, 10 * log10(level / e)) : deepestDip)
                    }
                    return deepest
                }
                var a = first
                while a <= j + reach {
                    let e = ownEnergy(view, energy: energy, from: a, count: w)
                    deepest = max(deepest, e > 0 ? min(deepestDip, 10 * log10(level / e)) : deepestDip)
                    a += hop
                }
                return deepest
            }
            guard let seam = depth(0) else { continue }
            let (own, place) = ownReference(
                percentile(outsideCollapse(junctions.map(depth), seam: seam), 0.99),
                atPattern: (pattern?.junctions ?? []).compactMap(depth), pattern)
            if best == nil || seam - own > best!.value { best = (seam - own, seam, own, w, place) }
        }
        guard let best else { return skipped(.dip, .silentAtSeam) }
        let fades = fadeSpans.compactMap { span -> (value: Double, seam: Double, own: Double, span: Int)? in
            let half = min(view.frames(span / 2), n / 4)
            return fadeAtEnds(view, energy: energy, around: half).map { ($0.value, $0.seam, $0.own, 2 * half) }
        }
        // A fade lowers the sound around the seam at both spans; gaps that show at one only are the material's
        // sparseness (drips 0.3 s apart, each 400 ms holding one).
        if fades.allSatisfy({ $0.seam >= fadeDepth }), let fade = fades.min(by: { $0.value < $1.value }),
            fade.value > best.value
        {
            return measured(
                .dip, fade.value, .fade(depth: fade.seam, reference: fade.own, window: view.seconds(fade.span)))
        }
        return measured(
            .dip, best.value, .dip(depth: best.seam, reference: best.own, window: view.seconds(best.scale)),
            pattern: best.pattern)
    }

    /// How close to the seam's dip a junction beside it must dip to be part of the seam's own collapse: 3 dB (half
    /// the power).
    static let collapseMargin = 3.0

    /// The dips `depths` of the ordinary junctions (ascending positions, nil where too quiet to read) without those
    /// in the seam's own silence: when the seam's dip reads silence (within ``collapseMargin`` of ``deepestDip``),
    /// the junctions next to it on each side, outward from it, that dip within ``collapseMargin`` of it, up to the
    /// first that does not.
    ///
    /// A silence longer than the windows' reach is its own reference otherwise: the junctions inside it, whose
    /// windows do not reach the seam, dip as deeply. An MP3 that pygame ships as a loop (`house_lo.mp3`) decodes with
    /// 152 ms of its encoder's near-silence around the seam (under −60 dBFS, not digital zeros), 2 % of the ordinary
    /// junctions: their 99th percentile read 60 dB, as the seam, and the gap passed. The loop's own pauses elsewhere
    /// (a sparse material's silences) stay in the reference, so a seam in one of them is still one more. Only
    /// silence: a shallower dip's neighbours dipping as deeply are the material's own fluctuation (brown noise, a
    /// machine's hum), and leaving them out failed seamless loops of it.
    static func outsideCollapse(_ depths: [Double?], seam: Double) -> [Double] {
        guard seam >= deepestDip - collapseMargin else { return depths.compactMap { $0 } }
        func inCollapse(_ d: Double?) -> Bool { d.map { $0 >= seam - collapseMargin } ?? false }
        var low = 0
        while low < depths.count && inCollapse(depths[low]) { low += 1 }
        var high = depths.count
        while high > low && inCollapse(depths[high - 1]) { high -= 1 }
        return depths[low..<high].compactMap { $0 }
    }

    /// The dip at the scale of a reference span (`2 · around` frames centred on the seam): a fade at the loop's ends.
    ///
    /// A fade-out into the loop's end and a fade-in from its start lower the whole span around the seam, and the
    /// junctions beside it (their windows inside the fade, the fade going on past them) dip as deeply as the seam
    /// against their own spans: at the 5 and 20 ms scales such a fade is its own reference, and a 30 s bed faded
    /// 0.3–2 s to silence at each end passed. Here the spans centred every half span (`around`) through the loop
    /// are read. The seam's fade is the run of spans on each side of it, outward from it, each louder than the one
    /// before by more than the material's own change from span to span (the median change between neighbouring
    /// spans over the whole loop; silence at its bottom included): a ramp toward the seam. The loop's own spans are
    /// those that overlap none of the ramp's, centred every tenth of a half span (so that the quietest moment of a
    /// sparse material is read centred, as the seam's is); each is read in dB under their median (at most 60;
    /// silence 60). The value is how far the span around the seam sits under the deepest of the loop's own: a fade
    /// that takes the sound away at every wrap, where the material itself never goes so low for as long (a pause of
    /// its own as long, a cow's between two moos, is one more; a short dropout lowers a span too little to excuse
    /// one). ``dip(_:energy:)`` counts it only where the seam's span sits ``fadeDepth`` under the median at every
    /// span of ``fadeSpans``. A swell whose trough falls at the seam (a loop of one tremolo cycle) rises from it to
    /// its crest, so its ramp leaves no own span to compare with. Nil when the loop holds fewer than four spans or
    /// no own span, or its own spans are silent.
    static func fadeAtEnds(
        _ view: LoopView, energy: CyclicEnergy, around: Int
    ) -> (value: Double, seam: Double, own: Double)? {
        let n = view.count
        guard around > 0 else { return nil }
        let count = n / around
        guard count >= 4 else { return nil }
        // Each span about its own mean (``ownEnergy(_:energy:from:count:)``): a fade to zero in a loop with an offset
        // is silence, not the offset's level.
        // The first span wraps across the seam; the others lie inside the loop and are summed side by side
        // (``ownEnergies(_:energy:from:hop:windows:count:into:)``, the same values to the bit).
        var spans = [ownEnergy(view, energy: energy, from: -around, count: 2 * around)]
        var inside: [Double] = []
        ownEnergies(view, energy: energy, from: 0, hop: around, windows: count - 1, count: 2 * around, into: &inside)
        spans += inside.prefix(count - 1)
        // Levels floored 60 dB under the loudest span (the depth's own limit): a fade's silent bottom is one level.
        let loudest = 10 * log10(max(spans.max()!, 1e-30))
        let levels = spans.map { max(10 * log10(max($0, 1e-30)), loudest - deepestDip) }
        let change = percentile((0..<count).map { abs(levels[($0 + 1) % count] - levels[$0]) }, 0.5)
        // The ramp toward the seam on each side, silence at its bottom included: its last span after the seam, and
        // its first before it.
        func rises(_ from: Int, _ to: Int) -> Bool {
            levels[to] > levels[from] + change || levels[to] <= loudest - deepestDip
        }
        var after = 0
        while after + 1 < count && rises(after, after + 1) { after += 1 }
        var before = count
        while before - 1 > after && rises(before % count, before - 1) { before -= 1 }
        // The loop's own spans overlap none of the ramp's: centred from `first` to `last`, read every tenth of a
        // half span (blocks of `block` frames), so that the quietest moment of a sparse material (a gap between
        // drips) is read centred as the seam's is.
        let block = max(1, around / 10)
        let half = 10 * block
        let (first, last) = ((after + 2) * around, (before - 2) * around)
        guard first <= last else { return nil }
        let blocks = n / block
        let sums = blockPrefixSums(view, block: block, blocks: blocks)
        func span(centredOn m: Int) -> Double {
            var offsets = 0.0
            for c in sums.indices {
                let d = (sums[c][m + 10] - sums[c][m - 10]) / Double(2 * half) - view.means[c]
                offsets += d * d
            }
            return max(0, energy.mean((m - 10) * block, (m + 10) * block) - offsets)
        }
        let (low, high) = (max(10, (first + block - 1) / block), min(blocks - 10, last / block))
        guard low <= high else { return nil }
        let own = (low...high).map { span(centredOn: $0) }
        let typical = percentile(own, 0.5)
        guard typical > 0 else { return nil }
        func under(_ e: Double) -> Double { e > 0 ? min(deepestDip, 10 * log10(typical / e)) : deepestDip }
        let seam = under(spans[0])
        let reference = own.map(under).max()!
        return (seam - reference, seam, reference)
    }

    /// Each channel's running sum of its samples over `blocks` blocks of `block` frames from the loop's start:
    /// element `k` is the sum of the first `k` blocks, each block added in `Double` in order from its start (0 + x[0]
    /// + x[1] + …) and then to the sum before it. The blocks are independent chains of additions, summed eight side by
    /// side (``chainSums(_:chains:count:into:)``, the same values to the bit as one by one).
    static func blockPrefixSums(_ view: LoopView, block: Int, blocks: Int) -> [[Double]] {
        precondition(block > 0 && blocks >= 0 && blocks * block <= view.count, "blocks outside the loop")
        let stride = view.buffer.frameCount
        return view.buffer.samples.withUnsafeBufferPointer { samples in
            (0..<view.channelCount).map { c in
                let base = samples.baseAddress! + view.loop.lowerBound + c * stride
                var prefix = [Double](repeating: 0, count: blocks + 1)
                withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: max(1, blocks)) { starts in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: max(1, blocks)) { s in
                        for k in 0..<blocks { starts[k] = base + k * block }
                        chainSums(starts.baseAddress!, chains: blocks, count: block, into: s.baseAddress!)
                        for k in 0..<blocks { prefix[k + 1] = prefix[k] + s[k] }
                    }
                }
                return prefix
            }
        }
    }

    /// `inner` (ascending, evenly spaced) and the junctions at the same spacing beyond its ends, down to `first` and
    /// up to `last`: the dip's reference reaches the junctions beside the seam at the density it has elsewhere, and
    /// keeps every junction it had when those whose 400 ms reached the seam were left out.
    static func extending(_ inner: [Int], from first: Int, through last: Int) -> [Int] {
        guard let low = inner.first, let high = inner.last else { return inner }
        let spacing = inner.count > 1 ? max(1, Double(high - low) / Double(inner.count - 1)) : 1
        var before: [Int] = []
        var j = Int((Double(low) - spacing).rounded())
        while j >= first {
            before.append(j)
            j = Int((Double(low) - Double(before.count + 1) * spacing).rounded())
        }
        var after: [Int] = []
        j = Int((Double(high) + spacing).rounded())
        while j <= last {
            after.append(j)
            j = Int((Double(high) + Double(after.count + 1) * spacing).rounded())
        }
        return before.reversed() + inner + after
    }

    /// The mean energy per frame of all channels over the `count` frames from `a` (cyclic) about each channel's
    /// mean over those frames: what a loudspeaker plays of them. A stretch held at a constant value is silence to
    /// the ear whatever the constant (a fade to zero inside a file with a DC offset is as silent as one without).
    static func ownEnergy(_ view: LoopView, energy: CyclicEnergy, from a: Int, count w: Int) -> Double {
        let n = view.count
        var offsets = 0.0
        for c in 0..<view.channelCount {
            let sum = view.withChannel(c) { x -> Double in
                // In order from `a`, wrapping at the loop's end: at most two runs without an index test per sample.
                var s = 0.0
                var i = ((a % n) + n) % n
                var left = w
                while left > 0 {
                    let run = min(left, n - i)
                    for v in UnsafeBufferPointer(rebasing: x[i..<(i + run)]) { s += Double(v) }
                    left -= run
                    i = 0
                }
                return s
            }
            // The window's mean against the loop's: the offset `energy` (about the loop's mean) still holds.
            let d = sum / Double(w) - view.means[c]
            offsets += d * d
        }
        return max(0, energy.mean(a, a + w) - offsets)
    }

    /// ``ownEnergy(_:energy:from:count:)`` of `windows` windows of `w` frames, the first from `first` and each
    /// `hop` after the one before, all inside the loop (no wrap), written to `out[0 ..< windows]`.
    ///
    /// Each window's sum on each channel runs in frame order from its start, as ``ownEnergy(_:energy:from:count:)``
    /// adds it, and the channels' squared offsets are added in channel order (the same value to the bit). The sums
    /// of every window on every channel (22 of them for a stereo loop's 5 ms windows, 10 for its 20 ms ones) are
    /// independent chains of additions: ``chainSums(_:chains:count:into:)`` runs eight side by side, so no addition
    /// waits on the one before it (with four windows of one channel at a time, the dip's sums were a twentieth of
    /// `loops verify`, most of it waiting).
    static func ownEnergies(
        _ view: LoopView, energy: CyclicEnergy, from first: Int, hop: Int, windows: Int, count w: Int,
        into out: inout [Double]
    ) {
        precondition(first >= 0 && first + (windows - 1) * hop + w <= view.count, "windows outside the loop")
        if out.count < windows { out = [Double](repeating: 0, count: windows) }
        let channels = view.channelCount
        let chains = channels * windows
        let stride = view.buffer.frameCount
        view.buffer.samples.withUnsafeBufferPointer { samples in
            let base = samples.baseAddress! + view.loop.lowerBound + first
            withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: chains) { starts in
                withUnsafeTemporaryAllocation(of: Double.self, capacity: chains) { sums in
                    // Chain c · windows + i: window i on channel c.
                    for c in 0..<channels {
                        for i in 0..<windows { starts[c * windows + i] = base + c * stride + i * hop }
                    }
                    chainSums(starts.baseAddress!, chains: chains, count: w, into: sums.baseAddress!)
                    out.withUnsafeMutableBufferPointer { o in
                        for i in 0..<windows {
                            var offsets = 0.0
                            for c in 0..<channels {
                                let d = sums[c * windows + i] / Double(w) - view.means[c]
                                offsets += d * d
                            }
                            let a = first + i * hop
                            o[i] = max(0, energy.mean(a, a + w) - offsets)
                        }
                    }
                }
            }
        }
    }

    /// The sum of the `w` samples from each of `chains` starting points, each added in `Double` in order from its
    /// start (0 + x[0] + x[1] + …), written to `sums[0 ..< chains]`; eight chains side by side in the lanes of one
    /// vector, then four, two or one for the rest (a spare lane repeats its group's last chain and is not stored).
    static func chainSums(
        _ starts: UnsafePointer<UnsafePointer<Float>>, chains: Int, count w: Int,
        into sums: UnsafeMutablePointer<Double>
    ) {
        var c = 0
        while c < chains {
            let k = min(8, chains - c)
            func start(_ lane: Int) -> UnsafePointer<Float> { starts[c + min(lane, k - 1)] }
            if k > 4 {
                let (p0, p1, p2, p3) = (start(0), start(1), start(2), start(3))
                let (p4, p5, p6, p7) = (start(4), start(5), start(6), start(7))
                var acc = SIMD8<Double>(repeating: 0)
                var t = 0
                // Four samples of each chain in one load, turned into four steps of eight lanes (each lane still
                // adds its chain's samples in order).
                while t + 4 <= w {
                    let (a0, a1, a2, a3) = (load4(p0 + t), load4(p1 + t), load4(p2 + t), load4(p3 + t))
                    let (a4, a5, a6, a7) = (load4(p4 + t), load4(p5 + t), load4(p6 + t), load4(p7 + t))
                    for s in 0..<4 {
                        acc += SIMD8<Double>(
                            Double(a0[s]), Double(a1[s]), Double(a2[s]), Double(a3[s]), Double(a4[s]), Double(a5[s]),
                            Double(a6[s]), Double(a7[s]))
                    }
                    t += 4
                }
                while t < w {
                    acc += SIMD8<Double>(
                        Double(p0[t]), Double(p1[t]), Double(p2[t]), Double(p3[t]), Double(p4[t]), Double(p5[t]),
                        Double(p6[t]), Double(p7[t]))
                    t += 1
                }
                for lane in 0..<k { sums[c + lane] = acc[lane] }
            } else if k > 2 {
                let (p0, p1, p2, p3) = (start(0), start(1), start(2), start(3))
                var acc = SIMD4<Double>(repeating: 0)
                for t in 0..<w { acc += SIMD4<Double>(Double(p0[t]), Double(p1[t]), Double(p2[t]), Double(p3[t])) }
                for lane in 0..<k { sums[c + lane] = acc[lane] }
            } else if k == 2 {
                let (p0, p1) = (start(0), start(1))
                var acc = SIMD2<Double>(repeating: 0)
                for t in 0..<w { acc += SIMD2<Double>(Double(p0[t]), Double(p1[t])) }
                (sums[c], sums[c + 1]) = (acc[0], acc[1])
            } else {
                let p0 = start(0)
                var acc = 0.0
                for t in 0..<w { acc += Double(p0[t]) }
                sums[c] = acc
            }
            c += k
        }
    }

    /// Four samples from `p`, unaligned.
    @inline(__always)
    private static func load4(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
    }

    /// The run of frames that are exactly zero on every channel touching the seam (cyclically: the loop's last
    /// frames and its first), and the longest such run elsewhere in the loop.
    static func zeroRuns(_ view: LoopView) -> (seam: Int, inside: Int) {
        let n = view.count
        // No zero frame at the seam: no gap, and nothing else to look for (the common case, read in two samples).
        let silentEnds = (0..<view.channelCount).allSatisfy { c in view.withChannel(c) { $0[0] == 0 || $0[n - 1] == 0 }
        }
        guard silentEnds else { return (0, 0) }
        var zero = [Bool](repeating: true, count: n)
        for c in 0..<view.channelCount {
            view.withChannel(c) { x in
                for i in 0..<n where x[i] != 0 { zero[i] = false }
            }
        }
        var head = 0
        while head < n && zero[head] { head += 1 }
        guard head < n else { return (n, 0) }
        var tail = 0
        while tail < n - head && zero[n - 1 - tail] { tail += 1 }
        var inside = 0
        var run = 0
        for i in head..<(n - tail) {
            run = zero[i] ? run + 1 : 0
            inside = max(inside, run)
        }
        return (head + tail, inside)
    }
}
