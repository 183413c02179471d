import AudioCore
import Foundation

/// How a struck sound dies away: level drops from the peak, Schroeder decay times, noise floor, and
/// whether the file ends while the sound still rings.
///
/// Definitions (all from the mono power, 10 ms RMS envelope at a 5 ms hop, edges padded with edge values):
/// - `d20`, `d40`, `d60`: seconds from the envelope peak to the last time the envelope is above
///   peak − 20/40/60 dB (so a beat's dip does not end the decay early); `nil` when the level is not reached
///   before the file ends or before the noise floor.
/// - `edt`, `t20`, `t30`: Schroeder backward integration of the power from the peak, with the noise floor's
///   power subtracted and the integral stopped where the envelope meets the floor (+5 dB); the slope of a
///   least-squares line over 0…−10 dB (×6), −5…−25 dB (×3), −5…−35 dB (×2) gives the time to fall 60 dB.
/// - `noiseFloor`: RMS level (dBFS) of the last part of the file when it is steady (slope within ±5 dB/s and
///   within a quarter of the decay rate over the first 10 dB, at least ±1.5 dB/s) and at least 10 dB below the
///   peak; `nil` when the file ends in decay or digital silence.
/// - `ringingAtEnd`: the file ends while the sound still sounds above peak − 50 dB and 10 dB above any noise floor,
///   and either is still decaying (slope below −1 dB/s over its last second) or, in a file of at least 1 s, is no
///   longer falling without having settled to a noise floor (a sustained tone or noise cut off, or a beating tail
///   whose last second rises); `endsWithFade` adds that the last 100 ms fall much faster than the decay before them.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct DecayAnalysis: Sendable, Codable, Equatable {
    public var peakTime: Double
    /// Envelope peak, dBFS RMS.
    public var peakLevel: Double
    public var d20: Double?
    public var d40: Double?
    public var d60: Double?
    public var edt: Double?
    public var t20: Double?
    public var t30: Double?
    public var noiseFloor: Double?
    public var ringingAtEnd: Bool
    public var endsWithFade: Bool
    /// Level at the end of the file (last 10 ms, dB relative to the peak).
    public var endLevel: Double
    /// Decay rate over the last second before the final 100 ms, dB per second (negative = decaying).
    public var endSlope: Double
    /// The envelope in dB relative to the peak, every `curveHop` seconds (for plots; not encoded).
    public var curve: [Double] = []
    /// The Schroeder curve in dB, every `curveHop` seconds from the peak (for plots; not encoded).
    public var schroeder: [Double] = []
    public var curveHop: Double = 0.005

    enum CodingKeys: String, CodingKey {
        case peakTime, peakLevel, d20, d40, d60, edt, t20, t30, noiseFloor, ringingAtEnd, endsWithFade, endLevel,
            endSlope
    }

    /// Analyses `buffer`. Returns nil for a buffer with no energy.
    ///
    /// - Parameter mono: the buffer's ``AudioBuffer/finiteMonoMix()`` when already at hand (mixed here otherwise).
    public init?(_ buffer: AudioBuffer, mono: [Float]? = nil) {
        let env = AmplitudeEnvelope(buffer, windowSeconds: 0.01, hopSeconds: 0.005)
        guard let peak = env.peak, peak.value > 0 else { return nil }
        let hop = env.hopSeconds
        curveHop = hop
        let db = env.decibels()
        let p = 20 * log10(peak.value)
        peakTime = env.time(of: peak.index)
        peakLevel = p
        let n = db.count
        func frames(_ seconds: Double) -> Int { max(1, Int((seconds / hop).rounded())) }

        // Noise floor: the tail (last 20 %, at least 0.3 s, after the peak) when it is steady: within ±5 dB/s, and
        // within a quarter of the sound's own decay rate (its first 10 dB) but at least ±1.5 dB/s, since a slow bell
        // cut off while it rings falls as steadily through the tail as a fast one's floor lies flat.
        let tailStart = max(peak.index + 1, n - max(frames(0.3), n / 5))
        var floor: Double?
        if tailStart < n - 2 {
            let tail = Array(db[tailStart..<n])
            let slope = Self.slope(tail, hop: hop)
            let median = tail.sorted()[tail.count / 2]
            let tenDown = db[peak.index..<tailStart].lastIndex { $0 > p - 10 }
            let rate = tenDown.map { 10 / (Double($0 - peak.index) * hop + hop) } ?? 0
            let steady = min(5, max(1.5, rate / 4))
            if abs(slope) <= steady, median < p - 10, median > -120 { floor = median }
        }
        noiseFloor = floor

        // Level drops: last time above peak − X, only while above the floor + 3 dB.
        func drop(_ x: Double) -> Double? {
            let level = p - x
            if let f = floor, level < f + 3 { return nil }
            guard let last = db[peak.index..<n].lastIndex(where: { $0 > level }) else { return nil }
            if last == n - 1 { return nil }
            return Double(last - peak.index) * hop + hop / 2
        }
        d20 = drop(20)
        d40 = drop(40)
        d60 = drop(60)

        // End of file: level and slope.
        let end = db[max(0, n - frames(0.01))..<n]
        endLevel = end.reduce(0, +) / Double(end.count) - p
        let slopeStart = max(peak.index, n - frames(1.1))
        let slopeEnd = max(slopeStart + 1, n - frames(0.1))
        endSlope = slopeEnd - slopeStart >= 4 ? Self.slope(Array(db[slopeStart..<slopeEnd]), hop: hop) : 0
        let before = db[max(0, n - frames(0.15))] - p
        let aboveFloor = floor.map { db[max(0, n - frames(0.15))] > $0 + 10 } ?? true
        // Still sounding at the end: decaying, or (a file of 1 s or more) never having decayed to a floor.
        let sustained = floor == nil && buffer.duration >= 1 && endSlope >= -1
        ringingAtEnd = before > -50 && aboveFloor && (endSlope < -1 || sustained) && peak.index < n - frames(0.15)
        let predicted = endSlope * 0.1
        endsWithFade = ringingAtEnd && (endLevel - before) < predicted - 10

        // Schroeder backward integration on 5 ms energy blocks.
        let rate = buffer.sampleRate
        let blockFrames = Int(rate.frames(seconds: hop))
        let mono = mono ?? buffer.finiteMonoMix()
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

    /// Seconds to fall 60 dB, from a least-squares line through the Schroeder curve between `from` and `to` dB;
    /// nil when the curve does not reach `to` (or reaches it in fewer than 3 points).
    static func decayTime(_ edc: [Double], from: Double, to: Double, hop: Double) -> Double? {
        guard let a = edc.firstIndex(where: { $0 <= from }), let b = edc.firstIndex(where: { $0 <= to }),
            b - a >= 3, b < edc.count - 1
        else { return nil }
        let s = slope(Array(edc[a...b]), hop: hop)
        return s < 0 ? -60 / s : nil
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
