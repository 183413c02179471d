import AudioCore

/// Seven measures of how audible the seam of a loop is, each judged against the file's own statistics.
///
/// The seam is the wrap from the loop's last frame back to its first. Each metric compares what happens at the
/// seam with what happens everywhere else in the loop, so a crackling fire is judged against its own crackles and
/// a still drone against its own stillness. The definitions and thresholds are documented in docs/loops.md:
///
/// 1. ``Name/continuity``: the sample jump and slope change at the wrap, per channel, relative to the largest
///    step and slope change elsewhere in the loop.
/// 2. ``Name/spectral``: the change of the short-time spectrum across the seam (level removed), relative to the
///    largest such change between adjacent moments anywhere else.
/// 3. ``Name/level``: momentary loudness (EBU R 128, through libebur128) of the 400 ms before vs after the seam.
/// 4. ``Name/click``: second-difference (high-band) energy in a 1.5 ms window on the seam vs the loudest such
///    window elsewhere.
/// 5. ``Name/dcOffset``: the mean of each channel over the loop.
/// 6. ``Name/rhythm``: for material with a pulse, how much of its self-similarity at the pulse period survives
///    across the seam.
/// 7. ``Name/dip``: the deepest 20 ms dip in level at the seam (a fade or a gap at the loop's ends) against the
///    deepest elsewhere.
///
///     let report = SeamMetrics.analyze(buffer, loop: 0..<buffer.frameCount)
///     print(report.verdict, report.reasons)
///
/// - Thread safety: pure functions; call from any thread.
/// - Real-time safe: no (allocates and runs FFTs).
public enum SeamMetrics {
    /// Peak level below which a loop counts as silent: −90 dBFS.
    public static let silencePeak: Float = 3.162e-5

    /// Measures the seam of `loop` (frames of `buffer`, end exclusive) with all seven metrics.
    ///
    /// - Parameters:
    ///   - buffer: the decoded file.
    ///   - loop: the loop region; must lie within the buffer and hold at least 2 frames.
    /// - Returns: the metrics, worst first, and the verdict.
    /// - Complexity: O(n log n) in the loop length (FFTs for the spectrum and the pulse search).
    public static func analyze(_ buffer: AudioBuffer, loop: Range<Int>) -> Report {
        var texture: TextureSpectra?
        return analyze(LoopView(checking: buffer, loop: loop), passOrNot: false, texture: &texture)
    }

    /// Whether the seam of `loop` passes, measuring no more than it takes to tell: the pulse (its period is always
    /// found) and the cheap metrics first (continuity, click, DC offset, dip: a few ms per 30 s), the spectral and
    /// level metrics (the FFTs and libebur128) only when those pass. `loops find` asks this of the file's own loop
    /// before it searches: the answer and the pulse period are those of ``analyze(_:loop:)``.
    ///
    /// - Returns: the report; when a cheap seam metric already warns or fails, the spectral and level metrics are
    ///   not measured (and the verdict may read `warn` where the whole report would read `fail`: it is only "not
    ///   pass"). A DC offset (a flag, not a seam fault) does not stop the measuring.
    public static func passes(_ buffer: AudioBuffer, loop: Range<Int>) -> Report {
        var texture: TextureSpectra?
        return analyze(LoopView(checking: buffer, loop: loop), passOrNot: true, texture: &texture)
    }

    /// The report of `view`; when `texture` is given, the spectral metric adds its frames to it.
    static func analyze(_ view: LoopView, passOrNot: Bool, texture: inout TextureSpectra?) -> Report {
        if view.peak < silencePeak {
            let because = "the loop is silent (peak below −90 dBFS); there is nothing to hear at the seam"
            return Report(
                metrics: Name.allCases.map { name in
                    let t = thresholds(name)
                    return .notMeasured(
                        name, threshold: t.pass, failThreshold: t.fail, direction: t.direction, unit: t.unit,
                        because: because, by: .loop)
                })
        }
        let (pulse, period, repeats, events) = rhythm(view)
        let energy = CyclicEnergy(view)
        let cheap = [continuity(view), click(view), dcOffset(view), pulse, dip(view, energy: energy)]
        if passOrNot, cheap.contains(where: { $0.name != .dcOffset && ($0.status == .warn || $0.status == .fail) }) {
            let because = "not measured: the seam already does not pass"
            return Report(
                metrics: cheap + [skipped(.spectral, because, by: .material), skipped(.level, because, by: .material)],
                pulsePeriod: period,
                repeatsAtPeriod: repeats, pulseOfEvents: events)
        }
        return Report(
            metrics: [cheap[0], spectral(view, texture: &texture), level(view, energy: energy)] + cheap[1...],
            pulsePeriod: period,
            repeatsAtPeriod: repeats, pulseOfEvents: events)
    }

    /// The fixed thresholds of each metric (the level threshold may rise with the file's own fluctuation).
    public static func thresholds(_ name: Name) -> (pass: Double, fail: Double, direction: Direction, unit: String) {
        switch name {
        case .continuity: return (exponentialTail.warn, exponentialTail.fail, .higherIsWorse, "ratio")
        case .spectral: return (exponentialTail.warn, exponentialTail.fail, .higherIsWorse, "ratio")
        case .level: return (levelMinimumThreshold, levelMinimumFailThreshold, .higherIsWorse, "dB")
        case .click: return (6, 12, .higherIsWorse, "dB")
        // The one DC threshold of every command, in %. A constant offset never fails (see ``dcOffset(_:)``): its
        // failure limit is full scale.
        case .dcOffset: return (SignalDefectScan.audibleDCOffset * 100, 100, .higherIsWorse, "%")
        case .rhythm: return (0.8, 0.5, .lowerIsWorse, "fraction")
        case .dip: return (1.5, 3.0, .higherIsWorse, "dB")
        }
    }

    /// Builds a metric from its measured value with the fixed thresholds of `name`.
    static func measured(_ name: Name, _ value: Double, note: String) -> Metric {
        let t = thresholds(name)
        return Metric(
            name: name, value: value, threshold: t.pass, failThreshold: t.fail, direction: t.direction, unit: t.unit,
            note: note)
    }

    /// A metric of `name` that could not be measured, because of the loop unless said otherwise.
    static func skipped(_ name: Name, _ because: String, by cause: Unmeasured = .loop) -> Metric {
        let t = thresholds(name)
        return .notMeasured(
            name, threshold: t.pass, failThreshold: t.fail, direction: t.direction, unit: t.unit, because: because,
            by: cause)
    }
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
                peak = max(peak, PeakScan.absMax(channel))
                means[c] = SampleKernels.sum(channel) / Double(max(n, 1))
            }
            return [Float](unsafeUninitializedCapacity: n) { m, initialized in
                let first = base + loop.lowerBound
                if channels == 1 {
                    m.baseAddress!.initialize(from: first, count: n)
                } else if channels == 2 {
                    let second = first + buffer.frameCount
                    for i in 0..<n { m[i] = (first[i] + second[i]) * scale }
                } else {
                    for i in 0..<n {
                        var v = first[i]
                        for c in 1..<channels { v += first[c * buffer.frameCount + i] }
                        m[i] = v * scale
                    }
                }
                // The mix without its DC: a constant offset is neither spectrum nor pulse.
                let dc = Float(means.reduce(0, +) / Double(channels))
                if dc != 0 { for i in 0..<n { m[i] -= dc } }
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
