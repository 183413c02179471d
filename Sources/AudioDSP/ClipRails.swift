import AudioCore
import Foundation

/// The levels a clipper held a sound's tops to: full scale, or a level below it when the file was clipped and then
/// turned down (a gain after a clipping stage, a DAW export normalised after a clipped recording).
///
/// A sample lies on a rail when it is at or above ``positive`` or at or below −``negative``; a clipping run is 3 or
/// more consecutive samples on the rails (``SignalDefectScan/minimumRun``, of either sign, as at full scale). At full
/// scale (``fullScale``) nothing else is asked: no sound reaches the last 16-bit step for 3 samples unclipped
/// (``SignalDefectScan``). Below full scale the level is the file's own, so ``find(in:blocks:)`` asks what only a
/// clipper leaves there. For each polarity whose top (the highest sample, or the lowest one's magnitude) is below full
/// scale, a rail is that top when:
///
/// - **the waveform meets it in flat runs**: 3 or more consecutive samples within ``width(step:)`` of the top, which
///   is two steps of the file's own quantisation (sox's TPDF dither spreads a held level over ±1 step: a 16-bit file
///   clipped, turned down and dithered holds its rail on three adjacent values), and never less than two 16-bit steps
///   (a 16-bit file dithered and then stored at 24 bits or in floats keeps that spread);
/// - **with a corner beside them**: the sample before or after such a run lies more than ``cornerWidths`` widths
///   below the top. A smooth top that holds 3 samples within the width curves by at most one width per sample² (a
///   parabola through them), so the samples beside them lie within 4 widths of it, and rounding or dither moves each by
///   a step more; a clipper's plateau is met at the waveform's own slope, and ends in a corner. One such run is enough,
///   as one run at full scale is: no natural peak makes one. In the corpus's bells and notifications, every top below
///   full scale holds 1 to 3 samples within the width, none in a run of 3, but `lo-gong`'s clipped one (docs/bells.md);
/// - **and nothing in the file exceeds it** (it is the top).
///
/// - **and the waveform's tops under it are not mostly flat**: a clipper flattens the tops that reach its rail and
///   leaves those under it as the sound made them, curved. A waveform drawn flat-topped (a naive square or pulse, as
///   8-bit game sounds are, their tops stepping down with the envelope) is flat, with corners, at every level it plays
///   at (``flatTopsUnderTheTop(_:sign:top:width:)``), and so is a coarse file stored at a finer resolution (8-bit
///   levels written as 16-bit samples, k/127, read as 16-bit steps): their flatness is their shape or their
///   quantisation, not a clipper's;
/// - **and the samples off the rails are not mostly held**: a sampled sound moves between almost every two samples,
///   while naive voices summed (a chiptune whose steps are too small for its tops to read flat with a corner) hold
///   most of theirs in runs of equal values (``heldOffTheRails(_:highest:lowest:width:)``).
///
/// A designed square wave of one level is a rail by this rule (a naive square is what a clipper makes of a sine, and
/// its samples cannot tell the two apart); a band-limited square, the way synthesisers render one, ripples on its tops
/// by far more than the width, and is no rail. What is not found: a clipped tone so high that each clipped top holds
/// one or two samples (rail to rail, one sample apart): turned down, its tops look like a steady tone's peaks; at full
/// scale the rail itself says it. Coarse files (8 bits: a width of 2/128) need a step beside a run of 16 of their own
/// steps before they show a corner.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct ClipRails: Sendable, Codable, Equatable {
    /// The least sample value on the positive rail.
    public var positive: Float
    /// The magnitude of the greatest sample value on the negative rail: a sample at or below −`negative` is on it.
    public var negative: Float
    /// The level of each rail in dBFS, positive then negative: its top sample's for a rail below full scale, 0 for a
    /// polarity whose top reaches full scale, nil for one that holds no rail at all.
    public var levels: [Double?]

    /// The rails of every file: full scale, as ``SignalDefectScan/fullScale`` defines it, on both sides.
    public static let fullScale = ClipRails(
        positive: SignalDefectScan.fullScale, negative: SignalDefectScan.fullScale, levels: [0, 0])

    /// The smallest width of a flat run: two 16-bit steps (−84 dBFS).
    public static let minimumWidth: Float = 2 / 32768
    /// How many widths below a top the sample beside a flat run must lie to make a corner: a smooth top shows at most
    /// 4 (and a step of rounding or dither), so 8 leaves that bound doubled.
    public static let cornerWidths: Float = 8
    /// The coarsest quantisation a rail is looked for through: 8 bits (a step of 1/128).
    static let coarsestStep: Float = 1 / 128

    /// The threshold and the level of each rail.
    public init(positive: Float, negative: Float, levels: [Double?]) {
        self.positive = positive
        self.negative = negative
        self.levels = levels
    }

    /// Whether `x` lies on either rail.
    @inline(__always)
    public func holds(_ x: Float) -> Bool { x >= positive || x <= -negative }

    /// The width of a flat run in a file quantised in steps of `step`: two steps, and at least ``minimumWidth``.
    public static func width(step: Float) -> Float { max(2 * step, minimumWidth) }

    /// The rails of `buffer` below full scale, or nil when neither polarity has one (``ClipRails``'s definition);
    /// a polarity without one keeps full scale. `blocks` are the largest and smallest finite sample of each block of
    /// ``SignalDefectScan/block`` samples, per channel (from the scan's one pass).
    ///
    /// - Complexity: only the blocks holding a sample within two 8-bit steps of a top are read, sample by sample.
    static func find(in buffer: AudioBuffer, blocks: [[SignalDefectScan.BlockExtremes]]) -> ClipRails? {
        let highest = blocks.joined().map(\.highest).max() ?? -.infinity
        let lowest = blocks.joined().map(\.lowest).min() ?? .infinity
        var rails = ClipRails.fullScale
        var found = false
        // Whether the samples off the rails are mostly held is the file's, read once for each width asked.
        var held: [Float: Bool] = [:]
        func heldOff(width w: Float) -> Bool {
            if let known = held[w] { return known }
            let answer = heldOffTheRails(buffer, highest: highest, lowest: lowest, width: w)
            held[w] = answer
            return answer
        }
        for (side, sign) in [(0, Float(1)), (1, -1)] {
            let top = sign > 0 ? highest : -lowest
            guard top < SignalDefectScan.fullScale else { continue }
            rails.levels[side] = nil
            guard top > 0 else { continue }
            // Blocks holding a sample within the coarsest width of the top: every flat run lies in them, with the
            // samples beside it that say the file's quantisation.
            let near = top - width(step: coarsestStep)
            let ranges = blocks.map { channel in
                channel.indices.filter { (sign > 0 ? channel[$0].highest : -channel[$0].lowest) >= near }.map {
                    ($0 * SignalDefectScan.block)..<min(buffer.frameCount, ($0 + 1) * SignalDefectScan.block)
                }
            }
            guard let width = railWidth(buffer, sign: sign, top: top, near: ranges, heldOffTheRails: heldOff)
            else { continue }
            if sign > 0 { rails.positive = top - width } else { rails.negative = top - width }
            rails.levels[side] = 20 * log10(Double(top))
            found = true
        }
        return found ? rails : nil
    }

    /// The width with which `top` (of polarity `sign`) is a rail, or nil when it is none; `near` are the sample
    /// ranges of each channel that hold a sample within two 8-bit steps of it; `heldOffTheRails` answers
    /// ``heldOffTheRails(_:highest:lowest:width:)`` for the file at a width.
    static func railWidth(
        _ buffer: AudioBuffer, sign: Float, top: Float, near: [[Range<Int>]],
        heldOffTheRails: (_ width: Float) -> Bool
    ) -> Float? {
        var step = Float.infinity
        for c in 0..<buffer.channels {
            buffer.withChannel(c) { x in
                for r in near[c] { step = min(step, quantisationStep(x, r)) }
            }
        }
        // A file of a few levels only (a naive square) shows no quantisation of its own: the coarsest is taken.
        let w = width(step: min(step, coarsestStep))
        let band = top - w
        let corner = top - cornerWidths * w
        for c in 0..<buffer.channels {
            let cornered = buffer.withChannel(c) { x in
                near[c].contains { r in hasCorneredRun(x, r, sign: sign, band: band, corner: corner) }
            }
            guard cornered else { continue }
            let stepped =
                flatTopsUnderTheTop(buffer, sign: sign, top: top, width: w)
                || heldOffTheRails(w)
            return stepped ? nil : w
        }
        return nil
    }

    /// Whether most of the waveform's tops of polarity `sign` under the band of `width` at `top` are flat: its
    /// flatness is then its own (a naive square or pulse whose level steps down with its envelope, or a coarser
    /// quantisation than the samples' own), not a clipper's, which flattens only the tops that reach its rail and
    /// leaves those under it as the sound made them.
    ///
    /// A top is a lobe of the waveform: a stretch of samples of that polarity over ``cornerWidths`` widths (where a
    /// corner beside a flat run can lie under it), whose highest sample lies under the band. It is flat when it holds
    /// a run of ``SignalDefectScan/minimumRun`` or more samples within `width` of each other with a sample beside the
    /// run more than ``cornerWidths`` widths under it: the shape a rail's runs have
    /// (``hasCorneredRun(_:_:sign:band:corner:)``), at the lobe's own level. A sound's curved tops hold such a run by chance only (a few in a noisy file's
    /// thousands); a file with no top under the band (a square of one level) keeps its rail.
    ///
    /// - Complexity: O(frames × channels); read only for a top already found cornered.
    static func flatTopsUnderTheTop(_ buffer: AudioBuffer, sign: Float, top: Float, width w: Float) -> Bool {
        let floor = cornerWidths * w
        let under = top - w
        var (tops, flat) = (0, 0)
        for c in 0..<buffer.channels {
            buffer.withChannel(c) { x in
                var i = 0
                while i < x.count {
                    guard sign * x[i] > floor else {
                        i += 1
                        continue
                    }
                    // One lobe, i..<end: its highest sample, and whether a flat run with a corner lies in it.
                    var end = i
                    var highest = -Float.infinity
                    var hasFlatRun = false
                    while end < x.count, sign * x[end] > floor {
                        var (low, high) = (sign * x[end], sign * x[end])
                        var j = end + 1
                        while j < x.count, sign * x[j] > floor {
                            let u = sign * x[j]
                            guard max(high, u) - min(low, u) <= w else { break }
                            (low, high) = (min(low, u), max(high, u))
                            j += 1
                        }
                        if j - end >= SignalDefectScan.minimumRun {
                            let corner = high - cornerWidths * w
                            if (end > 0 && sign * x[end - 1] < corner) || (j < x.count && sign * x[j] < corner) {
                                hasFlatRun = true
                            }
                        }
                        highest = max(highest, high)
                        end = j
                    }
                    if highest < under {
                        tops += 1
                        if hasFlatRun { flat += 1 }
                    }
                    i = end
                }
            }
        }
        return tops > 0 && 2 * flat > tops
    }

    /// Whether most of the samples off the rails and over the floor of ``cornerWidths`` widths sit in runs of
    /// ``SignalDefectScan/minimumRun`` or more equal values: a waveform made of steps (a naive synthesiser's square
    /// and pulse voices summed, a coarse format stored finer), whose top is one more step, not a clipper's rail.
    ///
    /// A sampled sound moves between almost every two samples over its floor: a tone holds a value for three samples
    /// only at its tops, and only where it moves less than a step per sample there. The corpus's bells and
    /// notifications hold 0–9 % of those samples so, clipped 20 dB over and turned down 6 dB 0–25 %, and the Debian
    /// tour's clipped files below full scale 4–25 %; `chime-zelda-success` (three naive voices, their steps rarely 8
    /// widths deep at once, so no lobe reads flat to ``flatTopsUnderTheTop(_:sign:top:width:)``) 57 %, and
    /// `lbreakout2`'s `exp.wav` 52 %. Samples within `width` of `highest` or `lowest` (the rails a clipper leaves, the
    /// two levels of a square of one level) are not counted: a square of one level has none left and keeps its rail.
    ///
    /// - Complexity: O(frames × channels); read only for a top already found cornered.
    static func heldOffTheRails(_ buffer: AudioBuffer, highest: Float, lowest: Float, width w: Float) -> Bool {
        let floor = cornerWidths * w
        var (counted, held) = (0, 0)
        for c in 0..<buffer.channels {
            buffer.withChannel(c) { x in
                var i = 0
                while i < x.count {
                    var end = i + 1
                    while end < x.count && x[end] == x[i] { end += 1 }
                    let v = x[i]
                    if abs(v) > floor && v < highest - w && v > lowest + w {
                        counted += end - i
                        if end - i >= SignalDefectScan.minimumRun { held += end - i }
                    }
                    i = end
                }
            }
        }
        return counted > 0 && 2 * held > counted
    }

    /// The finest step the samples of `range` are multiples of (the value of the lowest set bit of each nonzero
    /// sample's significand): 2⁻¹⁵ for 16-bit samples, 2⁻⁷ for 8-bit; infinity when all are zero.
    static func quantisationStep(_ x: UnsafeBufferPointer<Float>, _ range: Range<Int>) -> Float {
        var step = Float.infinity
        for i in range where x[i] != 0 && x[i].isFinite {
            let v = x[i]
            step = min(step, Float(sign: .plus, exponent: v.exponent - Int(v.significandWidth), significand: 1))
        }
        return step
    }

    /// Whether `range` starts a run of ≥ ``SignalDefectScan/minimumRun`` samples with `sign`·x ≥ `band` (the run
    /// may go on past the range) that has a sample below `corner` next to it.
    static func hasCorneredRun(
        _ x: UnsafeBufferPointer<Float>, _ range: Range<Int>, sign: Float, band: Float, corner: Float
    ) -> Bool {
        var i = range.lowerBound
        while i < range.upperBound {
            guard sign * x[i] >= band else {
                i += 1
                continue
            }
            var j = i
            while j < x.count, sign * x[j] >= band { j += 1 }
            if j - i >= SignalDefectScan.minimumRun {
                let before = i > 0 && sign * x[i - 1] < corner
                let after = j < x.count && sign * x[j] < corner
                if before || after { return true }
            }
            i = j
        }
        return false
    }

    /// The clipping runs of `buffer` on these rails: samples in runs, runs, longest run (runs of either sign, as
    /// ``SignalDefectScan`` counts them at full scale; non-finite samples end a run).
    public func runs(in buffer: AudioBuffer) -> (samples: Int, runs: Int, longest: Int) {
        var (samples, runs, longest) = (0, 0, 0)
        for c in 0..<buffer.channels {
            buffer.withChannel(c) { x in
                var run = 0
                for i in 0...x.count {
                    if i < x.count, x[i].isFinite, holds(x[i]) {
                        run += 1
                        continue
                    }
                    if run >= SignalDefectScan.minimumRun {
                        samples += run
                        runs += 1
                        longest = max(longest, run)
                    }
                    run = 0
                }
            }
        }
        return (samples, runs, longest)
    }
}
