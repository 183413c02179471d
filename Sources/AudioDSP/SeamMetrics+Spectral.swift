import Foundation

extension SeamMetrics {
    /// Metric 2: spectral continuity.
    ///
    /// The loop (mono mix) is cut into Hann-windowed frames of about 21 ms (a power of two: 1024 frames at
    /// 44.1/48 kHz) every half frame. Each frame's energy is summed into third-octave bands (at least 4 bins each,
    /// from 60 Hz up). The change between two adjacent, non-overlapping frames is the RMS over bands of their
    /// dB difference, after removing the mean difference (the level change is metric 3's business); bands more than
    /// 50 dB below the loudest band of the loop are ignored. The seam's change (last frame of the loop vs first) is
    /// then compared with the same change at every other point of the loop: the value is the seam's change divided
    /// by the largest change elsewhere (floored at 1 dB, so a perfectly steady drone does not turn rounding noise
    /// into a ratio). A seam that looks like an ordinary moment of the file scores at most about 1.
    static func spectral(_ view: LoopView) -> Metric {
        let n = view.count
        let size = max(64, 1 << Int(log2(Double(view.sampleRate) * 0.0213).rounded()))
        let hop = size / 2
        let frameCount = n >= size ? (n - size) / hop + 1 : 0
        guard frameCount >= 20 else {
            return skipped(
                .spectral,
                String(format: "the loop is too short (%.2f s) for spectral statistics (needs %.2f s)",
                    view.seconds(n), view.seconds(size + 19 * hop)))
        }
        let bands = SpectralBands(size: size, sampleRate: view.sampleRate)
        let fft = RealFFT.pooled(size: size)
        defer { RealFFT.recycle(fft) }
        var frames: [[Float]] = []
        frames.reserveCapacity(frameCount)
        view.mono.withUnsafeBufferPointer { x in
            for k in 0..<frameCount { frames.append(bands.energies(x.baseAddress! + k * hop, fft: fft)) }
        }
        // The seam pair: the loop's last frame, then its first.
        let seamBefore = view.mono.withUnsafeBufferPointer { x in bands.energies(x.baseAddress! + (n - size), fft: fft) }
        let seamAfter = frames[0]
        var loudest: Float = 0
        for f in frames { for e in f { loudest = max(loudest, e) } }
        // Bands 50 dB below the loudest band carry no audible change; the 1e-20 floor covers digital silence.
        let floor = max(loudest * 1e-5, 1e-20)
        var reference: [Double] = []
        for k in 0..<(frameCount - 2) { reference.append(bandChange(frames[k], frames[k + 2], floor: floor)) }
        let seam = bandChange(seamBefore, seamAfter, floor: floor)
        let largest = reference.max() ?? 0
        // Floor of 1 dB: a steady drone changes by hundredths of a dB between frames, and a seam change of a
        // fraction of a dB is inaudible however large the ratio to such a tiny reference.
        let ratio = seam / max(largest, 1)
        let note: String
        if ratio > thresholds(.spectral).pass {
            note = String(
                format: "the spectrum changes abruptly at the seam (%.1f dB, %.2f× the largest change elsewhere in the file)",
                seam, ratio)
        } else {
            note = String(format: "the spectrum changes by %.1f dB at the seam, no more than elsewhere (largest %.1f dB)", seam, largest)
        }
        return measured(.spectral, ratio, note: note)
    }

    /// The level-free spectral change between two band-energy vectors, in dB (see ``spectral(_:)``).
    static func bandChange(_ a: [Float], _ b: [Float], floor: Float) -> Double {
        var diffs: [Double] = []
        diffs.reserveCapacity(a.count)
        for i in a.indices where max(a[i], b[i]) > floor {
            diffs.append(10 * log10(Double(max(b[i], floor)) / Double(max(a[i], floor))))
        }
        guard !diffs.isEmpty else { return 0 }
        let mean = diffs.reduce(0, +) / Double(diffs.count)
        let ss = diffs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (ss / Double(diffs.count)).squareRoot()
    }
}

/// Third-octave band energies of Hann-windowed frames, at least 4 FFT bins per band, from 60 Hz up.
package struct SpectralBands {
    package let size: Int
    let window: [Float]
    /// Band edges as bin indices; band `i` is bins `edges[i] ..< edges[i + 1]`.
    package let edges: [Int]

    package init(size: Int, sampleRate: Int) {
        self.size = size
        window = HannWindow.shared(size)
        let binCount = size / 2 + 1
        let binHz = Double(sampleRate) / Double(size)
        var edges = [max(1, Int(60 / binHz))]
        while let last = edges.last, last < binCount - 1 {
            let next = max(last + 4, Int((Double(last) * pow(2, 1.0 / 3)).rounded()))
            edges.append(min(next, binCount - 1))
        }
        self.edges = edges
    }

    package var bandCount: Int { edges.count - 1 }

    /// The band energies of the `size` samples at `x`.
    package func energies(_ x: UnsafePointer<Float>, fft: RealFFT) -> [Float] {
        var frame = [Float](repeating: 0, count: size)
        for i in 0..<size { frame[i] = x[i] * window[i] }
        var power = [Float](repeating: 0, count: size / 2 + 1)
        frame.withUnsafeBufferPointer { f in
            power.withUnsafeMutableBufferPointer { p in fft.powerSpectrum(f.baseAddress!, into: p.baseAddress!) }
        }
        var out = [Float](repeating: 0, count: bandCount)
        for b in 0..<bandCount {
            var s: Float = 0
            for k in edges[b]..<edges[b + 1] { s += power[k] }
            out[b] = s
        }
        return out
    }
}
