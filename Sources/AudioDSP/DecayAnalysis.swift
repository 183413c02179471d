import AudioCore
import Foundation

/// How a struck sound dies away: level drops from the peak, Schroeder decay times, noise floor, and
/// whether the file ends while the sound still rings.
///
/// Definitions (all from one signal, `mono`: the analysis signal the caller's other measures read, by default the
/// buffer's mono mix; a 10 ms RMS envelope of it at a 5 ms hop, edges padded with edge values). A stereo file and its
/// fold to mono (the mix itself) so give the same decay, but for the gain: a wide stereo file's channels' power and
/// its mix rise and fall differently, by several dB frame by frame, and an envelope of the one with spectra, strikes
/// and partials of the other would read a different peak from them.
/// - the peak: the envelope's loudest value; for a sound read under its clipping, its time is the first top within
///   ``ClippedTops/peakTolerance`` of the loudest (tops closer than that reading can order are one peak).
/// - `d20`, `d40`, `d60`: seconds from the envelope peak to the last time the envelope is above
///   peak − 20/40/60 dB (so a beat's dip does not end the decay early); `nil` when the level is not reached
///   before the file ends, before the noise floor, or before a final fade over a sound still ringing (a fade over
///   a sound already falling faster than a bell, ``ringingRate``, is read as part of its decay).
/// - `edt`, `t20`, `t30`: Schroeder backward integration of the power from the peak, with the noise floor's
///   power subtracted and the integral stopped where the envelope meets the floor (+5 dB); the slope of a
///   least-squares line over 0…−10 dB (×6), −5…−25 dB (×3), −5…−35 dB (×2) gives the time to fall 60 dB.
/// - `d40Extrapolated`: when the file ends (or meets its floor) before −40 dB, the time to fall 40 dB from a clean
///   decay: the envelope from its first crossing of −3 dB to the deepest level it reaches before the last 100 ms (a
///   final fade over a ringing sound is not its decay) and above any floor + 3 dB, read as the sound's own level (the
///   floor's power taken out, as for the Schroeder integral); a least-squares line through its last 10 dB, carried on
///   from there to −40 dB: a struck sound's partials each decay at their own rate, so its level falls ever slower and
///   the rate where it was last seen is the one to carry on (the rate from −3 dB, the bright partials' quick start,
///   read cut rings short; noise that holds the level up near a floor read them long); only from at least 10 dB of
///   decay seen (the span of an EDT, ISO 3382), else nil.
/// - `noiseFloor`: RMS level (dBFS, the median of the envelope) of the last part of the file (last 20 %, at least
///   0.3 s, after the peak) when that tail is a floor, not the sound: steady (its level moves less than 5 dB/s, and
///   less than 1 dB across the tail or at under half the rate it fell just before: ``steadyRate``, ``steadyChange``,
///   ``levellingOff``; frames that run past the end of the file are left out), and either noise (under half of its
///   power in partials, ``TonalityAnalysis/tonality(_:frames:)``, over the tail or over its last half: a ring that
///   sinks under a steady noise before the file ends, whose floor is then the level of that half; its level is its
///   median bin level; the tail's own level falling no faster than a bell rings, ``ringingRate``) or mains hum (every
///   partial on a harmonic of 50 or 60 Hz, ``MainsHum``; `humFrequency` says which). A bell cut off while it rings
///   keeps its partials, off the mains harmonics, to the end (no floor: a truncated tail); a decaying noise-like
///   sound, or a ring cut while it still falls at its own rate, falls across the tail (no floor: it lies below the
///   end). Where the tail reads no floor, mains hum heard through the whole file (``MainsHum/throughout(_:frames:)``,
///   its lines' mean square, under the peak by ``overFloor`` at least) is the floor, even under a sound still fading
///   into it when the file ends. Where neither does (a noise tail after the sound shorter than the 0.3 s), a steady
///   noise held 0.3 s or more before the sound and again at the end is (``floorBeforeTheSound``). `nil` when the file
///   ends in decay or digital silence.
/// - the end: the end of the file, or a cut that only silence follows (``hardStop(_:after:hop:)``: a ringing sound
///   falling ``stopFall`` within 10 ms and staying there, as an MP3's padding or digital zeros follow a cut; or a
///   silence too short to fill a 10 ms window after a ringing sound's cut,
///   ``shortSilenceCut(_:_:after:window:hop:blockFrames:)``); the readings of the end below (`endLevel`, `endSlope`, `cutLevel`, `endsWithFade`, `ringingAtEnd`, the level drops
///   and the extrapolation) are taken there, and the silence after a cut is no part of the sound.
/// - `endSlope`: the sound's own decay rate at the end: a least-squares line over the last second before the final
///   100 ms, started no earlier than the sound's last restart (``lastRestart(_:from:loudest:)``: a top within 10 dB
///   of the peak that the level climbed back to by 6 dB or more: a beep, note or chirp after the peak), so that the
///   rate of a sequence of equal tops is the rate of its last one, wherever among them the loudest lies. Under a
///   final fade that hides a ringing sound, the rate it was ringing at (below).
/// - `cutLevel`: the level (dB re peak) the sound had where the file stops it: the level at the end, or, when a
///   final fade hides it, the level the sound would have reached at the end without the fade: the largest, over the
///   last 150 ms, of the envelope carried on to the end at the sound's own decay rate (`endSlope`, if falling).
/// - `endsWithFade`: the level carried on from the last 150 ms is 10 dB or more above the level at the end.
/// - `ringingAtEnd`: the sound is still sounding where the file stops it: `cutLevel` is above −50 dB and 10 dB
///   above any noise floor, and either the last 10 ms still sound at that level (the stop itself is heard, however
///   short a fade before it) or, under a longer fade, the sound was
///   still ringing, falling no faster than a bell (40 dB in 1.5 s or more, ``ringingRate``): a fade that only hastens
///   a sound already dying fast removes nothing heard. The rate under the fade is the slower of two readings, each
///   biased fast: over the last second (a ring whose bright partials die first falls fast at its start, and a struck
///   sound's level falls ever slower) and over the last 10 dB before the fade's start since the level last climbed
///   6 dB (which may hold the fade's first part). A fade of half a second or more (``longFade(_:after:end:hop:)``)
///   hides no ring: it is heard as the sound dying faster, and read as its decay. Whether the cut is audible enough
///   to be a defect is the caller's threshold on `cutLevel` (``BellDefect``).
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct DecayAnalysis: Sendable, Codable, Equatable {
    public var peakTime: Double
    /// Envelope peak, dBFS RMS of the signal read (`mono`: the mono mix, or the channel the caller analyses).
    public var peakLevel: Double
    public var d20: Double?
    public var d40: Double?
    public var d60: Double?
    public var d40Extrapolated: Double?
    public var edt: Double?
    public var t20: Double?
    public var t30: Double?
    public var noiseFloor: Double?
    /// The mains frequency (50 or 60 Hz) when the floor is hum rather than noise (``MainsHum``); nil otherwise.
    public var humFrequency: Double?
    public var ringingAtEnd: Bool
    public var endsWithFade: Bool
    /// Level at the end of the file (last 10 ms, dB relative to the peak).
    public var endLevel: Double
    /// The level the sound had where the file stops it (dB re peak; see above).
    public var cutLevel: Double
    /// Decay rate over the last second before the final 100 ms, from the sound's last restart when later
    /// (``lastRestart(_:from:loudest:)``), dB per second (negative = decaying); under a final fade over a ringing
    /// sound, the rate it rang at there (see above).
    public var endSlope: Double
    /// Where a final fade over a still ringing sound starts (seconds from the start of the file): the file's edit, not
    /// the sound, which the strikes leave out (its spread of the partials is no new note). Nil when the file does not
    /// end in such a fade. Not encoded.
    public var editFadeStart: Double?
    /// The envelope in dB relative to the peak, every `curveHop` seconds (for plots; not encoded).
    public var curve: [Double] = []
    /// The Schroeder curve in dB, every `curveHop` seconds from the peak (for plots; not encoded).
    public var schroeder: [Double] = []
    public var curveHop: Double = 0.005
    /// The time of `curve[0]` (seconds from the start of the file): 0, but for an analysis of a sound that starts
    /// after the file does (``startingAt(_:)``). Not encoded.
    public var curveStart: Double = 0

    enum CodingKeys: String, CodingKey {
        case peakTime, peakLevel, d20, d40, d60, d40Extrapolated, edt, t20, t30, noiseFloor, humFrequency, ringingAtEnd,
            endsWithFade, endLevel, cutLevel, endSlope
    }

    /// This analysis of a sound that starts `seconds` into its file, with its times (`peakTime`, `editFadeStart`,
    /// `curveStart`) on the file's clock; its durations and levels are the same.
    public func startingAt(_ seconds: Double) -> DecayAnalysis {
        var d = self
        d.peakTime += seconds
        d.editFadeStart = editFadeStart.map { $0 + seconds }
        d.curveStart += seconds
        return d
    }

    /// The fastest decay still heard as ringing: 40 dB in 1.5 s (dB/s), the decay of a bell (docs/bells.md).
    public static let ringingRate = 40 / 1.5
    /// How far under the peak (dB) a restart of the sound may top out: the level a note must reach to count
    /// (``StrikeFigure/noteLevel``, 10 dB: heard as half as loud or louder), read here on the 10 ms envelope's tops
    /// (docs/bells.md, "one 10 dB read one way"). Quieter returns are the ring's own beating or an ornament.
    public static let restartLevel = -StrikeFigure.noteLevel
    /// How far (dB) the level must climb back from the lowest it fell to since the peak for a top to be a restart:
    /// 6 dB, its amplitude doubled: the sound starts again (a beep, a note, a chirp), not a ring easing back up.
    public static let restartRise = 6.0
    /// The fastest a floor's level may move (dB/s): a noise or hum floor is steady.
    public static let steadyRate = 5.0
    /// The most a floor's level may move across the tail it is read from (dB): 1 dB, about the smallest level change
    /// heard. A tail that falls more is still decaying, the sound itself (a cymbal's wash falling 3–4 dB/s falls 1.3 dB
    /// in the shortest tail read, 0.3 s): its floor lies below the end of the file.
    public static let steadyChange = 1.0
    /// A tail falling at under this share of the rate just before it (half) is a decay levelling off onto its floor
    /// (the sound's noise meets the recording's and stops falling); a ring cut while it rings falls on at its own rate.
    public static let levellingOff = 0.5
    /// How far a sound stands over a floor to be heard over it (dB): a cut 10 dB over the floor is still the sound
    /// stopping (`ringingAtEnd`); a floor the sound never rises 10 dB over is not under the sound but the sound itself
    /// (a steady noise: a shutter, a test signal), as a decay needs 10 dB to be read at all (the span of an EDT).
    public static let overFloor = 10.0

    /// Analyses `buffer`, through the one signal `mono`. Returns nil when it has no energy.
    ///
    /// - Parameters:
    ///   - mono: the signal every reading is of, as long as `buffer` and finite: the buffer's
    ///     ``AudioBuffer/finiteMonoMix()`` by default (mixed here), or the analysis signal the caller's other
    ///     measures read (a channel, when the mix is not the sound).
    ///   - spectrogram: its ``Spectrogram`` when at hand (made here otherwise), for the noise floor's test.
    ///   - peakTolerance: how far (dB) under the envelope's loudest value a top of it may lie and still be the
    ///     peak the decay is measured from: the first such top is (``peakIndex(_:loudest:tolerance:)``). 0, the
    ///     default, for a sound read as it is: the loudest value. A sound read under its clipping passes
    ///     ``ClippedTops/peakTolerance``. `peakLevel` is the loudest value either way.
    ///   - recorded: the signal as recorded, when `mono` is it through a DC blocker (as long, finite). A cut is
    ///     read on it too: where the offset stops with the sound (a cut to digital silence), the blocker turns the
    ///     offset's end into a step that dies away over tens of milliseconds (a 4 Hz corner: 30 dB in 0.14 s), and
    ///     `mono` no longer falls 30 dB within 10 ms there.
    public init?(
        _ buffer: AudioBuffer, mono: [Float]? = nil, spectrogram: Spectrogram? = nil, peakTolerance: Double = 0,
        recorded: [Float]? = nil
    ) {
        // Every reading below (envelope, floor, Schroeder integral) is of the one signal `mono`.
        let mono = mono ?? buffer.finiteMonoMix()
        let env = Self.envelope(mono, sampleRate: buffer.sampleRate)
        guard let loudest = env.peak, loudest.value > 0 else { return nil }
        let peak = (
            index: Self.peakIndex(env.values, loudest: loudest, tolerance: peakTolerance), value: loudest.value
        )
        let hop = env.hopSeconds
        curveHop = hop
        let db = env.decibels()
        let p = 20 * log10(peak.value)
        peakTime = env.time(of: peak.index)
        peakLevel = p
        let n = db.count
        func frames(_ seconds: Double) -> Int { Self.values(seconds, hop: hop) }

        // Noise floor: the tail (last 20 %, at least 0.3 s, after the peak) when it is noise rather than the sound:
        // little of its power in partials, and a stationary noise level.
        let tailStart = max(peak.index + 1, n - max(frames(0.3), n / 5))
        var floor: Double?
        if tailStart < n - 2 {
            let tail = Array(db[tailStart..<n])
            let median = Self.median(tail[...])
            if median > -120 {
                let spec = spectrogram ?? Spectrogram(mono: mono, sampleRate: buffer.sampleRate.double)
                let first = Int((Double(tailStart) * hop / spec.hopSeconds).rounded(.up))
                // Frames whose window runs past the end of the file read the silence after it as a fall: left out.
                let inside = min(spec.frameCount, max(0, (mono.count - spec.size / 2) / (spec.size / 2) + 1))
                let tailFrames = min(first, inside)..<inside
                let tailSeconds = Double(n - tailStart) * hop
                // As many frames just before the tail (after the peak): how fast the level fell there.
                let peakFrame = Int((Double(peak.index) * hop / spec.hopSeconds).rounded(.up))
                let beforeFrames =
                    min(
                        tailFrames.lowerBound, max(peakFrame, 2 * tailFrames.lowerBound - inside))..<tailFrames
                    .lowerBound
                // Steady: a floor does not decay. Its level moves under 1 dB across the tail, or the decay has levelled
                // off onto it (the tail falls at under half the rate of the stretch before); a tail still falling at
                // its own rate is the sound, and the floor lies below the end. A noise floor's tail may still hold the
                // last of a ring fading into it, but no sound falling faster than a bell rings: that is a sound dying
                // in a noise-like spectrum, not a floor.
                func steady(_ slope: Double, before: Double?) -> Bool {
                    guard abs(slope) <= Self.steadyRate else { return false }
                    if abs(slope) * tailSeconds <= Self.steadyChange { return true }
                    return before.map { $0 < 0 && slope > $0 * Self.levellingOff } ?? false
                }
                let tonal = TonalityAnalysis.tonality(spec, frames: tailFrames).map {
                    $0 >= TonalityAnalysis.tonalShare
                }
                // The tail's last half (at least 3 frames): a ring that fades into a steady noise and sinks under it
                // before the file ends leaves a tail carried by its partials on the whole (tonal) and ending in the
                // noise. Such a tail ends on its floor, at the level of that half.
                let endFrames =
                    max(
                        tailFrames.lowerBound, tailFrames.upperBound - max(3, tailFrames.count / 2))..<tailFrames
                    .upperBound
                func noiseAtEnd() -> Bool {
                    TonalityAnalysis.tonality(spec, frames: endFrames).map { $0 < TonalityAnalysis.tonalShare } ?? false
                }
                // The envelope's median over the frames of that half.
                func endMedian() -> Double {
                    let endStart = min(
                        n - 1, max(tailStart, Int((Double(endFrames.lowerBound) * spec.hopSeconds / hop).rounded())))
                    return Self.median(db[endStart..<n])
                }
                if let mains = MainsHum.frequency(spec, frames: tailFrames),
                    steady(Self.slope(tail, hop: hop), before: nil)
                {
                    (floor, humFrequency) = (median, mains)
                } else if tonal == false || (tonal == true && noiseAtEnd()),
                    let d = TonalityAnalysis.noiseSlope(spec, frames: tailFrames),
                    steady(d, before: TonalityAnalysis.noiseSlope(spec, frames: beforeFrames)),
                    Self.slope(tail, hop: hop) >= -Self.ringingRate
                {
                    floor = tonal == false ? median : endMedian()
                }
                // A hum heard through the whole file is the floor even where the sound still fades into it at the
                // end (the tail's level falling, its loudest partial the sound's), unless it is within 10 dB of the
                // peak: then it is no floor under the sound but part of it.
                if floor == nil, let hum = MainsHum.throughout(spec, frames: 1..<inside),
                    hum.level < p - Self.overFloor
                {
                    (floor, humFrequency) = (hum.level, hum.frequency)
                }
            }
        }
        // Where neither reads one, the floor held before the sound and again at the end (``floorBeforeTheSound``).
        if floor == nil {
            floor = Self.floorBeforeTheSound(
                db, peakIndex: peak.index, hop: hop,
                spectrogram: { spectrogram ?? Spectrogram(mono: mono, sampleRate: buffer.sampleRate.double) })
        }
        noiseFloor = floor

        // The end: the file's, or a cut that only silence follows (a codec's padding, digital zeros): the silence
        // after a cut is no part of the sound. Level and slope there.
        // The rate is read from the sound's last restart (a beep, note or chirp after the peak) when one lies in the
        // last second: a line across the starts of a sequence of equal tops is no decay. A restart that leaves too
        // little before the last 100 ms to read a rate from is passed over. Nil when too little is left to read.
        let restart = Self.lastRestart(env.values, from: peak.index, loudest: peak.value)
        func rate(endingAt m: Int) -> Double? {
            let slopeEnd = max(peak.index + 1, m - frames(0.1))
            let slopeStart = max(slopeEnd - restart >= 4 ? restart : peak.index, m - frames(1.1))
            return slopeEnd - slopeStart >= 4 ? Self.slope(Array(db[slopeStart..<slopeEnd]), hop: hop) : nil
        }
        // A silence shorter than a window after a cut ends the sound at the cut when the sound was still ringing
        // there: its own rate at the end, read up to the cut, no faster than a bell's.
        let shortCut = Self.shortSilenceCut(
            mono, db, after: peak.index, window: Int(buffer.sampleRate.frames(seconds: env.windowSeconds)),
            hop: Int(buffer.sampleRate.frames(seconds: hop)),
            blockFrames: Int(buffer.sampleRate.frames(seconds: Self.silenceBlock)))
        // A cut in the signal as recorded, where the DC blocker smears it (the values are on the same grid).
        func recordedStop() -> Int? {
            recorded.flatMap {
                Self.hardStop(Self.envelope($0, sampleRate: buffer.sampleRate).decibels(), after: peak.index, hop: hop)
            }
        }
        let m =
            Self.hardStop(db, after: peak.index, hop: hop) ?? recordedStop()
            ?? shortCut.flatMap { cut in rate(endingAt: cut).flatMap { $0 >= -Self.ringingRate ? cut : nil } } ?? n
        let end = db[max(0, m - frames(0.01))..<m]
        endLevel = end.reduce(0, +) / Double(end.count) - p
        let measuredRate = rate(endingAt: m)
        let slopeMeasured = measuredRate != nil
        endSlope = measuredRate ?? 0
        // The level at the cut: each of the last 150 ms (after the peak) carried on to the end at the sound's own
        // rate; the frame that gives the most is where a final fade starts.
        let fall = min(0, endSlope)
        var faded = endLevel
        var fadeStart = m
        for k in max(peak.index + 1, m - frames(0.15))..<m {
            let carried = db[k] - p + fall * Double(m - 1 - k) * hop
            if carried > faded { (faded, fadeStart) = (carried, k) }
        }
        endsWithFade = faded - endLevel >= 10
        // A fade hides a cut only if the sound was still ringing under it (its decay rate measured, and a bell's). Two
        // readings of the rate, each biased fast, the slower taken: over the last second (``endSlope``), which holds
        // a ring's quick start when its bright partials die first (a struck sound's level falls ever slower), and
        // over its last 10 dB before the fade's start since it last climbed 6 dB, which may hold the fade's first
        // part.
        // Fewer than four values since the last rise (a note topping just before the fade) give no rate to read. Read
        // only under a fade (`restart` is the peak when the sound has no restart).
        var rateUnderFade = endSlope
        if endsWithFade && slopeMeasured {
            let lastFall = Self.lastTenDecibels(Self.sinceLastRise(db[restart..<max(restart, fadeStart)]))
            if lastFall.count >= 4 { rateUnderFade = max(endSlope, Self.slope(Array(lastFall), hop: hop)) }
        }
        let ringingUnderFade =
            endsWithFade && slopeMeasured && -rateUnderFade <= Self.ringingRate
            && !Self.longFade(db, after: peak.index, end: m, hop: hop)
        cutLevel = ringingUnderFade ? faded : endLevel
        if ringingUnderFade { (editFadeStart, endSlope) = (env.time(of: fadeStart), rateUnderFade) }
        func aboveFloor(_ level: Double) -> Bool { floor.map { level + p > $0 + Self.overFloor } ?? true }
        // Still sounding where the file stops it: its last 10 ms still sound (the stop is heard, fade or not), or a
        // fade hides a ringing sound.
        let stopped = endLevel > -50 && aboveFloor(endLevel) && peak.index < m - 1
        ringingAtEnd = stopped || (ringingUnderFade && faded > -50 && aboveFloor(faded))

        // Level drops: last time above peak − X, only while above the floor + 3 dB and before a final fade that hides
        // a ringing sound (that fade is not the sound's decay). A fade over a sound already dying faster than a bell
        // removes nothing heard: it is read as more of the decay, so a quick alert that ends in a fade still has one.
        let decayEnd = ringingUnderFade ? fadeStart : m
        func drop(_ x: Double) -> Double? {
            let level = p - x
            if let f = floor, level < f + 3 { return nil }
            guard decayEnd > peak.index, let last = db[peak.index..<decayEnd].lastIndex(where: { $0 > level }) else {
                return nil
            }
            if last == decayEnd - 1 { return nil }
            return Double(last - peak.index) * hop + hop / 2
        }
        d20 = drop(20)
        d40 = drop(40)
        d60 = drop(60)

        // A decay the file cuts short: a line through the last 10 dB of what the envelope reads from −3 dB to the
        // deepest level reached (before the last 100 ms and any final fade, above the floor), extended to −40 dB, once
        // the level has fallen 10 dB from the peak.
        if d40 == nil {
            // Up to where a final fade starts (until then the level is the sound's own) and outside the file's last
            // 100 ms, whichever comes first.
            let lastUsable = max(peak.index, min(decayEnd - 1, m - 1 - frames(0.1)))
            let floorLimit = floor.map { $0 + 3 - p } ?? -.infinity
            // From the last top the level climbs back to within 1 dB of the peak (as loud to a listener,
            // ``steadyChange``) by ``restartRise``: a fall it climbs back from to its peak (a trill's dip, the gap
            // before a ring tone's next equal beep) is no decay, and which of equal tops is the loudest turns with a
            // resample, a pad or a codec.
            let from = Self.lastRestart(env.values, from: peak.index, loudest: peak.value, within: Self.steadyChange)
            if from <= lastUsable, let start = db[from...lastUsable].firstIndex(where: { $0 - p <= -3 }) {
                var deepest = start
                for k in start...lastUsable where db[k] - p >= floorLimit && db[k] < db[deepest] { deepest = k }
                if db[deepest] - p <= -10, deepest - start >= 3 {
                    // The sound's own level: the floor's power taken out of what the envelope reads over it (as the
                    // Schroeder integral below does), so the noise that holds the level up near the floor does not
                    // slow the line; a dip under the limit counts as the limit.
                    let floorPower = floor.map { pow(10, $0 / 10) } ?? 0
                    let own = db[start...deepest].map { level in
                        floor.map { 10 * log10(pow(10, max(level, $0 + 3) / 10) - floorPower) } ?? level
                    }
                    // Carried on from where the decay was last seen, at the rate it fell there: the least-squares
                    // line over its last 10 dB (a line, not the deepest frame alone, which a dip of the noise sets).
                    let last = Array(Self.lastTenDecibels(own[...]))
                    let rate = Self.slope(last, hop: hop)
                    if rate < 0 {
                        let mean = last.reduce(0, +) / Double(last.count)
                        let lineAtEnd = mean + rate * hop * Double(last.count - 1) / 2
                        d40Extrapolated = Double(deepest - peak.index) * hop + (40 - (p - lineAtEnd)) / -rate
                    }
                }
            }
        }

        // Schroeder backward integration on 5 ms energy blocks.
        let rate = buffer.sampleRate
        let blockFrames = Int(rate.frames(seconds: hop))
        var energy = [Double](repeating: 0, count: n)
        for k in 0..<n {
            let a = k * blockFrames
            let b = min(mono.count, a + blockFrames)
            var s = 0.0
            if a < b { for i in a..<b where mono[i].isFinite { s += Double(mono[i]) * Double(mono[i]) } }
            energy[k] = s
        }
        var stop = n
        if let f = floor {
            let floorPower = pow(10, f / 10) * Double(blockFrames)
            for k in energy.indices { energy[k] = max(0, energy[k] - floorPower) }
            if let cut = db[peak.index..<n].firstIndex(where: { $0 < f + 5 }) { stop = cut }
        }
        var edc = [Double](repeating: 0, count: max(0, stop - peak.index))
        var acc = 0.0
        for k in stride(from: stop - 1, through: peak.index, by: -1) {
            acc += energy[k]
            edc[k - peak.index] = acc
        }
        let total = edc.first ?? 0
        let edcDB = edc.map { total > 0 && $0 > 0 ? 10 * log10($0 / total) : -200 }
        schroeder = edcDB
        curve = db.map { $0 - p }
        edt = Self.decayTime(edcDB, from: 0, to: -10, hop: hop)
        t20 = Self.decayTime(edcDB, from: -5, to: -25, hop: hop)
        t30 = Self.decayTime(edcDB, from: -5, to: -35, hop: hop)
    }

    /// The index of the peak of `envelope` (linear values) whose loudest value is `loudest`: the first top (a value
    /// no lower than its neighbours) within `tolerance` dB of the loudest, or the loudest itself when no earlier top
    /// is (always, for a tolerance of 0): tops closer than the reading can order are one peak, and the sound reaches
    /// it at the first.
    static func peakIndex(_ envelope: [Double], loudest: (index: Int, value: Double), tolerance: Double) -> Int {
        guard tolerance > 0 else { return loudest.index }
        let least = loudest.value * pow(10, -tolerance / 20)
        for k in 0..<loudest.index where envelope[k] >= least && envelope[k] >= envelope[k + 1] {
            if k == 0 || envelope[k] >= envelope[k - 1] { return k }
        }
        return loudest.index
    }

    /// The index of the last restart of the sound in `envelope` (linear values) after its peak at `from`: the last
    /// top (a value no lower than its neighbours) within `within` dB of `loudest` (``restartLevel`` by default) that
    /// the level climbed to by ``restartRise`` or more from the lowest it had fallen to since the peak. `from` when
    /// there is none.
    ///
    /// The sound's final decay starts there: the last beep, note or chirp of a sequence of equal tops, wherever among
    /// them the loudest lies. Within ``steadyChange`` (1 dB), the last return to the peak itself: the decay a cut
    /// file's extrapolation carries on starts after it.
    static func lastRestart(_ envelope: [Double], from: Int, loudest: Double, within: Double = restartLevel) -> Int {
        let least = loudest * pow(10, -within / 20)
        let rise = pow(10, restartRise / 20)
        var lowest = envelope[from]
        var last = from
        for k in (from + 1)..<envelope.count {
            let v = envelope[k]
            lowest = min(lowest, v)
            let top = v >= envelope[k - 1] && (k == envelope.count - 1 || v >= envelope[k + 1])
            if top, v >= least, v >= lowest * rise { last = k }
        }
        return last
    }

    /// The envelope every reading is of: 10 ms RMS windows every 5 ms of `signal` (edges padded with edge values).
    static func envelope(_ signal: [Float], sampleRate: SampleRate) -> AmplitudeEnvelope {
        AmplitudeEnvelope(
            AudioBuffer(planarSamples: signal, channels: .mono, sampleRate: sampleRate), windowSeconds: 0.01,
            hopSeconds: 0.005)
    }

    /// How many envelope values, one every `hop` seconds, span `seconds` (at least one).
    static func values(_ seconds: Double, hop: Double) -> Int { max(1, Int((seconds / hop).rounded())) }

    /// Whether the level falls into the end `end` (a count of `db`'s values, the envelope in dB after the peak at
    /// `peak`) in a fade of half a second or more: over the half second before the last 100 ms it falls faster than a
    /// bell rings (``ringingRate``) and at least twice as fast as over the half second before that. A fade steepens to
    /// its end (a linear or sine fade of any length over 0.5 s falls 14 dB or more there), while a struck sound's own
    /// level falls ever slower. Such a fade is heard as the sound dying faster, not as a stop (docs/bells.md): its
    /// last 150 ms are the end of the decay as heard, not a short fade hiding a ring.
    static func longFade(_ db: [Double], after peak: Int, end: Int, hop: Double) -> Bool {
        func frames(_ seconds: Double) -> Int { values(seconds, hop: hop) }
        let last = end - frames(0.1)
        let middle = end - frames(0.6)
        let first = max(peak, end - frames(1.1))
        guard middle - first >= frames(0.05), last - middle >= frames(0.05) else { return false }
        let before = slope(Array(db[first..<middle]), hop: hop)
        let fading = slope(Array(db[middle..<last]), hop: hop)
        return fading <= -ringingRate && fading <= 2 * min(before, 0)
    }

    /// How far (dB) the level must fall within one envelope window (10 ms) for the fall to stop a ringing sound:
    /// 30 dB, where a bell's decay (``ringingRate``) falls 0.3 dB: the sound was cut, not dying away.
    public static let stopFall = 30.0

    /// The count of `db`'s values (the envelope in dB, one every `hop` seconds) up to a cut after `peak` that only
    /// silence follows, nil when the file does not end so: the first value from which the level stays ``stopFall``
    /// or more under where it was one 10 ms window before, from a level within 50 dB of the peak (as loud as
    /// ``ringingAtEnd`` calls a sound still sounding) that fell no faster than a bell rings (``ringingRate``) over the
    /// 20 ms before it, after the peak. The count ends before the value whose window straddles the cut.
    ///
    /// An MP3 ends a cut sound with the encoder's padding, tens of milliseconds of near silence, and a cut padded with
    /// digital zeros is the same cut. A click that dies as fast by itself was already falling faster than any ring.
    static func hardStop(_ db: [Double], after peak: Int, hop: Double) -> Int? {
        let n = db.count
        let window = values(0.01, hop: hop)
        guard n - peak > window + 3 else { return nil }
        var after = [Double](repeating: -.infinity, count: n + 1)
        for k in stride(from: n - 1, through: peak, by: -1) { after[k] = max(db[k], after[k + 1]) }
        for k in (peak + window + 3)..<n where db[k - window] - db[peak] > -50 {
            guard after[k] <= db[k - window] - stopFall else { continue }
            let held = slope(Array(db[(k - window - 3)...(k - window)]), hop: hop) >= -ringingRate
            return held ? k - window + 1 : nil
        }
        return nil
    }

    /// The length of the blocks (seconds) a silence shorter than the envelope's window is read in: 1 ms, half the
    /// shortest silence heard (``shortestGap``), so the cut is placed within a millisecond.
    public static let silenceBlock = 0.001
    /// The shortest silence (seconds) after a cut that ends the sound before the envelope's window can hold it: 2 ms,
    /// the shortest gap a listener hears in a sound. A shorter one lowers the level read over a 10 ms window by under
    /// 1 dB, and a single quiet block is as often a coarse sample format's step (8-bit audio's last bit) as silence.
    public static let shortestGap = 0.002

    /// The count of `db`'s values (the envelope of `mono` in dB, one every `hop` samples, over windows of `window`
    /// samples) whose windows end by a cut after `peak` that a silence shorter than one window follows, nil when the
    /// file does not end so: the silence is the longest run of `blockFrames`-sample blocks at the file's end (fewer
    /// samples than a window, ``shortestGap`` or more) each ``stopFall`` or more under the power of the window before it, and that window within
    /// 50 dB of the peak. The caller ends the sound there when it was still ringing: its own rate at the end
    /// (`endSlope`, read up to the cut) no faster than a bell's (``ringingRate``); a sound dying faster ends in its fall.
    ///
    /// An MP3's encoder pads its last granule with near silence, a few samples to a granule (576) or more: a padding
    /// shorter than the 10 ms window never fills a window, so ``hardStop(_:after:hop:)`` cannot see it, but it fills
    /// part of the last windows and lowers the level read at the end by up to several dB. Read in 1 ms blocks it is
    /// the same silence after the same cut. Only the file's last window of samples is read.
    static func shortSilenceCut(
        _ mono: [Float], _ db: [Double], after peak: Int, window: Int, hop: Int, blockFrames: Int
    ) -> Int? {
        let n = mono.count
        guard window > 0, hop > 0, blockFrames > 0, n > 2 * window else { return nil }
        let gap = blockFrames * Int((shortestGap / silenceBlock).rounded())
        func power(_ a: Int, _ b: Int) -> Double {
            mono.withUnsafeBufferPointer { SampleKernels.blockEnergy($0, start: a, block: b - a, count: 1)[0] }
                / Double(max(1, b - a))
        }
        let quieter = pow(10, -stopFall / 10)
        var cut: Int?
        var start = n - blockFrames
        while start > n - window {
            let before = power(start - window, start)
            var silent = before > 0
            var b = start
            while silent && b < n {
                silent = power(b, min(n, b + blockFrames)) <= before * quieter
                b += blockFrames
            }
            guard silent else { break }
            cut = start
            start -= blockFrames
        }
        // The values whose windows end by the cut: value k's window starts at k·hop − window/2.
        guard let c = cut, n - c >= gap, c - window + window / 2 >= 0 else { return nil }
        let m = (c - window + window / 2) / hop + 1
        guard m - peak > 4, m <= db.count, db[m - 1] - db[peak] > -50 else { return nil }
        return m
    }

    /// Seconds to fall 60 dB, from a least-squares line through the Schroeder curve between `from` and `to` dB;
    /// nil when the curve does not reach `to` (or reaches it in fewer than 3 points).
    static func decayTime(_ edc: [Double], from: Double, to: Double, hop: Double) -> Double? {
        guard let a = edc.firstIndex(where: { $0 <= from }), let b = edc.firstIndex(where: { $0 <= to }),
            b - a >= 3, b < edc.count - 1
        else { return nil }
        let s = slope(Array(edc[a...b]), hop: hop)
        return s < 0 ? -60 / s : nil
    }

    /// The part of a falling level (dB) over its last 10 dB: from the last value 10 dB or more over its final one,
    /// at least its last 4 values. Where a decay was last seen, and the rate to carry on or to judge it by: a struck
    /// sound's partials each decay at their own rate, so its level falls ever slower.
    static func lastTenDecibels(_ y: ArraySlice<Double>) -> ArraySlice<Double> {
        guard let end = y.last else { return y }
        let from = y.lastIndex(where: { $0 >= end + 10 }) ?? y.startIndex
        return y[min(from, max(y.startIndex, y.endIndex - 4))...]
    }

    /// A level (dB) from its last top that it climbed to by ``restartRise`` or more from the lowest it fell to before
    /// (each top so reached starts the count again): the last fall of the sound, a note after a quieter note's decay
    /// included, which ``lastRestart(_:from:loudest:)`` leaves to the ring (it asks for tops within
    /// ``restartLevel`` of the peak).
    static func sinceLastRise(_ y: ArraySlice<Double>) -> ArraySlice<Double> {
        guard var lowest = y.first else { return y }
        var start = y.startIndex
        for k in y.indices.dropFirst() {
            lowest = min(lowest, y[k])
            let top = y[k] >= y[k - 1] && (k == y.endIndex - 1 || y[k] >= y[k + 1])
            if top, y[k] >= lowest + restartRise { (start, lowest) = (k, y[k]) }
        }
        return y[start...]
    }

    /// The least-squares slope of `y` (one value every `hop` seconds), in units per second.
    static func slope(_ y: [Double], hop: Double) -> Double {
        let n = Double(y.count)
        guard n >= 2 else { return 0 }
        let mx = (n - 1) / 2
        let my = y.reduce(0, +) / n
        var num = 0.0
        var den = 0.0
        for (i, v) in y.enumerated() {
            num += (Double(i) - mx) * (v - my)
            den += (Double(i) - mx) * (Double(i) - mx)
        }
        return den > 0 ? num / den / hop : 0
    }
}
