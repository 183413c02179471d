import AudioCore
import Foundation

/// Where and how a sound starts: leading silence, attack time and the number of separate strikes.
///
/// - `leadingSilence`: seconds before the first sample of any channel over a line 60 dB under the file's peak
///   (−60 dBFS, 0.001, for a file peaking at full scale: ``firstSoundFrame(_:baseline:)``, the same at any gain)
///   from where the sound rises over the room's level, its first 10 ms within 50 dB of its loudest
///   (``risesOverRoom(_:baseline:)``: hiss, room tone or a faint click before the strike, at the room's level, is not
///   heard as the sound beginning).
/// - `attack`: seconds from 10 % to 90 % of the peak of a Hann-weighted 10 ms RMS envelope, the crossings
///   timed on a 4 ms RMS envelope (0.25 ms hop), over the first second of sound; a rise that reads longer than
///   20 ms there is timed again on the 10 ms Hann envelope, which the partials' beating ripples less. A linear
///   ramp of length T reads about 0.8·T; an instant strike about 3 ms (the 4 ms window's own rise).
/// - `onsets`: strikes found by spectral flux (positive change of the log-compressed spectrum up to 12 kHz,
///   Hann frames of about 21 ms — 1024 points at 44.1/48 kHz — every half frame; the compression is relative to the
///   file's peak, so the strikes found do not move with its gain or sample rate), picked above an adaptive
///   threshold with at least 80 ms between strikes. Each peak that may be a strike (and the strongest, which sets the
///   threshold) is also read half a hop either side and counts with its larger reading, so a strike's flux does not
///   depend on where it falls on the frame grid, nor on a codec's pre-echo spreading its rise over two frames
///   (``FluxFrames/refined(at:)``). A "ding-dong" gives 2, an arpeggio 3 or more, one strike of a bell 1.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct OnsetAnalysis: Sendable, Equatable, Codable {
    public var leadingSilence: Double
    public var attack: Double
    /// Seconds from the start of the file to each detected strike.
    public var onsetTimes: [Double]
    public var onsetCount: Int { onsetTimes.count }
}

extension OnsetAnalysis {
    /// The level under which a file is silent (−60 dBFS), and, scaled by its peak, under which a sample is silence
    /// before the sound (60 dB under the peak).
    public static let silenceThreshold: Float = 0.001

    /// Analyses `buffer`. A buffer with no sample above −60 dBFS has leading silence = its duration,
    /// attack 0 and no onsets.
    public init(_ buffer: AudioBuffer) {
        self.init(buffer, mono: buffer.finiteMonoMix())
    }

    /// Analyses `buffer` whose mono mix (``AudioBuffer/finiteMonoMix()``) is already at hand.
    public init(_ buffer: AudioBuffer, mono: [Float]) {
        precondition(mono.count == buffer.frameCount, "mono mix length differs from the buffer")
        let n = buffer.frameCount
        // What stays at the room's level before the sound rises is no sound (hiss, room tone or a faint click before
        // the strike): the sound starts at its first sample over a line 60 dB under its peak, from where it rises
        // over the room.
        let first = Self.firstSoundFrame(buffer)
        leadingSilence = buffer.sampleRate.seconds(frames: Int64(first))
        guard first < n else {
            attack = 0
            onsetTimes = []
            return
        }
        attack = Self.attackTime(mono, sampleRate: buffer.sampleRate.double, from: first)
        onsetTimes = Self.spectralFluxOnsets(mono, sampleRate: buffer.sampleRate.double)
    }

