import Foundation

extension StrikeFigure {
    /// How far a partial must rise over anything heard at its pitch before to be new (dB): far over a struck body's
    /// own beating (a split mode's dips and returns stay under its first level) and over the ring a new note must be
    /// heard against.
    public static let entryRise = 20.0
    /// How far under a frame's strongest partial a new partial still counts (dB): a tone's harmonics often stand
    /// 10–20 dB under its fundamental.
    public static let entryProminence = -20.0
    /// How close to a whole multiple of a partial its harmonic lies (a fraction of the multiple): an eighth of a tone,
    /// over the error of a frequency read from one spectrum frame.
    public static let harmonicTolerance = 0.015

    /// How much louder a frame placed half a hop off the spectrogram's grid can read a sound than the louder of the
    /// grid's two frames beside it (dB): whatever falls between two frames lies at most half a hop (a quarter of a
    /// frame) from one of their centres, where its Hann window still stands at half its height (−6 dB in power).
    public static let offGridGain = 6.0

    /// The times (s) at which a note enters without a strike the spectral flux singles out: a soft-attack note of a
    /// figure (a pad's arpeggio, a melody whose notes swell in over the ring of the last), whose change is small
    /// beside the first strike's against the silence before the file.
    ///
    /// A note enters at a frame where, while the sound is within 10 dB of its loudest frame (``noteLevel``), a
    /// periodic tone appears: a new partial with at least two of its harmonics (2…8 times it, within
    /// ``harmonicTolerance``) among the frame's partials, at least one of them new too. A partial counts when it is
    /// within ``entryProminence`` of the frame's strongest; it is new when it stands ``entryRise`` over the loudest
    /// that any frame before (ending before this one starts) held within a quarter tone (±3 %). A harmonic may be old:
    /// a fifth's octave is the third harmonic of the note under it. Frames up to the first one that loud are the
    /// sound's own first note, which is not counted. Frames of one rise (entries less than 80 ms apart) are one entry.
    ///
    /// The frames are the spectrogram's and frames placed half a hop after each (from `signal`): both what was heard
    /// and what enters are read every half hop. A Hann frame reads what lies a quarter frame (half a hop) off its
    /// centre 6 dB low, so on the grid alone an attack's spread over the spectrum (a strike's click, the window's view
    /// of a note's onset) and a swelling note's partials each read up to 6 dB apart from one grid to the next, and 30 ms
    /// of leading silence, another rate or a codec's delay moved a tone's rise across the 20 dB, or the sound's first
    /// note into another frame. Read every half hop, each stands within 1.5 dB of its best alignment. The frames
    /// between the grid's are drawn only where one could hold a new tone: where a frame of the grid beside them holds a
    /// partial within ``offGridGain`` of rising as the rule asks (``mayHoldANewTone``); a sound whose partials all start
    /// at its strike draws none.
    ///
    /// A struck body does not do this: its modes all start at the strike, a split mode beats under its first level,
    /// and a gong's blooming modes or a chime's bars are inharmonic, not a tone with its harmonics.
    ///
    /// In a clipped file the frames' levels (how loud the sound is, and so where its first note is) are read under the
    /// clipping, and the partials on the file as it is. An offset that pins a quiet hum to one rail makes the hum read
    /// as loud as the strike on the plateau, so the strike's partials, each with the harmonics the clipper adds, read
    /// as a tone entering after the sound's first note; under the clipping the strike is the first note. The arcs
    /// drawn under the clipping are no place to look for partials: their corners add harmonics of their own, which
    /// stand as high as a later note's partials (a clipped arpeggio's second note no longer rises 20 dB there). The
    /// first note lasts until a frame is loud on both readings: where the file starts on the rail, the arc under the
    /// clipping is drawn from the one side that has intact samples, across the silence before the strike, and reads
    /// loud before the partials read on the file as it is have sounded. A frame between two of the grid's takes the
    /// lower of their levels under the clipping.
    ///
    /// - Parameters:
    ///   - s: the spectrogram of the sound (frames do not overlap two hops apart).
    ///   - levels: the spectrogram the frames' levels are read from, on the same frames as `s`; nil: `s`.
    ///   - signal: the mono signal `s` was drawn from, which the frames between the grid's are drawn from.
    static func noteEntries(_ s: Spectrogram, levels: Spectrogram? = nil, signal: [Float]) -> [Double] {
        let bins = s.binCount
        let frames = s.frameCount
        guard frames > 2, bins > 8 else { return [] }
        let lo = max(2, Int((40 / s.binHertz).rounded(.up)))
        let hi = min(bins - 3, Int((OnsetAnalysis.fluxTopHertz / s.binHertz).rounded(.down)))
        guard lo < hi else { return [] }
        let levelGrid = levels ?? s
        precondition(
            levelGrid.frameCount == frames && levelGrid.binCount == bins, "the levels' spectrogram has other frames")
        let gridLevel = Self.rowSums(levelGrid.power, rows: frames, bins: bins)
        let gridLoud = (gridLevel.max() ?? 0) * pow(10, noteLevel / 10)
        guard gridLoud > 0, let gridFirst = gridLevel.firstIndex(where: { $0 >= gridLoud }) else { return [] }
        // The grid frames a frame between two of them can be as loud as the rule asks beside: within offGridGain.
        let nearLoud = gridLoud * pow(10, -offGridGain / 10)
        guard let lastNear = gridLevel.lastIndex(where: { $0 >= nearLoud }) else { return [] }
        let last = min(frames - 1, lastNear + 1)
        guard
            Self.mayHoldANewTone(
                s, gridLevel: gridLevel, nearLoud: nearLoud, from: max(2, gridFirst + 1), through: last, lo: lo, hi: hi)
        else { return [] }

        // The frames every half hop through `last` and the one after it: the grid's (even) and those drawn half a hop
        // after each (odd), after the grid's last frame too where its centre lies in the file.
        let hop = s.size / 2
        let count = 2 * last + (last * hop + hop / 2 < signal.count ? 2 : 1)
        guard count > 4 else { return [] }
        var rows = [Float](repeating: 0, count: count * bins)
        var level = [Double](repeating: 0, count: count)
        s.power.withUnsafeBufferPointer { p in
            rows.withUnsafeMutableBufferPointer { r in
                for k in 0...last {
                    (r.baseAddress! + 2 * k * bins).update(from: p.baseAddress! + k * bins, count: bins)
                    level[2 * k] = gridLevel[k]
                    guard 2 * k + 1 < count else { continue }
                    let between = s.framePower(signal, centre: k * hop + hop / 2)
                    for b in 0..<bins { r[(2 * k + 1) * bins + b] = between[b] }
                    level[2 * k + 1] =
                        levels == nil
                        ? between.reduce(0.0) { $0 + Double($1) }
                        : min(gridLevel[k], k + 1 < frames ? gridLevel[k + 1] : 0)
                }
            }
        }
        let loud = max(gridLevel.max() ?? 0, level.max() ?? 0) * pow(10, noteLevel / 10)
        guard var first = level.firstIndex(where: { $0 >= loud }) else { return [] }
        if levels != nil {
            let asIsGrid = Self.rowSums(s.power, rows: frames, bins: bins)
            let asIs = Self.rowSums(rows, rows: count, bins: bins)
            let asIsLoud = max(asIsGrid.max() ?? 0, asIs.max() ?? 0) * pow(10, noteLevel / 10)
            guard let sounded = asIs.indices.first(where: { $0 >= first && asIs[$0] >= asIsLoud }) else { return [] }
            first = sounded
        }
        let rise = Float(pow(10, entryRise / 10))
        let prominence = Float(pow(10, entryProminence / 10))
        // The loudest power each bin held in the frames before the one being read (ending before it starts: two hops
        // before it, four half hops).
        var heard = [Float](repeating: 0, count: bins)
        var entries: [Double] = []
        var lastEntry = -Double.infinity
        rows.withUnsafeBufferPointer { p in
            for j in 4..<count {
                let earlier = (j - 4) * bins
                for b in 0..<bins { heard[b] = max(heard[b], p[earlier + b]) }
                guard j - 4 >= first, level[j] >= loud else { continue }
                let row = j * bins
                let strongest = Self.strongest(p, row: row, bins: lo...hi)
                guard strongest > 0 else { continue }
                // The frame's partials (local maxima over ±2 bins, prominent), and whether each has risen over all
                // heard at its pitch.
                var partials: [(frequency: Double, isNew: Bool)] = []
                for b in lo...hi {
                    let v = p[row + b]
                    guard v >= strongest * prominence, v >= p[row + b - 1], v >= p[row + b + 1],
                        v >= p[row + b - 2], v >= p[row + b + 2]
                    else { continue }
                    let before = Self.heardNear(heard, bin: b)
                    partials.append((Self.peakFrequency(p, row: row, bin: b, binHertz: s.binHertz), v >= before * rise))
                }
                guard Self.holdsANewPeriodicTone(partials) else { continue }
                let t = Double(j) * s.hopSeconds / 2
                if t - lastEntry >= 0.08 { entries.append(t) }
                lastEntry = t
            }
        }
        return entries
    }

