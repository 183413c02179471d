import Foundation

/// Whether a stretch of sound is mains hum: partials that all sit on the harmonics of the mains frequency (50 Hz in
/// most of the world, 60 Hz in the Americas and parts of Asia: IEC 60038), the strongest of them one of its first
/// three, from a ``Spectrogram``.
///
/// A recording made near a transformer, a lamp or a ground loop carries the mains frequency and its harmonics under the
/// sound. Where that hum is all the tail holds and it does not decay, it is the recording's floor, not the sound still
/// ringing (``DecayAnalysis`` reads it as its `noiseFloor` and names its frequency).
///
/// - Thread safety: stateless.
/// - Real-time safe: no.
public enum MainsHum {
    /// The mains frequencies (Hz) of IEC 60038.
    public static let frequencies = [50.0, 60.0]
    /// How far a partial may sit from a harmonic of the mains frequency, a fraction of the harmonic: 1.5 %. Grids hold
    /// their frequency within ±1 % (EN 50160: 50 Hz ± 1 % for 99.5 % of a year); the spectrum's interpolated peak adds
    /// its own error, allowed besides: a quarter of a bin (``Spectrogram/binHertz``; a steady partial's parabolic
    /// peak on a Hann window is off by under a tenth).
    public static let tolerance = 0.015
    /// The partials that count: within 20 dB of the tail's strongest (weaker ones are a hum's far harmonics, or what is
    /// left of the sound under it).
    public static let partialRange = 20.0
    /// The highest harmonic the strongest partial may be: the third. Hum carries its power in the mains frequency and
    /// its first harmonics (a ground loop at the fundamental, a rectifier's buzz at twice it, a transformer's at three
    /// times); a grid of 50 Hz steps is too fine to tell a steady tone higher up (a 1 kHz beep is the 20th harmonic)
    /// from anything else.
    public static let strongestHarmonic = 3.0

    /// How many equal stretches of the file ``throughout(_:frames:)`` compares the hum's level across: four.
    public static let stretches = 4
    /// The fewest spectrogram frames each stretch must hold for its level to be read: two (a frame and the one half a
    /// frame on; about 0.1 s at any rate).
    static let framesPerStretch = 2
    /// How far from a line (bins) the spectrum it must stand over lies: three bins. A line's power stands 10 times
    /// (``TonalityAnalysis/peakRatio``, as a partial over its neighbourhood) over the spectrum three bins away on at
    /// least one side (the other may hold the next harmonic, or a partial of the sound): a Hann window holds a steady
    /// tone within ±2 bins (its sidelobes lie 31.5 dB under), while noise, steady or not, is about as loud three
    /// bins away on both sides.
    static let lineFlank = 3
    /// The power of a steady sine summed over its peak bin and the bins either side, against its mean square: 1.5,
    /// the Hann window's equivalent noise bandwidth in bins (the spectrogram reads a sine's mean square in its peak
    /// bin when it falls on the bin: 1 + ¼ + ¼; half a bin off, the three bins still hold 98 % of it).
    static let hannBins = 1.5

    /// The power of the line at bin `b` of `power`: the bin and the bins either side (a Hann window's steady tone).
    static func line(_ power: [Double], at b: Int) -> Double { power[b - 1] + power[b] + power[b + 1] }

    /// Mains hum heard through the whole file, whatever sound is over it: the harmonics of 50 or 60 Hz, among the first
    /// ``strongestHarmonic``, each a line on the grid (within ``tolerance`` and a quarter bin, standing 10 dB over the
    /// spectrum ``lineFlank`` bins away on one side at least) whose power is the same, within
    /// ``DecayAnalysis/steadyChange`` (1 dB, about the smallest level change heard), in each of ``stretches`` equal
    /// stretches of `frames` — before the sound, under its strike and ring, and after it: a floor is there all along,
    /// where a partial of the sound rises with its strike and decays. The last stretch may be lower (an edit's final
    /// fade takes the floor down with the sound), never higher. Returns the mains frequency and the hum's level (dB re
    /// full scale, the mean square of the lines found over the stretches before the last); nil when no harmonic is
    /// such a line, or a stretch holds fewer than ``framesPerStretch`` frames.
    ///
    /// The tail alone (``frequency(_:frames:)``) cannot tell a hum that a sound is still fading into from the sound:
    /// the tail's level is falling, and its loudest partial may be the sound's. A bell that ends over a hum 33 dB under
    /// its peak read as a sound cut off ("stops while still sounding 31 dB below its peak, decaying 9 dB/s").
    public static func throughout(_ s: Spectrogram, frames: Range<Int>) -> (frequency: Double, level: Double)? {
        let frames = frames.clamped(to: 0..<s.frameCount)
        let per = frames.count / stretches
        guard per >= framesPerStretch else { return nil }
        let mean = s.summedPower(frames: frames)
        let db = { (x: Double) in 10 * log10(max(x, 1e-30)) }
        let stretchPower = (0..<stretches).map { i in
            s.summedPower(frames: (frames.lowerBound + i * per)..<(frames.lowerBound + (i + 1) * per))
        }
        var found: [(frequency: Double, level: Double)] = []
        for mains in frequencies {
            var power = 0.0
            for k in 1...Int(strongestHarmonic) {
                let harmonic = Double(k) * mains
                let c = Int((harmonic / s.binHertz).rounded())
                guard c - 1 >= 1, c + 2 < s.binCount else { continue }
                let b = (c - 1...c + 1).max { mean[$0] < mean[$1] }!
                guard mean[b] >= mean[b - 1], mean[b] > mean[b + 1] else { continue }
                let top = ParabolicPeak.interpolate(db(mean[b - 1]), db(mean[b]), db(mean[b + 1]))
                let frequency = (Double(b) + top.offset) * s.binHertz
                guard abs(frequency - harmonic) <= tolerance * harmonic + s.binHertz / 4 else { continue }
                let ratio = Double(TonalityAnalysis.peakRatio)
                let flanks = [b - lineFlank, b + lineFlank].filter { $0 >= 1 && $0 < s.binCount }.map { mean[$0] }
                guard let clear = flanks.min(), mean[b] >= ratio * clear else { continue }
                // The last stretch may fall (an edit's final fade takes the floor down with the sound), never rise.
                let levels = stretchPower.map { line($0, at: b) }
                let held = levels.dropLast()
                guard let low = held.min(), let high = held.max(), low > 0,
                    db(high) - db(low) <= DecayAnalysis.steadyChange,
                    db(levels[levels.count - 1]) - db(high) <= DecayAnalysis.steadyChange
                else { continue }
                power += held.reduce(0, +) / Double(held.count * per) / hannBins
            }
            if power > 0 { found.append((mains, db(power))) }
        }
        return found.max { $0.level < $1.level }
    }

