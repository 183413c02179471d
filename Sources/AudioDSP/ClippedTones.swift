import AudioCore
import Foundation

/// The sound under a clipping drawn as its partials: in each short window that holds clipping, a sum of the sound's
/// partials (chosen among the file's strongest spectral peaks) fitted by least squares to the samples the clipper
/// left intact, and the clipped samples filled from it (``ClippedTops`` calls it after drawing its arcs).
///
/// Why: a ringing body is a sum of slowly decaying sinusoids at fixed frequencies, and the clipper keeps every sample
/// under the rail exactly. Over a window short enough that each partial's level holds, the intact samples are a sum
/// of sinusoids of known frequency and unknown level and phase, linear in the samples, so least squares reads them
/// from the intact samples alone, wherever the tops fall. The arcs (``ClippedTops``) follow one sinusoid through each
/// top and misread a top made of several partials: a tone of three partials 20 dB over read its decay 20 % fast
/// through them; read here, within 0.2 %.
///
/// A window is fitted only with at least ``samplesPerUnknown`` intact samples for each unknown, and its fit is kept
/// only where it explains the intact samples (it leaves no more than ``unexplained`` of their power), sees them on
/// both sides of its own mean (at least one for each unknown on each side) and draws the tops no more than
/// ``beyondArcs`` over the arcs; where no window is fitted and kept, the arcs stay. A clipped sample is never drawn nearer zero than its rail, nor on the other
/// side of it, and samples outside clipping runs are never changed.
///
/// - Thread safety: stateless; call from any thread.
/// - Real-time safe: no.
enum ClippedTones {
    /// The window (seconds) each fit reads: short enough that a ringing partial's level holds across it (a bell that
    /// falls 40 dB in 1.5 s falls 0.5 dB in 20 ms), long enough to tell partials 1/0.02 s = 50 Hz apart.
    static let windowSeconds = 0.02
    /// The most spectral peaks offered to a fit: more than the modes a struck body sounds above its noise (5 to 12
    /// in the corpus bells).
    static let partialCount = 16
    /// How far under the strongest peak a peak may lie and still be offered (dB): 40 dB, the line under which a
    /// partial is no longer heard beside the strongest (docs/bells.md, "one periodic tone"), and the level of a
    /// spectral window's far side lobes.
    static let heardRange = 40.0
    /// The most unknowns a fit has: an offset and four terms for each peak offered.
    static let maximumUnknowns = 1 + 4 * partialCount
    /// The intact samples a window needs for each unknown: three, so the fit is over-determined three to one. A fit
    /// of that many unknowns explains about a third of the power of samples that no sum of these partials makes
    /// (noise, or a sound of more modes than the file's spectrum shows apart).
    static let samplesPerUnknown = 3
    /// The most of the intact samples' power (about their mean) a kept fit may leave unexplained: a quarter (−6 dB),
    /// where a sum of the wrong partials leaves about two thirds (above). A fit that explains less says the sound
    /// in this window is not these partials (a gong's dense modes, a strike's noise): the arcs stay there. Sounds the
    /// partials do carry leave a hundredth or less in most windows (−20 to −40 dB on hand-built and corpus bells).
    static let unexplained = 0.25
    /// The most a kept fit may draw a window's tops over the arcs' (``ClippedTops``), as a ratio: twice (6 dB). The
    /// arcs read a top within 4 dB of the sound on every tone and bell measured (low for a tone too high for its
    /// tops, up to 4 dB high over several partials), so a fit far over them is not reading the sound but carrying
    /// partials that cancel at the intact samples across a long run (a 130 Hz bell 20 dB over drew tops of 100 where
    /// the sound reached 5.4).
    static let beyondArcs = 2.0