    /// 10→90 % rise time: levels from a Hann-weighted 10 ms RMS envelope (steady: its width spans the beats
    /// between partials and the 2·f ripple of each), crossings timed on a rectangular 4 ms RMS envelope
    /// (fast), both at a 0.25 ms hop with silence outside the file, over the first second of sound.
    static func attackTime(_ mono: [Float], sampleRate rate: Double, from startFrame: Int) -> Double {
        let hop = max(1, Int(0.00025 * rate))
        let first = max(0, startFrame - Int(0.01 * rate))
        let last = min(mono.count, startFrame + Int(rate))
        let fastWidth = max(4, Int(0.004 * rate))
        let slowWidth = max(4, Int(0.01 * rate))
        // Squared samples of every frame a window can reach (outside the file: silence).
        let lo = max(0, first - slowWidth)
        let hi = min(mono.count, last + slowWidth)
        var power = [Double](repeating: 0, count: hi - lo)
        mono.withUnsafeBufferPointer { m in
            for i in lo..<hi { power[i - lo] = Double(m[i]) * Double(m[i]) }
        }
        // Rectangular window: running sums.
        var prefix = [Double](repeating: 0, count: power.count + 1)
        for i in power.indices { prefix[i + 1] = prefix[i] + power[i] }
        let centres = Array(stride(from: first, to: last, by: hop))
        guard !centres.isEmpty else { return 0 }
        // Rectangular RMS envelope of `width` frames at every centre.
        func envelope(_ width: Int) -> [Double] {
            centres.map { centre -> Double in
                let a = min(max(centre - width / 2 - lo, 0), power.count)
                let b = min(max(centre - width / 2 + width - lo, 0), power.count)
                return ((prefix[b] - prefix[a]) / Double(width)).squareRoot()
            }
        }
        // Hann window: the weighted power sum around a centre (its maximum sets the level; the 10 ms window moves
        // little in 1 ms, so the maximum is searched every fourth centre and then around the best one).
        let weights: [Double] = (0..<slowWidth).map { (i: Int) -> Double in
            0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(slowWidth))
        }
        let norm = weights.reduce(0, +)
        func hannSum(_ centre: Int) -> Double {
            power.withUnsafeBufferPointer { p in
                weights.withUnsafeBufferPointer { w in
                    let start = centre - slowWidth / 2 - lo
                    let i0 = max(0, -start)
                    let i1 = min(slowWidth, p.count - start)
                    var e = 0.0
                    if i0 < i1 { for i in i0..<i1 { e += w[i] * p[start + i] } }
                    return e
                }
            }
        }
        // A Hann sum never exceeds the plain power sum over the same frames (weights ≤ 1), which the prefix sums
        // give at once: centres are tried loudest bound first, and the search stops once no bound can beat the
        // best sum found (the same maximum, and the same first centre reaching it, as trying every one).
        var bounds: [(bound: Double, k: Int)] = stride(from: 0, to: centres.count, by: 4).map { k in
            let a = min(max(centres[k] - slowWidth / 2 - lo, 0), power.count)
            let b = min(max(centres[k] - slowWidth / 2 + slowWidth - lo, 0), power.count)
            return (prefix[b] - prefix[a], k)
        }
        bounds.sort { $0.bound > $1.bound }
        var level = 0.0
        var best = 0
        for (bound, k) in bounds {
            // 1e-9: the prefix difference may round a hair below the sum it bounds.
            if bound * (1 + 1e-9) < level { break }
            let e = hannSum(centres[k])
            if e > level || (e == level && e > 0 && k < best) { (level, best) = (e, k) }
        }
        for k in max(0, best - 3)...min(centres.count - 1, best + 3) { level = max(level, hannSum(centres[k])) }
        level = (level / norm).squareRoot()
        guard level > 0 else { return 0 }
        // The first crossing of `fraction` of the level (at or after centre `from`) of the envelope `env` (read
        // centre by centre, only as far as the crossing), interpolated between centres.
        func crossing(_ env: (Int) -> Double, _ fraction: Double, from: Int = 0) -> Double? {
            let y = fraction * level
            var k = from
            while k < centres.count, env(k) < y { k += 1 }
            guard k < centres.count else { return nil }
            guard k > 0, env(k) != env(k - 1) else { return Double(k) }
            return Double(k - 1) + (y - env(k - 1)) / (env(k) - env(k - 1))
        }
        let fastEnvelope = envelope(fastWidth)
        let fast = { (k: Int) in fastEnvelope[k] }
        guard let t10 = crossing(fast, 0.1), let quick90 = crossing(fast, 0.9, from: Int(t10)) else { return 0 }
        let seconds = Double(hop) / rate
        let quick = max(0, quick90 - t10) * seconds
        // On a slow rise the 4 ms window's ripple (the partials beating within it, or the 2·f ripple of a low
        // partial) crosses early by a few percent of the rise. A rise that reads longer than 20 ms is timed again on
        // the 10 ms Hann envelope the level comes from, whose low sidelobes leave little ripple (tests: linear ramps
        // of 5–200 ms on three partial sets within 2 ms).
        guard quick > 0.02 else { return quick }
        // The Hann envelope is summed only up to the centres the crossings read.
        var hannLevels = [Double](repeating: -1, count: centres.count)
        let hann = { (k: Int) -> Double in
            if hannLevels[k] < 0 { hannLevels[k] = (hannSum(centres[k]) / norm).squareRoot() }
            return hannLevels[k]
        }
        guard let s10 = crossing(hann, 0.1), let s90 = crossing(hann, 0.9, from: Int(s10)) else { return quick }
        return max(0, s90 - s10) * seconds
    }

    /// The frame size of the spectral flux at `rate` Hz (about 21 ms: 1024 points at 44.1 and 48 kHz,
    /// ``HannWindow/shortFrameSize(sampleRate:)``).
    package static func frameSize(_ rate: Double) -> Int { HannWindow.shortFrameSize(sampleRate: rate) }

    /// The highest frequency whose spectral change counts towards an onset.
    static let fluxTopHertz = 12_000.0
    /// How far under the file's loudest possible bin the flux's log compression turns linear (dB): 100 dB, under the
    /// quantisation noise of a 16-bit file at full scale (98 dB), so the file's own noise adds little change.
    public static let fluxKneeDecibels = 100.0

    /// The onset times (seconds) of `x`, a mono signal of finite samples (``AudioBuffer/finiteMonoMix()``).
    ///
    /// The flux is read every hop (half a frame). At a peak that may be a strike, it is read again half a hop either
    /// side (``FluxFrames/refined(at:)``), and the peak counts with the larger reading: where a strike falls on the
    /// frame grid, or a codec's pre-echo spreading its rise over two frames, does not move it against the others.
    static func spectralFluxOnsets(_ x: [Float], sampleRate rate: Double) -> [Double] {
        guard x.count >= frameSize(rate) / 2 else { return [0] }
        guard let frames = FluxFrames(x, sampleRate: rate) else { return [] }
        let flux = frames.flux()
        guard let regularMax = flux.max(), regularMax > 0 else { return [] }
        let hop = frames.hop
        let minGap = Int((0.08 * rate / Double(hop)).rounded(.up))
        let span = Int(0.5 * rate / Double(hop))
        let share = 0.3
        // Adaptive threshold: the local median over ±0.5 s plus a share of the strongest strike.
        func median(_ i: Int) -> Double {
            let local = flux[max(0, i - span)...min(flux.count - 1, i + span)].sorted()
            return local[local.count / 2]
        }
        func isPeak(_ v: [Double], _ i: Int) -> Bool {
            (i == 0 || v[i] > v[i - 1]) && (i + 1 == v.count || v[i] >= v[i + 1])
        }
        // Each peak read at its best alignment: the strongest always; any other that stands out of the file on the
        // grid (over the share of the strongest) and whose rise, taken whole over its two frames, could pass the
        // threshold (a reading half a hop between two frames is one of the rise they share).
        var value = flux
        var medians = [Int: Double]()
        let strongest = flux.firstIndex(of: regularMax)!
        for i in flux.indices where isPeak(flux, i) {
            let neighbour = max(i > 0 ? flux[i - 1] : 0, i + 1 < flux.count ? flux[i + 1] : 0)
            if i != strongest {
                guard flux[i] > share * regularMax else { continue }
                let m = median(i)
                medians[i] = m
                guard flux[i] + neighbour > m + share * regularMax else { continue }
            }
            value[i] = max(flux[i], frames.refined(at: i))
        }
        let maxFlux = value.max()!
        var onsets: [Int] = []
        for i in value.indices {
            // Flux is never negative, so neither is the median: a peak below the share alone cannot pass.
            guard isPeak(value, i), value[i] > share * maxFlux else { continue }
            guard value[i] > (medians[i] ?? median(i)) + share * maxFlux else { continue }
            if let last = onsets.last, i - last < minGap {
                if value[i] > value[last] { onsets[onsets.count - 1] = i }
                continue
            }
            onsets.append(i)
        }
        return onsets.map { Double($0 * hop) / rate }
    }
}
