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
    ///   - onset: an onset of the signal (``OnsetAnalysis/onsetTimes``).
    ///   - energy: the prefix sums of the squared samples of the mono signal the onsets were found on
    ///     (``CrossCorrelation/energyPrefix(_:)``, made once for all the strikes); outside it, silence.
    ///   - rate: the signal's sample rate (Hz).
    static func attack(near onset: Double, energy: [Double], sampleRate rate: Double) -> Int {
        let count = energy.count - 1
        let centre = Int((onset * rate).rounded())
        let reach = OnsetAnalysis.frameSize(rate) / 2
        let width = max(1, Int((attackWindow * rate).rounded()))
        /// The energy of the `width` samples from `a` (those outside the signal are silence).
        func power(from a: Int) -> Double { energy[min(max(a + width, 0), count)] - energy[min(max(a, 0), count)] }
        // The power before a point may be 0 (silence before a strike): rises are compared as products, not ratios,
        // and two rises out of silence by the power after them.
        var best = centre
        var (bestAfter, bestBefore) = (-1.0, 1.0)
        for c in (centre - reach)...(centre + reach) {
            let (after, before) = (power(from: c), power(from: c - width))
            let higher =
                before == 0 && bestBefore == 0 ? after > bestAfter : after * bestBefore > bestAfter * before
            if higher { (best, bestAfter, bestBefore) = (c, after, before) }
        }
        return min(max(best, 0), count)
    }
}