    /// Whether a frame read on the grid or half a hop off it could hold a new tone: whether a frame of the grid from
    /// `from` through `through` (or the one after it) holds, within ``offGridGain`` of the loudness the rule asks, a
    /// partial within ``entryProminence`` less twice ``offGridGain`` of its strongest that stands ``entryRise`` less
    /// ``offGridGain`` over all that the grid's frames before the first of the two held near its pitch. A frame between
    /// two of the grid's reads no partial more than ``offGridGain`` over both, and its strongest no more than that
    /// under theirs; what it has heard before it holds at least what the grid's frames before them held.
    static func mayHoldANewTone(
        _ s: Spectrogram, gridLevel: [Double], nearLoud: Double, from: Int, through last: Int, lo: Int, hi: Int
    ) -> Bool {
        let bins = s.binCount
        guard from <= last else { return false }
        let rise = Float(pow(10, (entryRise - offGridGain) / 10))
        let prominence = Float(pow(10, (entryProminence - 2 * offGridGain) / 10))
        var heard = [Float](repeating: 0, count: bins)
        return s.power.withUnsafeBufferPointer { p in
            for k in 0...last {
                if k >= 2 {
                    let earlier = (k - 2) * bins
                    for b in 0..<bins { heard[b] = max(heard[b], p[earlier + b]) }
                }
                guard k >= from else { continue }
                for frame in k...min(k + 1, s.frameCount - 1) where gridLevel[frame] >= nearLoud {
                    let row = frame * bins
                    let strongest = Self.strongest(p, row: row, bins: lo...hi)
                    guard strongest > 0 else { continue }
                    for b in lo...hi where p[row + b] >= strongest * prominence {
                        if p[row + b] >= Self.heardNear(heard, bin: b) * rise { return true }
                    }
                }
            }
            return false
        }
    }

