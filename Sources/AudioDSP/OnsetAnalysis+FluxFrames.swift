import AudioCore
import Foundation

extension OnsetAnalysis {
    /// The spectral flux of a mono signal, frame by frame (``OnsetAnalysis/spectralFluxOnsets(_:sampleRate:)``).
    ///
    /// Frames of about 21 ms (1024 points at 44.1/48 kHz, Hann-windowed) are read every half frame (the hop), centred on
    /// t = k·hop; the first starts half a frame before the file (zeros), the last ends at the end of the file (zeros past
    /// the end would read as spectral change). A frame's flux is the positive change of its log-compressed magnitude,
    /// log2(1 + knee·|X|²), against the frame one hop before, summed over bins 1 … 12 kHz.
    ///
    /// The compression's knee sits ``OnsetAnalysis/fluxKneeDecibels`` under the file's own loudest possible bin (a sine
    /// as loud as its peak sample: (peak · Σw / 2)², Σw = size / 2 for a Hann window), so the flux does not change with
    /// the file's gain or its frame size (its sample rate): a strike at the start of the file, whose flux is its whole
    /// spectrum against the silence before, weighs the same against later strikes whether the file peaks at 0 or
    /// −40 dBFS.
    ///
    /// - Thread safety: not thread-safe (scratch buffers); one instance per analysis.
    /// - Real-time safe: no.
    final class FluxFrames {
        let x: [Float]
        let size: Int
        let hop: Int
        private let fft: RealFFT
        private let window: [Float]
        private let topBin: Int
        private let knee: Float
        private var frame: [Float]
        private var power: [Float]

        /// Nil when `x` holds no sample above zero (no bin has a level to compress against).
        init?(_ x: [Float], sampleRate rate: Double) {
            let size = OnsetAnalysis.frameSize(rate)
            let peak = x.withUnsafeBufferPointer { PeakScan.absMax($0) }
            let loudestBin = Double(peak) * Double(size) / 4
            guard loudestBin > 0 else { return nil }
            self.x = x
            self.size = size
            hop = size / 2
            fft = RealFFT.pooled(size: size)
            window = HannWindow.shared(size)
            topBin = min(fft.binCount - 1, Int(OnsetAnalysis.fluxTopHertz * Double(size) / rate))
            knee = Float(pow(10, OnsetAnalysis.fluxKneeDecibels / 10) / (loudestBin * loudestBin))
            frame = [Float](repeating: 0, count: size)
            power = [Float](repeating: 0, count: fft.binCount)
        }

        deinit { RealFFT.recycle(fft) }

        /// The flux of every frame on the hop grid (frame k centred on k·hop), against the one a hop before it (the
        /// first against the silence before the file).
        func flux() -> [Double] {
            var previous = [Float](repeating: 0, count: fft.binCount)
            var flux: [Double] = []
            var k = 0
            while k * hop < x.count && (k == 0 || k * hop + size / 2 <= x.count) {
                flux.append(Double(change(centre: k * hop, previous: &previous)))
                k += 1
            }
            return flux
        }

        /// The larger flux read half a hop before and half a hop after frame `k`'s centre (each against the frame a
        /// hop before it), where both frames of a reading lie in the file; 0 where neither reading does.
        ///
        /// A strike whose rise straddles two frames of the grid (it fell between them, or a codec's pre-echo spread it)
        /// reads part of its change in each; half a hop between them reads it nearly whole. The file's first frames,
        /// against the silence before the file, are read on the grid alone: the file's start falls on the grid
        /// wherever the file is cut, so a sound that starts with the file has no alignment to correct.
        func refined(at k: Int) -> Double {
            let before = k * hop - hop / 2
            let after = k * hop + hop / 2
            /// Whether the frame centred on `centre` and the one a hop before it lie in the file.
            func inFile(_ centre: Int) -> Bool { centre - hop - size / 2 >= 0 && centre + size / 2 <= x.count }
            guard inFile(before) || inFile(after) else { return 0 }
            // Three frames in a row, half a hop apart from frame k's centre: each one's change is against the last.
            var previous = [Float](repeating: 0, count: fft.binCount)
            _ = change(centre: before - hop, previous: &previous)
            let early = Double(change(centre: before, previous: &previous))
            var best = inFile(before) ? early : 0
            if inFile(after) { best = max(best, Double(change(centre: after, previous: &previous))) }
            return best
        }

        /// The positive change of the frame centred on `centre` against `previous` (its log-compressed magnitudes),
        /// which then holds this frame's.
        private func change(centre: Int, previous: inout [Float]) -> Float {
            let start = centre - size / 2
            x.withUnsafeBufferPointer { xs in
                window.withUnsafeBufferPointer { w in
                    frame.withUnsafeMutableBufferPointer { f in
                        SampleKernels.windowedFrame(xs, start: start, window: w, into: f)
                    }
                }
            }
            frame.withUnsafeBufferPointer { f in
                power.withUnsafeMutableBufferPointer { p in fft.powerSpectrum(f.baseAddress!, into: p.baseAddress!) }
            }
            // Positive change of the log-compressed magnitude, log2(1 + knee·|X|²) (a dB-like scale down to the knee,
            // quieter at the noise floor), summed over bins 1…topBin.
            var sum: Float = 0
            let knee = knee
            let topBin = topBin
            power.withUnsafeBufferPointer { p in
                previous.withUnsafeMutableBufferPointer { prev in
                    // Eight bins at a time, then the rest one by one.
                    let rp = UnsafeRawPointer(p.baseAddress!)
                    let rq = UnsafeMutableRawPointer(prev.baseAddress!)
                    var lanes = SIMD8<Float>(repeating: 0)
                    var b = 1
                    while b + 8 <= topBin + 1 {
                        let bin = rp.loadUnaligned(fromByteOffset: b * 4, as: SIMD8<Float>.self)
                        let mag = FastLog.log2(1 + knee * bin)
                        let d = mag - rq.loadUnaligned(fromByteOffset: b * 4, as: SIMD8<Float>.self)
                        lanes += d.replacing(with: 0, where: d .< 0)
                        rq.storeBytes(of: mag, toByteOffset: b * 4, as: SIMD8<Float>.self)
                        b += 8
                    }
                    sum = lanes.sum()
                    while b <= topBin {
                        let mag = FastLog.log2(1 + knee * p[b])
                        let d = mag - prev[b]
                        if d > 0 { sum += d }
                        prev[b] = mag
                        b += 1
                    }
                }
            }
            return sum
        }
    }
}