    /// Whether the partial at bin `b` (with the bins either side) falls across `frames` faster than a floor's level
    /// may move (``DecayAnalysis/steadyRate``): its power over the first half of the frames against the last half,
    /// per second between their centres. Never for fewer than 4 frames.
    static func fading(_ s: Spectrogram, frames: Range<Int>) -> (Int) -> Bool {
        let half = frames.count / 2
        guard half >= 2 else { return { _ in false } }
        let early = s.summedPower(frames: frames.lowerBound..<(frames.lowerBound + half))
        let late = s.summedPower(frames: (frames.upperBound - half)..<frames.upperBound)
        let seconds = Double(frames.count - half) * s.hopSeconds
        return { b in
            let e = line(early, at: b)
            let l = line(late, at: b)
            guard e > 0 else { return false }
            return 10 * log10(max(l, 1e-30) / e) / seconds < -DecayAnalysis.steadyRate
        }
    }

    /// The mains frequency whose harmonics hold every steady partial of `frames` (peaks standing 10 dB over their
    /// neighbourhood, ``TonalityAnalysis/peakRatio``, within ``partialRange`` of the strongest; a partial fading faster
    /// than a floor moves is the sound, not the floor: ``fading(_:frames:)``), the strongest steady and at most its
    /// ``strongestHarmonic``; nil when some steady partial sits off them, the strongest fades or is higher, or there is
    /// none.
    public static func frequency(_ s: Spectrogram, frames: Range<Int>) -> Double? {
        let frames = frames.clamped(to: 0..<s.frameCount)
        guard !frames.isEmpty else { return nil }
        let bins = s.binCount
        let mean = s.summedPower(frames: frames)
        let db = { (x: Double) in 10 * log10(max(x, 1e-30)) }
        func peak(_ b: Int) -> (frequency: Double, level: Double) {
            let top = ParabolicPeak.interpolate(db(mean[b - 1]), db(mean[b]), db(mean[b + 1]))
            return ((Double(b) + top.offset) * s.binHertz, top.level)
        }
        // The strongest bin is the hum's strongest partial whatever its neighbourhood (at the lowest bins, a 50 Hz
        // hum's harmonics crowd the neighbourhood whose median would judge them); the others count where they stand
        // out of theirs, as ``TonalityAnalysis`` reads partials.
        guard bins > 3, let top = (1..<(bins - 1)).max(by: { mean[$0] < mean[$1] }), mean[top] > 0 else { return nil }
        // A partial falling across the stretch faster than a floor may move (``DecayAnalysis/steadyRate``) is the
        // sound fading into the floor, not the floor: a bell's last partial under the hum. The floor's strongest
        // partial is steady.
        let fading = Self.fading(s, frames: frames)
        guard !fading(top) else { return nil }
        let strongest = peak(top)
        let reference = TonalityAnalysis.localMedian(mean)
        var heard = [strongest]
        for b in 1..<(bins - 1) where b != top && mean[b] >= mean[b - 1] && mean[b] > mean[b + 1] {
            guard mean[b] >= Double(TonalityAnalysis.peakRatio) * reference[b], !fading(b) else { continue }
            let p = peak(b)
            if p.level >= strongest.level - partialRange { heard.append(p) }
        }
        return frequencies.first { mains in
            strongest.frequency <= (strongestHarmonic + 0.5) * mains
                && heard.allSatisfy { p in
                    let harmonic = max(1, (p.frequency / mains).rounded()) * mains
                    return abs(p.frequency - harmonic) <= tolerance * harmonic + s.binHertz / 4
                }
        }
    }
}