    /// How many bins either side of `bin` lie within a quarter tone of it: ±3 %, at least ±2 bins (a partial's own
    /// width in a Hann frame).
    static func quarterToneReach(bin b: Int) -> Int { max(2, Int((Double(b) * 0.03).rounded())) }

    /// The loudest that `heard` holds within a quarter tone (``quarterToneReach(bin:)``) of `bin`.
    static func heardNear(_ heard: [Float], bin b: Int) -> Float {
        let reach = quarterToneReach(bin: b)
        var before: Float = 0
        for j in max(1, b - reach)...min(heard.count - 1, b + reach) { before = max(before, heard[j]) }
        return before
    }

    /// The largest power among `bins` of the row starting at `row` in `p` (0 when all are 0).
    static func strongest(_ p: UnsafeBufferPointer<Float>, row: Int, bins: ClosedRange<Int>) -> Float {
        var strongest: Float = 0
        for b in bins { strongest = max(strongest, p[row + b]) }
        return strongest
    }

    /// Each row's summed power, of `rows` rows of `bins` bins.
    static func rowSums(_ power: [Float], rows: Int, bins: Int) -> [Double] {
        var out = [Double](repeating: 0, count: rows)
        power.withUnsafeBufferPointer { p in
            for k in 0..<rows {
                var e = 0.0
                for b in 0..<bins { e += Double(p[k * bins + b]) }
                out[k] = e
            }
        }
        return out
    }

    /// Whether some new partial among `partials` has at least two of its harmonics (2…8 times it) among them, at
    /// least one of which is new too.
    static func holdsANewPeriodicTone(_ partials: [(frequency: Double, isNew: Bool)]) -> Bool {
        for f in partials where f.isNew {
            var multiples = Set<Int>()
            var newMultiple = false
            for g in partials where g.frequency > f.frequency {
                let n = Int((g.frequency / f.frequency).rounded())
                guard (2...8).contains(n),
                    abs(g.frequency - Double(n) * f.frequency) <= harmonicTolerance * Double(n) * f.frequency
                else { continue }
                multiples.insert(n)
                if g.isNew { newMultiple = true }
            }
            if multiples.count >= 2 && newMultiple { return true }
        }
        return false
    }

    /// The frequency of the peak at `bin` of the frame starting at `row`, by a parabola through the dB of its bin and
    /// its two neighbours.
    static func peakFrequency(_ p: UnsafeBufferPointer<Float>, row: Int, bin b: Int, binHertz: Double) -> Double {
        func db(_ v: Float) -> Double { 10 * log10(max(Double(v), 1e-30)) }
        let (offset, _) = ParabolicPeak.interpolate(db(p[row + b - 1]), db(p[row + b]), db(p[row + b + 1]))
        return (Double(b) + offset) * binHertz
    }
}