    /// The frequencies (Hz) of the strongest peaks of `x`'s summed spectrum (``Spectrogram``), strongest first: at
    /// most ``partialCount``, none more than ``heardRange`` under the strongest, none below 1/``windowSeconds`` (a window holds under one cycle of it: the offset term
    /// reads it) and none within 1/``windowSeconds`` of a stronger one (a window cannot tell the two apart; the
    /// stronger carries both), each placed between bins by ``ParabolicPeak``.
    static func partials(_ x: [Float], sampleRate: Double) -> [Double] {
        let spectrogram = Spectrogram(mono: x, sampleRate: sampleRate)
        let power = spectrogram.summedPower(frames: 0..<spectrogram.frameCount)
        let db = power.map { 10 * log10(max($0, 1e-30)) }
        let resolution = 1 / windowSeconds
        var peaks: [Int] = []
        if db.count > 4 {
            for b in 2..<(db.count - 2)
            where db[b] > db[b - 1] && db[b] >= db[b + 1] && db[b] > db[b - 2] && db[b] >= db[b + 2] {
                peaks.append(b)
            }
        }
        peaks.sort { db[$0] > db[$1] }
        var out: [Double] = []
        for b in peaks {
            guard let top = peaks.first, db[b] >= db[top] - heardRange else { break }
            let f = (Double(b) + ParabolicPeak.interpolate(db[b - 1], db[b], db[b + 1]).offset) * spectrogram.binHertz
            guard f >= resolution, out.allSatisfy({ abs($0 - f) >= resolution }) else { continue }
            out.append(f)
            if out.count == partialCount { break }
        }
        return out
    }

    /// Fills the samples of `x` on a rail in the windows that hold a clipping run (`inRun`) from the partials
    /// `frequencies` (Hz, strongest first) fitted to the intact samples of `clipped` (the channel as the file holds
    /// it; `onRail` marks its samples on a rail, in runs or not: the rest are intact). A sample on the rail of a
    /// clipped file is clipped whatever its run: a high partial's tops are one or two samples wide, and the clipper
    /// holds them there too. `x` holds the arcs, which stay where no fit is kept (a top shorter than a run keeps its
    /// rail). Each sample on the rail is drawn at the fit's value, but never nearer zero than its rail. Each run
    /// sample no kept fit draws (its arc stays) is marked in `arcs`.
    ///
    /// - Complexity: O(frames × partials²) over the windows that hold clipping.
    static func fill(
        _ x: UnsafeMutableBufferPointer<Float>, clipped: [Float], inRun: [Bool], onRail: [Bool],
        frequencies: [Double], sampleRate: Double, arcs: inout [Bool]
    ) {
        let n = clipped.count
        guard !frequencies.isEmpty, n > 0 else {
            for i in 0..<n where inRun[i] { arcs[i] = true }
            return
        }
        let width = min(n, max(16, Int((windowSeconds * sampleRate).rounded())))
        let hop = max(1, width / 2)
        var starts = Array(stride(from: 0, through: n - width, by: hop))
        if let last = starts.last, last < n - width { starts.append(n - width) }
        // Each window's fit at its run samples, weighted by a Hann window (sin², so overlapping halves sum to one).
        var sum = [Double](repeating: 0, count: n)
        var weight = [Double](repeating: 0, count: n)
        let omegas = frequencies.map { 2 * Double.pi * $0 / sampleRate }
        for start in starts {
            let range = start..<(start + width)
            guard inRun[range].contains(true) else { continue }
            let intact = range.count(where: { !onRail[$0] })
            let limit = min(maximumUnknowns, intact / samplesPerUnknown)
            guard limit >= 5, let fit = fitWindow(clipped, range: range, onRail: onRail, omegas: omegas, limit: limit)
            else { continue }
            // The arcs' tops (in `x`) against the fit's, over the window's run samples.
            var (arcsTop, fitTop) = (0.0, 0.0)
            for (t, i) in range.enumerated() where inRun[i] {
                (arcsTop, fitTop) = (max(arcsTop, Double(abs(x[i]))), max(fitTop, abs(fit[t])))
            }
            guard fitTop <= beyondArcs * arcsTop else { continue }
            for (t, i) in range.enumerated() where onRail[i] {
                let w = pow(sin(Double.pi * (Double(t) + 0.5) / Double(width)), 2)
                sum[i] += w * fit[t]
                weight[i] += w
            }
        }
        for i in 0..<n where inRun[i] && weight[i] == 0 { arcs[i] = true }
        for i in 0..<n where onRail[i] && weight[i] > 0 {
            let sign: Double = clipped[i] > 0 ? 1 : -1
            let drawn = max(Double(abs(clipped[i])), sign * sum[i] / weight[i])
            x[i] = Float(sign * drawn)
        }
    }

