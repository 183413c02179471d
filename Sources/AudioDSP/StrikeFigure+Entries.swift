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
    /// loud before the partials read on the file as it is have sounded.
    ///
    /// - Parameters:
    ///   - s: the spectrogram of the sound (frames do not overlap two hops apart).
    ///   - levels: the spectrogram the frames' levels are read from, on the same frames as `s`; nil: `s`.
    static func noteEntries(_ s: Spectrogram, levels: Spectrogram? = nil) -> [Double] {
        let bins = s.binCount
        let frames = s.frameCount
        guard frames > 2, bins > 8 else { return [] }
        let lo = max(2, Int((40 / s.binHertz).rounded(.up)))
        let hi = min(bins - 3, Int((OnsetAnalysis.fluxTopHertz / s.binHertz).rounded(.down)))
        guard lo < hi else { return [] }
        /// Each frame's power, and the power within ``noteLevel`` of the loudest frame's.
        func frameLevels(_ g: Spectrogram) -> (level: [Double], loud: Double) {
            precondition(g.frameCount == frames && g.binCount == bins, "the levels' spectrogram has other frames")
            var level = [Double](repeating: 0, count: frames)
            g.power.withUnsafeBufferPointer { p in
                for k in 0..<frames {
                    var e = 0.0
                    for b in 0..<bins { e += Double(p[k * bins + b]) }
                    level[k] = e
                }
            }
            return (level, (level.max() ?? 0) * pow(10, noteLevel / 10))
        }
        let (level, loud) = frameLevels(levels ?? s)
        guard loud > 0, var first = level.firstIndex(where: { $0 >= loud }) else { return [] }
        if levels != nil {
            let (asIs, asIsLoud) = frameLevels(s)
            guard let sounded = asIs.indices.first(where: { $0 >= first && asIs[$0] >= asIsLoud }) else { return [] }
            first = sounded
        }
        let rise = Float(pow(10, entryRise / 10))
        let prominence = Float(pow(10, entryProminence / 10))
        // The loudest power each bin held in the frames before the one being read (ending before it starts).
        var heard = [Float](repeating: 0, count: bins)
        var entries: [Double] = []
        var lastEntry = -Double.infinity
        s.power.withUnsafeBufferPointer { p in
            for k in 2..<frames {
                let earlier = (k - 2) * bins
                for b in 0..<bins { heard[b] = max(heard[b], p[earlier + b]) }
                guard k - 2 >= first, level[k] >= loud else { continue }
                let row = k * bins
                var strongest: Float = 0
                for b in lo...hi { strongest = max(strongest, p[row + b]) }
                guard strongest > 0 else { continue }
                // The frame's partials (local maxima over ±2 bins, prominent), and whether each has risen over all
                // heard at its pitch.
                var partials: [(frequency: Double, isNew: Bool)] = []
                for b in lo...hi {
                    let v = p[row + b]
                    guard v >= strongest * prominence, v >= p[row + b - 1], v >= p[row + b + 1],
                        v >= p[row + b - 2], v >= p[row + b + 2]
                    else { continue }
                    let reach = max(2, Int((Double(b) * 0.03).rounded()))
                    var before: Float = 0
                    for j in max(1, b - reach)...min(bins - 1, b + reach) { before = max(before, heard[j]) }
                    partials.append((Self.peakFrequency(p, row: row, bin: b, binHertz: s.binHertz), v >= before * rise))
                }
                guard Self.holdsANewPeriodicTone(partials) else { continue }
                let t = Double(k) * s.hopSeconds
                if t - lastEntry >= 0.08 { entries.append(t) }
                lastEntry = t
            }
        }
        return entries
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
