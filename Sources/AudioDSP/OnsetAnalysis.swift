import AudioCore
import Foundation

/// Where and how a sound starts: leading silence, attack time and the number of separate strikes.
///
/// - `leadingSilence`: seconds before the first sample of any channel above −60 dBFS (0.001).
/// - `attack`: seconds from 10 % to 90 % of the peak of a Hann-weighted 10 ms RMS envelope, the crossings
///   timed on a 4 ms RMS envelope (0.25 ms hop), over the first second of sound. A linear ramp of length T
///   reads about 0.8·T; an instant strike about 3 ms (the 4 ms window's own rise). A linear ramp of length T reads 0.8·T; an instant strike reads about 3 ms
///   (the envelope window's own rise).
/// - `onsets`: strikes found by spectral flux (positive change of the log-magnitude spectrum, 2048-point
///   frames, 512 hop), picked above an adaptive threshold with at least 80 ms between strikes. A "ding-dong"
///   gives 2, an arpeggio 3 or more, one strike of a bell 1.
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct OnsetAnalysis: Sendable, Equatable, Codable {
    public var leadingSilence: Double
    public var attack: Double
    /// Seconds from the start of the file to each detected strike.
    public var onsetTimes: [Double]
    public var onsetCount: Int { onsetTimes.count }

    public init(leadingSilence: Double, attack: Double, onsetTimes: [Double]) {
        self.leadingSilence = leadingSilence
        self.attack = attack
        self.onsetTimes = onsetTimes
    }

    /// The level a sample must exceed to end the leading silence (−60 dBFS).
    public static let silenceThreshold: Float = 0.001

    /// Analyses `buffer`. A buffer with no sample above −60 dBFS has leading silence = its duration,
    /// attack 0 and no onsets.
    public init(_ buffer: AudioBuffer) {
        let n = buffer.frameCount
        var first = n
        for ch in 0..<buffer.channels {
            buffer.withChannel(ch) { p in
                for i in 0..<min(first, n) where abs(p[i]) > Self.silenceThreshold && p[i].isFinite {
                    first = i
                    break
                }
            }
        }
        leadingSilence = buffer.sampleRate.seconds(frames: Int64(first))
        guard first < n else {
            attack = 0
            onsetTimes = []
            return
        }
        attack = Self.attackTime(buffer, from: first)
        onsetTimes = Self.spectralFluxOnsets(buffer)
    }

    /// 10→90 % rise time: levels from a Hann-weighted 10 ms RMS envelope (steady: its width spans the beats
    /// between partials and the 2·f ripple of each), crossings timed on a rectangular 4 ms RMS envelope
    /// (fast), both at a 0.25 ms hop with silence outside the file, over the first second of sound.
    static func attackTime(_ buffer: AudioBuffer, from startFrame: Int) -> Double {
        let rate = buffer.sampleRate.double
        let mono = buffer.monoMix().map { $0.isFinite ? Double($0) * Double($0) : 0 }
        let hop = max(1, Int(0.00025 * rate))
        let first = max(0, startFrame - Int(0.01 * rate))
        let last = min(mono.count, startFrame + Int(rate))
        func envelope(_ seconds: Double, hann: Bool) -> [Double] {
            let w = max(4, Int(seconds * rate))
            let weights = (0..<w).map { hann ? 0.5 - 0.5 * cos(2 * Double.pi * (Double($0) + 0.5) / Double(w)) : 1 }
            let norm = weights.reduce(0, +)
            return stride(from: first, to: last, by: hop).map { centre in
                var e = 0.0
                for i in 0..<w {
                    let j = centre - w / 2 + i
                    if j >= 0 && j < mono.count { e += weights[i] * mono[j] }
                }
                return (e / norm).squareRoot()
            }
        }
        let fast = envelope(0.004, hann: false)
        guard let level = envelope(0.01, hann: true).max(), level > 0 else { return 0 }
        guard let lo = fast.firstIndex(where: { $0 >= 0.1 * level }),
            let hi = fast[lo...].firstIndex(where: { $0 >= 0.9 * level })
        else { return 0 }
        func crossing(_ k: Int, _ y: Double) -> Double {
            guard k > 0, fast[k] != fast[k - 1] else { return Double(k) }
            return Double(k - 1) + (y - fast[k - 1]) / (fast[k] - fast[k - 1])
        }
        return max(0, crossing(hi, 0.9 * level) - crossing(lo, 0.1 * level)) * Double(hop) / rate
    }

    static func spectralFluxOnsets(_ buffer: AudioBuffer) -> [Double] {
        let size = 2048
        let hop = 512
        let x = buffer.monoMix().map { $0.isFinite ? $0 : 0 }
        guard x.count >= hop else { return [0] }
        let fft = RealFFT(size: size)
        let window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        var frame = [Float](repeating: 0, count: size)
        var power = [Float](repeating: 0, count: fft.binCount)
        var previous = [Float](repeating: 0, count: fft.binCount)
        var flux: [Double] = []
        var energy: [Double] = []
        // Frames are centred on t = k·hop; the first one starts half a frame before the file (zeros).
        // The last frame ends at the end of the file: zeros past the end would read as spectral change.
        var k = 0
        while k * hop < x.count && (k == 0 || k * hop + size / 2 <= x.count) {
            let start = k * hop - size / 2
            // Hot loop (one FFT frame per 512 samples): unchecked pointers, same arithmetic.
            x.withUnsafeBufferPointer { xs in
                window.withUnsafeBufferPointer { w in
                    frame.withUnsafeMutableBufferPointer { f in
                        for i in 0..<size {
                            let j = start + i
                            f[i] = j >= 0 && j < xs.count ? xs[j] * w[i] : 0
                        }
                    }
                }
            }
            frame.withUnsafeBufferPointer { f in
                power.withUnsafeMutableBufferPointer { p in fft.powerSpectrum(f.baseAddress!, into: p.baseAddress!) }
            }
            var sum = 0.0
            var e = 0.0
            power.withUnsafeBufferPointer { p in
                previous.withUnsafeMutableBufferPointer { prev in
                    for b in 1..<p.count {
                        let mag = log1p(1000 * p[b].squareRoot())
                        let d = mag - prev[b]
                        if d > 0 { sum += Double(d) }
                        prev[b] = mag
                        e += Double(p[b])
                    }
                }
            }
            flux.append(sum)
            energy.append(e)
            k += 1
        }
        guard let maxFlux = flux.max(), maxFlux > 0 else { return [] }
        let rate = buffer.sampleRate.double
        let minGap = Int((0.08 * rate / Double(hop)).rounded(.up))
        var onsets: [Int] = []
        for i in flux.indices {
            let isPeak = (i == 0 || flux[i] > flux[i - 1]) && (i + 1 == flux.count || flux[i] >= flux[i + 1])
            guard isPeak else { continue }
            // Adaptive threshold: the local median over ±0.5 s plus a share of the strongest strike.
            let span = Int(0.5 * rate / Double(hop))
            let local = flux[max(0, i - span)...min(flux.count - 1, i + span)].sorted()
            let median = local[local.count / 2]
            guard flux[i] > median + 0.3 * maxFlux else { continue }
            if let last = onsets.last, i - last < minGap {
                if flux[i] > flux[last] { onsets[onsets.count - 1] = i }
                continue
            }
            onsets.append(i)
        }
        return onsets.map { Double($0 * hop) / rate }
    }
}