    /// The sum of partials fitted to the intact samples of `x` in `range`, drawn over `range`; nil when no partial
    /// is fitted or the fit leaves more than ``unexplained`` of the intact samples' power.
    ///
    /// Each partial has four terms: a cosine and a sine at its frequency (`omegas`, rad per sample), and the same
    /// two times the time from the window's centre, which take up a level changing across the window and a frequency
    /// a little off the file's (a partial read 0.1 Hz off drifts 0.01 rad in 20 ms: at 20 dB over, a tenth of the
    /// intact samples' size); one more term is an offset. Partials are chosen one at a time, each the one that
    /// leaves the least unexplained, for as long as each lowers the Bayesian information criterion
    /// (n·ln(RSS/n) + unknowns·ln n, over the n intact samples; RSS floored at the file's last bit, 2⁻²³ of full
    /// scale, whose rounding explains nothing): the fewest partials that explain the samples, so a distortion
    /// product the spectrum shows but the samples do not hold is not fitted (``maximumUnknowns``). Then the clipped
    /// samples the fit draws inside the rail are held at it in a second fit.
    static func fitWindow(
        _ x: [Float], range: Range<Int>, onRail: [Bool], omegas: [Double], limit: Int
    ) -> [Double]? {
        let width = range.count
        let terms = 1 + 4 * omegas.count
        var basis = [Double](repeating: 0, count: width * terms)
        let centre = Double(width - 1) / 2
        for (k, omega) in omegas.enumerated() {
            let (c, s) = (cos(omega), sin(omega))
            var (re, im) = (1.0, 0.0)
            for t in 0..<width {
                let tau = (Double(t) - centre) / Double(width)
                let row = t * terms + 1 + 4 * k
                (basis[row], basis[row + 1], basis[row + 2], basis[row + 3]) = (re, im, tau * re, tau * im)
                (re, im) = (re * c - im * s, re * s + im * c)
            }
        }
        for t in 0..<width { basis[t * terms] = 1 }
        // The normal equations of every term over the intact samples, once.
        var gram = [Double](repeating: 0, count: terms * terms)
        var rhs = [Double](repeating: 0, count: terms)
        var (count, sum, squares) = (0.0, 0.0, 0.0)
        for (t, i) in range.enumerated() where !onRail[i] {
            let v = Double(x[i])
            (count, sum, squares) = (count + 1, sum + v, squares + v * v)
            let row = t * terms
            for a in 0..<terms {
                let va = basis[row + a]
                rhs[a] += va * v
                for b in a..<terms { gram[a * terms + b] += va * basis[row + b] }
            }
        }
        let power = squares - sum * sum / count
        guard count > 0, power > 0 else { return nil }
        func fit(_ columns: [Int]) -> (coefficients: [Double], residual: Double)? {
            let m = columns.count
            var a = [Double](repeating: 0, count: m * m)
            for i in 0..<m {
                for j in i..<m {
                    let (p, q) = (min(columns[i], columns[j]), max(columns[i], columns[j]))
                    a[i * m + j] = gram[p * terms + q]
                }
            }
            let b = columns.map { rhs[$0] }
            guard let c = solve(a, b, size: m) else { return nil }
            return (c, squares - zip(c, b).reduce(0) { $0 + $1.0 * $1.1 })
        }
        let floor = count * pow(2, -46) / 12
        func criterion(_ residual: Double, _ unknowns: Int) -> Double {
            count * log(max(residual, floor) / count) + Double(unknowns) * log(count)
        }
        guard var best = fit([0]) else { return nil }
        var chosen = [0]
        var score = criterion(best.residual, 1)
        var left = Array(omegas.indices)
        while chosen.count + 4 <= limit, !left.isEmpty {
            var step: (k: Int, columns: [Int], fit: (coefficients: [Double], residual: Double))?
            for k in left {
                let columns = chosen + (1...4).map { 4 * k + $0 }
                if let f = fit(columns), step.map({ f.residual < $0.fit.residual }) ?? true { step = (k, columns, f) }
            }
            guard let s = step, criterion(s.fit.residual, s.columns.count) < score else { break }
            (chosen, best, score) = (s.columns, s.fit, criterion(s.fit.residual, s.columns.count))
            left.removeAll { $0 == s.k }
        }
        guard chosen.count > 1, best.residual <= unexplained * power else { return nil }
        // A level is read from the swing on both sides of the mean: intact samples on one side only (a tone whose
        // offset holds it on one rail) cannot tell a larger swing about a higher mean from a smaller one about a
        // lower, so each side must hold at least one intact sample for each unknown.
        let mean = best.coefficients[0]
        var (above, below) = (0, 0)
        for i in range where !onRail[i] {
            if Double(x[i]) > mean { above += 1 } else if Double(x[i]) < mean { below += 1 }
        }
        guard min(above, below) >= chosen.count else { return nil }
        func draw(_ coefficients: [Double]) -> [Double] {
            (0..<width).map { t in zip(chosen, coefficients).reduce(0) { $0 + $1.1 * basis[t * terms + $1.0] } }
        }
        let drawn = draw(best.coefficients)
        // A second fit with the clipped samples drawn inside the rail held at it.
        let m = chosen.count
        var a = [Double](repeating: 0, count: m * m)
        var b = [Double](repeating: 0, count: m)
        for i in 0..<m {
            b[i] = rhs[chosen[i]]
            for j in i..<m { a[i * m + j] = gram[min(chosen[i], chosen[j]) * terms + max(chosen[i], chosen[j])] }
        }
        var held = false
        for (t, i) in range.enumerated() where onRail[i] {
            let sign: Double = x[i] > 0 ? 1 : -1
            guard sign * drawn[t] < Double(abs(x[i])) else { continue }
            held = true
            let row = t * terms
            for p in 0..<m {
                let vp = basis[row + chosen[p]]
                b[p] += vp * Double(x[i])
                for q in p..<m { a[p * m + q] += vp * basis[row + chosen[q]] }
            }
        }
        guard held else { return drawn }
        return solve(a, b, size: m).map(draw)
    }

