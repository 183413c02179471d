import AudioCore

/// Seven measures of how audible the seam of a loop is, each taken against the file's own statistics.
///
/// The seam is the wrap from the loop's last frame back to its first. Each metric compares what happens at the
/// seam with what happens everywhere else in the loop, so a crackling fire is measured against its own crackles and
/// a still drone against its own stillness. The definitions are documented in docs/loops.md; the limits, the
/// statuses and the sentences are the judgment side's (AssetPipeline's `SeamRules`), which reads the ``Measures``:
///
/// 1. ``Name/continuity``: the sample jump and slope change at the wrap, per channel, relative to the largest
///    step and slope change elsewhere in the loop.
/// 2. ``Name/spectral``: the change of the short-time spectrum across the seam (level removed), relative to the
///    largest such change between adjacent moments anywhere else.
/// 3. ``Name/level``: the energy of all channels (each one's DC removed) in the 100 ms … 1.6 s, an octave apart (and
///    the pattern's period) before vs after the seam (prefix sums of the loop's energy, ``CyclicEnergy``; no loudness
///    meter runs).
/// 4. ``Name/click``: second-difference (high-band) energy in the loudest 1.5 ms window within 5 ms of the seam vs
///    what one such window in a thousand elsewhere reaches.
/// 5. ``Name/dcOffset``: the mean of each channel over the loop.
/// 6. ``Name/rhythm``: for material with a pulse, how much of its self-similarity at the pulse period survives
///    across the seam.
/// 7. ``Name/dip``: the deepest 20 ms dip in level at the seam (a fade or a gap at the loop's ends) against the
///    deepest elsewhere.
///
///     let measures = SeamMetrics.measure(buffer, loop: 0..<buffer.frameCount)
///     print(measures.taken.map(\.value))
///
/// - Thread safety: pure functions; call from any thread.
/// - Real-time safe: no (allocates and runs FFTs).
public enum SeamMetrics {
    /// Peak level below which a loop counts as silent: −90 dBFS.
    public static let silencePeak: Float = 3.162e-5

    /// Measures the seam of `loop` (frames of `buffer`, end exclusive).
    ///
    /// The pulse (its period is always found) and the cheap metrics come first (continuity, click, DC offset,
    /// rhythm, dip: a few ms per 30 s); the spectral and level metrics (the FFTs and the energy windows) only when
    /// `goOn` says so of the cheap ones. `loops find` asks of a file's own loop whether it passes before it
    /// searches, and a seam that a cheap metric already faults needs no more.
    ///
    /// - Parameters:
    ///   - buffer: the decoded file.
    ///   - loop: the loop region; must lie within the buffer and hold at least 2 frames.
    ///   - goOn: whether to measure the spectral and level metrics, given the cheap ones; by default always.
    /// - Returns: the measures in the order taken: continuity, spectral, level (once per window scale), click,
    ///   DC offset, rhythm, dip; when `goOn` declines, the cheap ones alone. A silent loop: every metric
    ///   unmeasured (``Unmeasured/silentLoop``), in ``Name`` order.
    /// - Complexity: O(n log n) in the loop length (FFTs for the spectrum and the pulse search).
    public static func measure(
        _ buffer: AudioBuffer, loop: Range<Int>, goOn: ([Measure]) -> Bool = { _ in true }
    ) -> Measures {
        var texture: TextureSpectra?
        return measure(LoopView(checking: buffer, loop: loop), goOn: goOn, texture: &texture)
    }

    /// The continuity metric of `loop` alone: ``measure(_:loop:goOn:)``'s first measure, the same value (read
    /// against the pulse's pattern, found first as there); unmeasured for a silent loop. A junction turned into a seam
    /// (`loops verify`'s stray frames at a whole file's ends) asks no more of it, and the other metrics (the dip's
    /// spans, the spectra) cost many times as much.
    ///
    /// - Complexity: O(n log n) in the loop length (the pulse search's FFTs).
    public static func continuity(_ buffer: AudioBuffer, loop: Range<Int>) -> Measure {
        let view = LoopView(checking: buffer, loop: loop)
        guard view.peak >= silencePeak else { return Measure(.continuity, .unmeasured(.silentLoop)) }
        return continuity(view, pattern: rhythm(view).pattern)
    }

