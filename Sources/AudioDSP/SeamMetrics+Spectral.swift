import Foundation

extension SeamMetrics {
    /// Metric 2: spectral continuity.
    ///
    /// The loop (mono mix) is cut into Hann-windowed frames of about 21 ms (a power of two: 1024 frames at
    /// 44.1/48 kHz) every half frame (every sixteenth of a frame in a loop too short for 20 pairs of adjacent frames, from
    /// 0.1 s). Each frame's energy is summed into third-octave bands (at least 4 bins each,
    /// from 60 Hz up). The change between two adjacent, non-overlapping frames is the RMS over bands of their
    /// dB difference, after removing the mean difference (the level change is metric 3's business); bands more than
    /// 50 dB below the loudest band of the loop are ignored. The seam's change (last frame of the loop vs first) is
    /// then compared with the same change at every other point of the loop: the value is the seam's change divided
    /// by the 99th percentile of the changes elsewhere (see ``interiorJunctions``; floored at 1 dB, so a perfectly steady drone does not turn rounding noise
    /// into a ratio). A seam that looks like an ordinary moment of the file scores at most about 1.
    ///
    /// - Parameter texture: when given, each frame's power spectrum is also added to it (the loop's texture
    ///   signature reads the same frames; ``TextureSpectra``), when the frames are half a frame apart.
    static func spectral(_ view: LoopView, texture: inout TextureSpectra?, pattern: Pattern?) -> Measure {
        let n = view.count
        let size = spectralFrameSize(sampleRate: view.sampleRate)
        // Ordinary pairs a half frame apart; a loop too short for 20 of them (under 0.24 s at 48 kHz), from 0.1 s
        // (``shortestLevelLoop``), is read a sixteenth of a frame apart: still pairs of adjacent ~21 ms frames, as at
        // the seam, only more of them, overlapping more (at least 20 from 0.1 s).
        var hop = size / 2
        if n < size + 21 * hop && n >= view.frames(shortestLevelLoop) { hop = size / 16 }
        let apart = size / hop
        let frameCount = n >= size ? (n - size) / hop + 1 : 0
        guard frameCount >= 20 + apart else {
            let needs = view.seconds(min(size + 21 * (size / 2), view.frames(shortestLevelLoop)))
            return skipped(.spectral, .tooShortForSpectrum(seconds: view.seconds(n), needs: needs))
        }
        let bands = SpectralBands(size: size, sampleRate: view.sampleRate)
        let fft = RealFFT.pooled(size: size)
        defer { RealFFT.recycle(fft) }
        // Band energies of every frame, frame after frame (their bands summed four frames side by side).
        let bandCount = bands.bandCount
        var energies = [Float](repeating: 0, count: frameCount * bandCount)
        let feedsTexture = hop == size / 2 && texture != nil
        view.mono.withUnsafeBufferPointer { x in
            energies.withUnsafeMutableBufferPointer { e in
                bands.energies(
                    x.baseAddress!, hop: hop, frames: frameCount, fft: fft, into: e.baseAddress!, spectra: feedsTexture
                ) { texture!.add($0) }
            }
        }
        let frames = (0..<frameCount).map { k in energies[(k * bandCount)..<((k + 1) * bandCount)] }
        // The seam pair: the loop's last frame, then its first.
        let seamBefore = view.mono.withUnsafeBufferPointer { x in bands.energies(x.baseAddress! + (n - size), fft: fft)
        }
        let seamAfter = Array(frames[0])
        let loudest = energies.max() ?? 0
        // Bands 50 dB below the loudest band carry no audible change; the 1e-20 floor covers digital silence.
        let floor = max(loudest * 1e-5, 1e-20)
        // Every pair of adjacent frames inside the loop is an ordinary junction (thousands in a long loop).
        var changes = [Double](repeating: 0, count: frameCount - apart)
        for k in 0..<(frameCount - apart) { changes[k] = bandChange(frames[k], frames[k + apart], floor: floor) }
        // The pattern's places: the frame ending on each, then the frame starting there, as at the seam.
        let atPattern = view.mono.withUnsafeBufferPointer { x in
            (pattern?.junctions ?? []).filter { $0 >= size && $0 + size <= n }.map { j in
                bandChange(
                    bands.energies(x.baseAddress! + (j - size), fft: fft), bands.energies(x.baseAddress! + j, fft: fft),
                    floor: floor)
            }
        }
        let (largest, place) = ownReference(percentile(changes, 0.99), atPattern: atPattern, pattern)
        let seam = bandChange(seamBefore, seamAfter, floor: floor)
        // Floor of 1 dB: a steady drone changes by hundredths of a dB between frames, and a seam change of a
        // fraction of a dB is inaudible however large the ratio to such a tiny reference.
        return measured(
            .spectral, seam / max(largest, 1), .spectrum(change: seam, reference: largest), pattern: place)
    }

