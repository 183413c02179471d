import Foundation

/// What a listener hears of a sound once levels are matched, as numbers two sounds can be compared by: the
/// measurement behind near-duplicates and "more like this" (docs/similarity.md).
///
/// Every level is relative to the sound itself (level-matched); no value depends on where the sound starts in its
/// file, on its sample rate (bands stop under the lower Nyquist frequency, and are compared on the bands both
/// files hold) or on a noise floor far under the sound (levels are floored ``floorDecibels`` under the loudest).
///
/// A **struck** sound (a bell, a chime) is described by:
/// - `partials`: its strong partials (``PartialAnalysis``, within 25 dB of the strongest): pitch in cents re
///   A4 = 440 Hz, and level in dB re the strongest;
/// - `attack`: seconds from 10 % to 90 % of the peak (``OnsetAnalysis``);
/// - `decay`: per band (``PerceptualBands``), seconds to fall 60 dB, from the band's Schroeder curve
///   from the peak on, between 5 and 25 dB down (nil for a band more than 20 dB under the loudest band or one whose
///   curve does not fall 10 dB);
/// - `envelope`: the spectral envelope over time: each band's mean level in ``slices`` after the peak, in dB re
///   the loudest cell, floored at ``floorDecibels``.
///
/// A **texture** (a loop, an ambience) is described, from the band tracks of its short-time spectra (the frames the
/// seam's spectral metric transforms: ``TextureSpectra``; a loop up to ``textureSeconds`` long read as it plays, a
/// cycle, so that a rotation of it reads as itself), by:
/// - `bandLevels`: each band's mean level over the file, dB re the loudest band, floored;
/// - `modulation`: for each of ``modulationGroups`` wide bands (three bands each), the depth of the level's
///   fluctuation in each of ``modulationRates`` (octaves of modulation rate), dB re 100 % modulation, floored at
///   ``modulationFloor``, read frame by frame from the band's amplitude (the square root of its power: a sinusoidal
///   modulation of depth m reads m, and a short hit counts alike wherever it falls between two frames); with each
///   group's level (`modulationLevels`, dB re the loudest group), since the fluctuation of a band far under the
///   others is not heard;
/// - `pulse`: the beat events keep (of the seam's rhythm metric's period, the shortest whole fraction its events
///   keep: a beat loop's kick and snare, a timer's ticks; ``SeamMetrics``' `beatPeriod`), seconds; nil when events
///   keep none (rain, wind, a drone). The modulation spectrum's octaves cannot tell 80 from 100 beats a minute.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct LikenessSignature: Sendable, Codable, Equatable {
    /// Whether the sound is judged as one strike or as a steady texture.
    public enum Kind: String, Sendable, Codable { case struck, texture }

    /// A strong partial: pitch in cents re 440 Hz, level in dB re the strongest partial.
    public struct Partial: Sendable, Codable, Equatable {
        public var cents: Double
        public var level: Double
        public init(cents: Double, level: Double) {
            self.cents = cents
            self.level = level
        }
    }

    public var kind: Kind
    /// Seconds of the file analysed.
    public var duration: Double
    /// Struck: strong partials, lowest first.
    public var partials: [Partial] = []
    /// Struck: all partials found (within 40 dB of the strongest), where a strong partial of another sound is
    /// looked for.
    public var weakPartials: [Partial] = []
    /// Struck: attack time, seconds.
    public var attack: Double?
    /// Struck: seconds to fall 60 dB, per band (nil where not measured).
    public var decay: [Double?] = []
    /// Struck: `slices.count` rows of band levels (dB re the loudest cell).
    public var envelope: [[Double]] = []
    /// Texture: band levels (dB re the loudest band).
    public var bandLevels: [Double] = []
    /// Texture: `modulationGroups` rows of `modulationRates.count` modulation depths (dB re 100 %).
    public var modulation: [[Double]] = []
    /// Texture: each modulation group's level (dB re the loudest group, floored).
    public var modulationLevels: [Double] = []
    /// Texture: the beat events keep, seconds (nil: none).
    public var pulse: Double?

    /// Levels further than this under the loudest band or cell are read as this: 50 dB down, a band is masked
    /// by the loud ones or under the threshold of hearing at any comfortable listening level, and a noise floor
    /// of a good recording stays under it.
    public static let floorDecibels = -50.0
    /// The time slices of the envelope, seconds after the first spectrogram frame wholly after the peak: the
    /// strike's ring, then spans doubling in length as the sound decays (what the ear follows is the level's
    /// course on a log time scale).
    public static let slices: [Range<Double>] = [0..<0.15, 0.15..<0.4, 0.4..<0.9, 0.9..<1.9, 1.9..<3.9]
    /// Bands whose decay is measured lie within this of the loudest band (dB): quieter ones reach the floor too soon.
    public static let decayBandRange = 20.0
    /// How far down each band's Schroeder curve is fitted (dB).
    public static let decayFitDepth = 25.0
    /// Modulation-rate bands, Hz (octaves up to 6 Hz: what any sample rate's spectrogram hop resolves).
    public static let modulationRates: [Range<Double>] = [0.5..<1, 1..<2, 2..<4, 4..<6]

    /// Whether an envelope `seconds` long resolves the modulation-rate `band`: the band is no narrower than the
    /// envelope's DFT bins (1 / `seconds` apart). A loop under 0.5 s resolves none of ``modulationRates``, one under
    /// 2 s not 0.5-1 Hz; a band it does not resolve reads ``modulationFloor``, and two textures are compared on the
    /// bands both resolve (``texture(_:duration:)`` reads at most ``textureSeconds``).
    public static func resolves(_ band: Range<Double>, seconds: Double) -> Bool {
        (band.upperBound - band.lowerBound) * min(seconds, textureSeconds) >= 1
    }
    /// Bands grouped three by three for the modulation spectrum.
    public static let modulationGroups = PerceptualBands.maximumCount / 3
    /// Modulation depths under this are read as this (dB re 100 %): the threshold of detecting amplitude
    /// modulation of a wide-band noise at these rates is about −25 dB (Viemeister 1979).
    public static let modulationFloor = -30.0

    /// The signature of a struck sound from the analyses the audition already made.
    ///
    /// - Parameters:
    ///   - spectrogram: the ``Spectrogram`` of the mono analysis signal.
    ///   - peakTime: the envelope peak, seconds on the spectra's clock (``DecayAnalysis/peakTime``).
    ///   - partials: ``PartialAnalysis`` of the same signal.
    ///   - attack: ``OnsetAnalysis/attack``, seconds.
    ///   - duration: the seconds of the signal the spectra were drawn from.
    public static func struck(
        spectrogram: Spectrogram, peakTime: Double, partials: PartialAnalysis, attack: Double?, duration: Double
    ) -> LikenessSignature {
        struck(
            spectrogram: spectrogram, peakTime: peakTime, partials: partials.partials, attack: attack,
            duration: duration)
    }

    /// The signature of a struck sound from the partials an audition row carries (its
    /// ``PartialAnalysis/partials``), so a report or a batch builds it from each file's one analysis.
    public static func struck(
        spectrogram: Spectrogram, peakTime: Double, partials: [PartialAnalysis.Partial], attack: Double?,
        duration: Double
    ) -> LikenessSignature {
        var s = LikenessSignature(kind: .struck, duration: duration)
        func partial(_ p: PartialAnalysis.Partial) -> Partial {
            Partial(cents: 1200 * log2(p.frequency / 440), level: p.level)
        }
        s.partials = partials.filter { $0.level >= PartialAnalysis.strongLevel }.map(partial)
        s.weakPartials = partials.map(partial)
        s.attack = attack
        let (n, power) = PerceptualBands.bandPower(spectrogram)
        let hop = spectrogram.hopSeconds
        let frames = spectrogram.frameCount
        guard n > 0, frames > 0 else { return s }
        // Band power at time t (s) by linear interpolation between frame centres; 0 past the end.
        func at(_ t: Double, _ band: Int) -> Double {
            let x = t / hop
            let k = Int(x.rounded(.down))
            guard k >= 0, k < frames else { return 0 }
            let a = power[k * n + band]
            let b = k + 1 < frames ? power[(k + 1) * n + band] : 0
            let w = x - Double(k)
            return a * (1 - w) + b * w
        }
        // The first time whose frame holds no sound from before the peak: half a frame (one hop) after it.
        let start = peakTime + hop
        let step = 0.01
        var cells: [[Double]] = slices.map { r in
            (0..<n).map { band in
                var sum = 0.0
                var count = 0
                var t = r.lowerBound
                while t < r.upperBound {
                    sum += at(start + t, band)
                    count += 1
                    t += step
                }
                return sum / Double(max(1, count))
            }
        }
        let top = cells.flatMap { $0 }.max() ?? 0
        cells = cells.map { row in row.map { Self.decibels($0, re: top) } }
        s.envelope = cells

        // Per-band decay from the band tracks after the peak.
        let first = max(0, Int((peakTime / hop).rounded(.down)))
        let maxima: [Double] = (0..<n).map { band in
            var m = 0.0
            for k in first..<frames { m = max(m, power[k * n + band]) }
            return m
        }
        let loudest = maxima.max() ?? 0
        s.decay = (0..<n).map { band in
            guard loudest > 0, maxima[band] > 0,
                10 * log10(maxima[band] / loudest) >= -decayBandRange
            else { return nil }
            let track = (first..<frames).map { power[$0 * n + band] }
            return Self.decayTime(track, hop: hop)
        }
        return s
    }

    /// The signature with every figure rounded to a hundredth of its JND or finer: cents and decibels to 0.01, seconds
    /// to 0.1 ms. What is written in a row (`bells audition --json`) is then the signature itself, a few kilobytes
    /// instead of twice that in full doubles, and a batch groups with the very figures its rows carry, so grouping the
    /// rows again (shards) gives the same groups. Rounding moves a distance by under 0.01 JND.
    public func rounded() -> LikenessSignature {
        // Scaled, rounded and divided by an exact power of ten: the JSON then prints 3.5361, not 3.5361000000000002.
        func r(_ x: Double, _ scale: Double) -> Double { x.isFinite ? (x * scale).rounded() / scale : x }
        func partials(_ ps: [Partial]) -> [Partial] {
            ps.map { Partial(cents: r($0.cents, 100), level: r($0.level, 100)) }
        }
        var s = self
        s.duration = r(duration, 10_000)
        s.partials = partials(self.partials)
        s.weakPartials = partials(weakPartials)
        s.attack = attack.map { r($0, 10_000) }
        s.decay = decay.map { $0.map { r($0, 10_000) } }
        s.envelope = envelope.map { $0.map { r($0, 100) } }
        s.bandLevels = bandLevels.map { r($0, 100) }
        s.modulation = modulation.map { $0.map { r($0, 100) } }
        s.modulationLevels = modulationLevels.map { r($0, 100) }
        s.pulse = pulse.map { r($0, 10_000) }
        return s
    }

    /// The longest stretch of a texture analysed (s): a minute holds every fluctuation the signature measures
    /// (down to 0.5 Hz) many times over.
    public static let textureSeconds = 60.0

    /// The signature of a texture (loop, ambience) from the band tracks of its short-time spectra
    /// (``TextureSpectra``, all frames added); `duration` is the file's, in seconds.
    public static func texture(_ spectra: TextureSpectra, duration: Double) -> LikenessSignature {
        var s = LikenessSignature(kind: .texture, duration: duration)
        let (n, all) = (spectra.bands, spectra.steps)
        guard n > 0, all.count >= n else { return s }
        // A loop read as a cycle is sound all through (a gap in it is heard every time round), its frames after the
        // last whole step included. Otherwise, the frames wholly inside the sound: silence before or after it (a pad)
        // and the frames whose window straddles its edges would read as a fluctuation of the texture.
        let cyclic = spectra.wrapFrames > 0
        let sound = cyclic ? 0..<(all.count / n) : soundFrames(all, bands: n)
        var totals = [Double](repeating: 0, count: n)
        for k in sound { for band in 0..<n { totals[band] += all[k * n + band] } }
        if cyclic && !spectra.power.isEmpty { for (band, p) in spectra.rest.enumerated() { totals[band] += p } }
        let top = totals.max() ?? 0
        s.bandLevels = totals.map { Self.decibels($0, re: top) }
        // Modulation: each wide band's amplitude envelope over frames, as a fraction of its mean, and the depth of its
        // fluctuation within each rate band (a sinusoidal modulation of depth m has variance m²/2). The amplitude,
        // not the power: a hit much shorter than a frame falls in two frames half a frame apart, whose Hann windows'
        // values there add to 1 but whose squares add to 0.5–1, so in power its weight would depend on where it
        // falls between frames (up to 3 dB), and a rotated loop's hits would read other fluctuations.
        let groups = spectra.groups
        let perStep = TextureSpectra.framesPerStep
        let soundEnd = min(sound.upperBound * perStep, spectra.framesRead)
        let frames: Range<Int> = cyclic ? 0..<spectra.framesRead : (sound.lowerBound * perStep)..<soundEnd
        let groupTotals: [Double] = (0..<groups).map { g in
            var sum = 0.0
            for band in (3 * g)..<(3 * g + 3) { sum += totals[band] }
            return sum
        }
        let loudestGroup = groupTotals.max() ?? 0
        s.modulationLevels = groupTotals.map { Self.decibels($0, re: loudestGroup) }
        // Each group's envelope as a fraction of its mean (nil: a group without power).
        let power = spectra.groupPower
        // A cycle's frames start every half frame up to its end, so the last ones reach past a whole cycle by up to
        // a half frame, and what lies there (a hit on the loop's first frame) is read twice. Its envelope is taken
        // at as many points spread evenly over exactly one cycle, each between the two frames around it.
        let cycle = Double(spectra.loopSamples) / Double(spectra.size / 2)
        let envelopes: [[Double]?] = (0..<groups).map { g in
            var env = frames.map { power[$0 * groups + g].squareRoot() }
            if cyclic && env.count >= 2 {
                let read = env
                let step = cycle / Double(read.count)
                env = (0..<read.count).map { j in
                    let u = Double(j) * step
                    let k = min(Int(u), read.count - 2)
                    return read[k] + (u - Double(k)) * (read[k + 1] - read[k])
                }
            }
            let mean = env.reduce(0, +) / Double(max(1, env.count))
            guard mean > 0 else { return nil }
            return env.map { $0 / mean - 1 }
        }
        let envelopeRate = cyclic ? Double(frames.count) / (cycle * spectra.frameSeconds) : 1 / spectra.frameSeconds
        s.modulation = modulationDepths(envelopes, frameRate: envelopeRate)
        return s
    }

    /// The modulation depth (dB re 100 %, floored at ``modulationFloor``) of each relative envelope in each of the
    /// ``modulationRates``: twice the variance of its DFT bins within the rate band (a sinusoidal modulation of
    /// depth m has variance m²/2). A rate within ``rateEdgeShare`` of a band's edge is shared by the bands on either
    /// side (``rateShare(_:in:)``), so a modulation near an edge (a 2-bar loop's sixth bar harmonic, at 2 Hz from
    /// 80 bpm) moves from one band to the next as its rate does, not all at once. A rate band narrower than a bin
    /// (1/T, T the envelope's length) reads the floor: the envelope does not resolve it (a 0.3 s loop's only
    /// modulation lies at its own rate and its harmonics, 3.3 Hz apart, each read from a handful of frames). A `nil`
    /// envelope (a group without power) reads the floor at every rate.
    ///
    /// The cosine and sine of each bin's phase at each frame are read from one table of the unit circle in
    /// `frames` steps (bin `f` at frame `k` is the angle 2π·(f·k mod frames)/frames: the same angle, reduced), made
    /// once for all bins and envelopes; each envelope sums its terms in frame order. The trigonometry was most of a
    /// 30 s loop's signature.
    static func modulationDepths(_ envelopes: [[Double]?], frameRate: Double) -> [[Double]] {
        let frames = envelopes.lazy.compactMap { $0 }.first?.count ?? 0
        var depths = envelopes.map { _ in [Double](repeating: modulationFloor, count: modulationRates.count) }
        // Bin f is the rate f·width. A rate band narrower than a bin is not resolved (``resolves(_:seconds:)``): an
        // envelope that short reads no depth in it.
        let width = frameRate / Double(frames)
        let rates = modulationRates.filter { $0.upperBound <= frameRate / 2 && resolves($0, seconds: 1 / width) }
        guard frames >= 8, let fastest = rates.last?.upperBound else { return depths }
        let lastBin = min(frames / 2, Int((fastest * (1 + rateEdgeShare) / width).rounded(.up)))
        guard lastBin >= 1 else { return depths }
        var cosines = [Double](repeating: 0, count: frames)
        var sines = [Double](repeating: 0, count: frames)
        let circle = (0..<frames).map { j in 2 * Double.pi * Double(j) / Double(frames) }
        let unitCosines = circle.map { cos($0) }
        let unitSines = circle.map { sin($0) }
        var variance = [[Double]](repeating: [Double](repeating: 0, count: rates.count), count: envelopes.count)
        for f in 1...lastBin {
            let shares = rates.map { rateShare(Double(f) * width, in: $0) }
            guard shares.contains(where: { $0 > 0 }) else { continue }
            var j = 0
            for k in 0..<frames {
                cosines[k] = unitCosines[j]
                sines[k] = unitSines[j]
                j += f
                if j >= frames { j -= frames }
            }
            for (g, m) in envelopes.enumerated() {
                guard let m else { continue }
                var re = 0.0
                var im = 0.0
                for k in 0..<frames {
                    re += m[k] * cosines[k]
                    im -= m[k] * sines[k]
                }
                let power = 2 * (re * re + im * im) / Double(frames * frames)
                for (ri, share) in shares.enumerated() where share > 0 { variance[g][ri] += share * power }
            }
        }
        for g in envelopes.indices where envelopes[g] != nil {
            for (ri, r) in rates.enumerated() {
                let depth2 = 2 * variance[g][ri]
                let at = modulationRates.firstIndex(of: r)!
                depths[g][at] = depth2 > 0 ? max(modulationFloor, 10 * log10(depth2)) : modulationFloor
            }
        }
        return depths
    }

    /// How near a band's edge (a fraction of the rate) a modulation is shared with the band beyond: 4 %, the tempo's
    /// JND (``LikenessComponent``'s `tempo`). Two loops whose rates a listener cannot tell apart read alike, and a
    /// loop's harmonic on an edge (2 Hz) counts half to each band.
    public static let rateEdgeShare = 0.04

    /// The share of a modulation at `rate` (Hz) that `band` reads: 1 inside it, 0 outside it, and from 0 to 1
    /// linearly in the logarithm of the rate across ±``rateEdgeShare`` around each edge (½ on the edge); the shares of
    /// adjacent bands add to 1.
    static func rateShare(_ rate: Double, in band: Range<Double>) -> Double {
        func above(_ edge: Double) -> Double {
            min(1, max(0, (log(rate / edge) / log(1 + rateEdgeShare) + 1) / 2))
        }
        return above(band.lowerBound) - above(band.upperBound)
    }

    /// A texture's frames within its sound: from its first frame within ``silenceDecibels`` of the median frame's
    /// power to its last, each left out when silence lies beyond it (its window straddles the sound's edge); all
    /// frames when fewer than 10 would remain. A frame at the file's first or last step is wholly sound: a loop that
    /// starts on a hit holds all of it.
    static func soundFrames(_ power: [Double], bands n: Int) -> Range<Int> {
        let frames = power.count / n
        let totals = (0..<frames).map { k in power[(k * n)..<(k * n + n)].reduce(0, +) }
        let median = totals.sorted()[frames / 2]
        let threshold = median * pow(10, silenceDecibels / 10)
        guard let first = totals.firstIndex(where: { $0 > threshold }),
            let last = totals.lastIndex(where: { $0 > threshold }), last - first >= 10
        else { return 0..<frames }
        return (first > 0 ? first + 1 : 0)..<(last < frames - 1 ? last : frames)
    }

    /// Frames of a texture this far under its median frame are silence around it (dB).
    public static let silenceDecibels = -30.0

    /// `value` in dB re `reference`, floored at ``floorDecibels``.
    static func decibels(_ value: Double, re reference: Double) -> Double {
        guard value > 0, reference > 0 else { return floorDecibels }
        return max(floorDecibels, 10 * log10(value / reference))
    }

    /// Seconds to fall 60 dB from a band's power `track` (one value per frame of `hop` s, from the peak on): from the
    /// times its Schroeder curve (the power still to come, integrated backwards, in dB) crosses 5 dB and
    /// ``decayFitDepth`` down, as T20 is read from a room's (ISO 3382-1). The integral smooths the beating of close
    /// partials, and the crossing times are interpolated between frames, so a copy padded by a few milliseconds or
    /// resampled reads the same. A curve that the file's end cuts before it reaches the depth (its last 10 % bends
    /// down with the end) is read to where that bend starts, if it has fallen 10 dB there. Nil otherwise.
    static func decayTime(_ track: [Double], hop: Double) -> Double? {
        guard track.count >= 3 else { return nil }
        var sum = 0.0
        var remaining = [Double](repeating: 0, count: track.count)
        for k in track.indices.reversed() {
            sum += track[k]
            remaining[k] = sum
        }
        guard sum > 0 else { return nil }
        let curve = remaining.map { $0 > 0 ? 10 * log10($0 / sum) : -300 }
        let usable = max(1, curve.count - curve.count / 10)
        /// The interpolated time (in frames) where the curve first falls to `level`, within the usable frames.
        func crossing(_ level: Double) -> Double? {
            guard let k = curve.prefix(usable).firstIndex(where: { $0 <= level }) else { return nil }
            guard k > 0 else { return 0 }
            let (a, b) = (curve[k - 1], curve[k])
            return Double(k - 1) + (a - level) / max(a - b, 1e-12)
        }
        guard let start = crossing(-5) else { return nil }
        let depth: Double
        let end: Double
        if let t = crossing(-decayFitDepth) {
            (depth, end) = (decayFitDepth, t)
        } else {
            (depth, end) = (-curve[usable - 1], Double(usable - 1))
        }
        guard depth - 5 >= 10, end > start else { return nil }
        return 60 * (end - start) * hop / (depth - 5)
    }
}