    /// The measures of `view` (``measure(_:loop:goOn:)``); when `texture` is given, the spectral metric adds its
    /// frames to it.
    static func measure(_ view: LoopView, goOn: ([Measure]) -> Bool, texture: inout TextureSpectra?) -> Measures {
        if view.peak < silencePeak {
            return Measures(Name.allCases.map { Measure($0, .unmeasured(.silentLoop)) })
        }
        let (pulse, period, repeats, events, pattern) = rhythm(view)
        let energy = CyclicEnergy(view)
        let cheap = [
            continuity(view, pattern: pattern), click(view, pattern: pattern), dcOffset(view), pulse,
            dip(view, energy: energy, pattern: pattern),
        ]
        guard goOn(cheap) else {
            return Measures(cheap, pulsePeriod: period, repeatsAtPeriod: repeats, pulseOfEvents: events)
        }
        return Measures(
            [cheap[0], spectral(view, texture: &texture, pattern: pattern)]
                + level(view, energy: energy, pattern: pattern) + cheap[1...],
            pulsePeriod: period,
            repeatsAtPeriod: repeats, pulseOfEvents: events)
    }

    /// A measured metric: its value and the facts behind it.
    static func measured(_ name: Name, _ value: Double, _ evidence: Evidence, pattern: Double? = nil) -> Measure {
        Measure(name, .value(value, evidence), pattern: pattern)
    }

    /// A metric that could not be measured, and why.
    static func skipped(_ name: Name, _ cause: Unmeasured) -> Measure { Measure(name, .unmeasured(cause)) }
}

/// The loop region of a decoded file, read in place (channel by channel through ``withChannel(_:_:)``), and its
/// mono mix, with the seam between the last frame and the first.
struct LoopView {
    let buffer: AudioBuffer
    let loop: Range<Int>
    let mono: [Float]
    let sampleRate: Int
    let peak: Float
    /// The mean of each channel over the loop (its DC offset).
    let means: [Double]

    var count: Int { loop.count }
    var channelCount: Int { buffer.channels }

    /// The view of `loop`, which must lie within `buffer` and hold at least 2 frames.
    init(checking buffer: AudioBuffer, loop: Range<Int>) {
        precondition(loop.lowerBound >= 0 && loop.upperBound <= buffer.frameCount, "loop region outside the buffer")
        precondition(loop.count >= 2, "a loop needs at least 2 frames")
        self.init(buffer: buffer, loop: loop)
    }

    init(buffer: AudioBuffer, loop: Range<Int>) {
        let n = loop.count
        let channels = buffer.channels
        let scale = 1 / Float(channels)
        var peak: Float = 0
        var means = [Double](repeating: 0, count: channels)
        // The mono mix sums the channels in order, then scales (the same arithmetic, one pass over the loop).
        let mono = buffer.samples.withUnsafeBufferPointer { s in
            let base = s.baseAddress!
            for c in 0..<channels {
                let channel = UnsafeBufferPointer(start: base + c * buffer.frameCount + loop.lowerBound, count: n)
                let (sum, channelPeak) = SampleKernels.sumAndPeak(channel)
                peak = max(peak, channelPeak)
                means[c] = sum / Double(max(n, 1))
            }
            // The mix without its DC: a constant offset is neither spectrum nor pulse.
            let dc = Float(means.reduce(0, +) / Double(channels))
            return [Float](unsafeUninitializedCapacity: n) { m, initialized in
                // The channels summed in order, scaled, then the DC taken off: each sample's arithmetic as three
                // passes did it (mix, scale, subtract), in one.
                let first = base + loop.lowerBound
                if channels == 1 {
                    if dc != 0 {
                        for i in 0..<n { m[i] = first[i] - dc }
                    } else {
                        m.baseAddress!.initialize(from: first, count: n)
                    }
                } else if channels == 2 {
                    let second = first + buffer.frameCount
                    if dc != 0 {
                        for i in 0..<n { m[i] = (first[i] + second[i]) * scale - dc }
                    } else {
                        for i in 0..<n { m[i] = (first[i] + second[i]) * scale }
                    }
                } else {
                    for i in 0..<n {
                        var v = first[i]
                        for c in 1..<channels { v += first[c * buffer.frameCount + i] }
                        m[i] = dc != 0 ? v * scale - dc : v * scale
                    }
                }
                initialized = n
            }
        }
        self.means = means
        self.buffer = buffer
        self.loop = loop
        self.mono = mono
        self.sampleRate = buffer.sampleRate.hertz
        self.peak = peak
    }

    /// Calls `body` with channel `c` of the loop region (`count` samples, index 0 = the loop's first frame).
    func withChannel<R>(_ c: Int, _ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try buffer.withChannel(c) { all in try body(UnsafeBufferPointer(rebasing: all[loop])) }
    }

    /// `seconds` as a whole number of frames at this rate (at least 1).
    func frames(_ seconds: Double) -> Int { max(1, Int((seconds * Double(sampleRate)).rounded())) }

    /// Seconds for display.
    func seconds(_ frames: Int) -> Double { Double(frames) / Double(sampleRate) }
}