    /// The frame size of ``spectral(_:texture:)`` at `sampleRate` Hz: the power of two nearest 21.3 ms (1024 samples
    /// at 44.1 and 48 kHz), at least 64, the onset flux's (``HannWindow/shortFrameSize(sampleRate:)``).
    public static func spectralFrameSize(sampleRate: Int) -> Int {
        HannWindow.shortFrameSize(sampleRate: Double(sampleRate))
    }

    /// The level-free spectral change between two band-energy vectors, in dB (see ``spectral(_:)``).
    static func bandChange<A: RandomAccessCollection<Float>, B: RandomAccessCollection<Float>>(
        _ a: A, _ b: B, floor: Float
    ) -> Double where A.Index == Int, B.Index == Int {
        // Mean and mean square of the per-band dB differences in one pass (bands that carry energy only).
        var count = 0
        var sum = 0.0
        var sumSquares = 0.0
        var i = a.startIndex
        var j = b.startIndex
        while i < a.endIndex {
            let x = a[i]
            let y = b[j]
            if max(x, y) > floor {
                let d = 10 * log10(Double(max(y, floor)) / Double(max(x, floor)))
                count += 1
                sum += d
                sumSquares += d * d
            }
            i += 1
            j += 1
        }
        guard count > 0 else { return 0 }
        let mean = sum / Double(count)
        return max(0, sumSquares / Double(count) - mean * mean).squareRoot()
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

    /// Work buffers for ``energies(_:fft:into:scratch:)``.
    package struct Scratch {
        var frame: [Float]
        var power: [Float]
        package init(size: Int) {
            frame = [Float](repeating: 0, count: size)
            power = [Float](repeating: 0, count: size / 2 + 1)
        }
    }

    /// The band energies of the `size` samples at `x`.
    package func energies(_ x: UnsafePointer<Float>, fft: RealFFT) -> [Float] {
        var out = [Float](repeating: 0, count: bandCount)
        var scratch = Scratch(size: size)
        out.withUnsafeMutableBufferPointer { energies(x, fft: fft, into: $0.baseAddress!, scratch: &scratch) }
        return out
    }

    /// ``energies(_:fft:into:scratch:)`` of `frames` frames `hop` samples apart from `x`, frame k's written to
    /// `out + k · bandCount`, the same values to the bit: each frame windowed and transformed as there, then the
    /// bands of four frames summed side by side (each lane adds its own frame's bins in order, where one frame at a
    /// time each band's additions waited on the one before). When `spectra`, `spectrum` is given each frame's power
    /// spectrum (`size / 2 + 1` bins) in frame order.
    package func energies(
        _ x: UnsafePointer<Float>, hop: Int, frames: Int, fft: RealFFT, into out: UnsafeMutablePointer<Float>,
        spectra: Bool, spectrum: (UnsafePointer<Float>) -> Void
    ) {
        let bins = size / 2 + 1
        var frame = [Float](repeating: 0, count: size)
        var power = [Float](repeating: 0, count: 4 * bins)
        window.withUnsafeBufferPointer { w in
            frame.withUnsafeMutableBufferPointer { f in
                power.withUnsafeMutableBufferPointer { p in
                    edges.withUnsafeBufferPointer { e in
                        var first = 0
                        while first < frames {
                            let group = min(4, frames - first)
                            for lane in 0..<group {
                                let src = x + (first + lane) * hop
                                for i in 0..<size { f[i] = src[i] * w[i] }
                                fft.powerSpectrum(f.baseAddress!, into: p.baseAddress! + lane * bins)
                                if spectra { spectrum(p.baseAddress! + lane * bins) }
                            }
                            // A group short of four frames reads its last frame's bins in the spare lanes, unstored.
                            let rows = UnsafePointer(p.baseAddress!)
                            let (r0, r1) = (rows, rows + min(1, group - 1) * bins)
                            let (r2, r3) = (rows + min(2, group - 1) * bins, rows + min(3, group - 1) * bins)
                            for b in 0..<(e.count - 1) {
                                var s = SIMD4<Float>(repeating: 0)
                                for k in e[b]..<e[b + 1] { s += SIMD4(r0[k], r1[k], r2[k], r3[k]) }
                                for lane in 0..<group { out[(first + lane) * bandCount + b] = s[lane] }
                            }
                            first += group
                        }
                    }
                }
            }
        }
    }

    /// The band energies of the `size` samples at `x`, written to `out` (``bandCount`` values); allocates nothing.
    package func energies(
        _ x: UnsafePointer<Float>, fft: RealFFT, into out: UnsafeMutablePointer<Float>, scratch: inout Scratch
    ) {
        window.withUnsafeBufferPointer { w in
            scratch.frame.withUnsafeMutableBufferPointer { f in
                for i in 0..<size { f[i] = x[i] * w[i] }
                scratch.power.withUnsafeMutableBufferPointer { p in
                    fft.powerSpectrum(f.baseAddress!, into: p.baseAddress!)
                    edges.withUnsafeBufferPointer { e in
                        for b in 0..<(e.count - 1) {
                            var s: Float = 0
                            for k in e[b]..<e[b + 1] { s += p[k] }
                            out[b] = s
                        }
                    }
                }
            }
        }
    }
}