    /// Solves the symmetric positive system whose upper triangle is `a` (row-major, `size` × `size`) for `b`, by
    /// Cholesky factorisation, with a ridge of 1e-9 of the mean diagonal so partials nearly alike in a window stay
    /// solvable; nil when a pivot is not positive.
    static func solve(_ a: [Double], _ b: [Double], size: Int) -> [Double]? {
        var l = [Double](repeating: 0, count: size * size)
        let ridge = 1e-9 * (0..<size).reduce(0.0) { $0 + a[$1 * size + $1] } / Double(size)
        for j in 0..<size {
            var d = a[j * size + j] + ridge
            for k in 0..<j { d -= l[j * size + k] * l[j * size + k] }
            guard d > 0 else { return nil }
            let root = d.squareRoot()
            l[j * size + j] = root
            for i in (j + 1)..<size {
                var v = a[j * size + i]
                for k in 0..<j { v -= l[i * size + k] * l[j * size + k] }
                l[i * size + j] = v / root
            }
        }
        var y = b
        for i in 0..<size {
            for k in 0..<i { y[i] -= l[i * size + k] * y[k] }
            y[i] /= l[i * size + i]
        }
        for i in stride(from: size - 1, through: 0, by: -1) {
            for k in (i + 1)..<size { y[i] -= l[k * size + i] * y[k] }
            y[i] /= l[i * size + i]
        }
        return y
    }
}
