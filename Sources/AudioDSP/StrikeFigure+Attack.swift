extension StrikeFigure {
    /// How long (s) the power is summed on each side of a point whose rise is read: 4 ms, the fast window the attack
    /// time is timed on (``OnsetAnalysis``): a struck body's attack rises within it, and it spans a few periods of
    /// every partial over 500 Hz, so a partial's own ripple does not read as a rise.
    static let attackWindow = 0.004
    /// The sample at which the strike found at `onset` (s) starts: of the samples within a flux hop of it, the one
    /// where the power of the ``attackWindow`` after it rises most over the power of the ``attackWindow`` before it
    /// (the first such sample where two rise alike); after silence (nothing before it), the one that the most power
    /// follows: where the strike's first 4 ms lie whole in the window after it.
    ///
    /// An onset is read on the flux's grid (frames every 10.7–11.6 ms, ``OnsetAnalysis``), so it lies up to a hop
    /// from the strike, and where depends on where the file starts. The strike's frames are placed at what this
    /// returns, which moves with the sound, not with the grid: silence in front moves it by as many samples.
    ///
    /// - Parameters:
    ///   - onset: an onset of `x` (``OnsetAnalysis/onsetTimes``).
    ///   - x: the mono signal the onsets were found on.
    ///   - rate: `x`'s sample rate (Hz).
    static func attack(near onset: Double, in x: [Float], sampleRate rate: Double) -> Int {
        let centre = Int((onset * rate).rounded())
        let reach = OnsetAnalysis.FluxFrames.frameSize(rate) / 2
        let width = max(1, Int((attackWindow * rate).rounded()))
        // Running sums of the squared samples over every window a tried point reads (outside the file: silence).
        let lo = centre - reach - width
        let hi = centre + reach + width
        var sums = [Double](repeating: 0, count: hi - lo + 1)
        x.withUnsafeBufferPointer { p in
            for i in lo..<hi {
                let v = i >= 0 && i < p.count ? Double(p[i]) : 0
                sums[i - lo + 1] = sums[i - lo] + v * v
            }
        }
        func power(from a: Int) -> Double { sums[a - lo + width] - sums[a - lo] }
        // The power before a point may be 0 (silence before a strike): rises are compared as products, not ratios,
        // and two rises out of silence by the power after them.
        var best = centre
        var (bestAfter, bestBefore) = (-1.0, 1.0)
        var c = centre - reach
        while c <= centre + reach {
            let (after, before) = (power(from: c), power(from: c - width))
            let higher =
                before == 0 && bestBefore == 0 ? after > bestAfter : after * bestBefore > bestAfter * before
            if higher { (best, bestAfter, bestBefore) = (c, after, before) }
            c += 1
        }
        return min(max(best, 0), x.count)
    }
}
