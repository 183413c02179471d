import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// The faster kernels of `loops verify` against the plain loops they replace: the same values to the bit, so that no
/// metric of any file moves (`loops verify --json` is compared byte for byte on the corpus as well).
@Suite struct SeamKernelEquivalenceTests {
    /// A stereo bed with drips and a DC offset on one channel (the window sums remove each channel's own mean).
    static func material(frames: Int = 96_000) -> AudioBuffer {
        var mix = LoopSignals.drips(period: 19_207, frames: frames, seed: 11)
        let bed = LoopSignals.periodicNoise(
            period: 19_207, frames: frames, amplitude: 0.2, smoothingHz: 1_200, poles: 2, seed: 12)
        for k in mix.samples.indices { mix.samples[k] = mix.samples[k] * 0.5 + bed.samples[k] }
        for i in 0..<frames { mix[1, i] += 0.003 }
        return mix
    }

    /// The dip's windows summed four side by side give each window's own energy as the one-by-one sum does, for
    /// both dip scales and for window counts that are and are not multiples of four.
    @Test func sideBySideWindowSumsEqualOneByOne() {
        let buffer = Self.material()
        let view = LoopView(buffer: buffer, loop: 1_000..<95_000)
        let energy = CyclicEnergy(view)
        var out: [Double] = []
        for (w, windows) in [(240, 11), (960, 5), (240, 4), (37, 3), (960, 1)] {
            let hop = max(1, w / 2)
            for first in [0, 17, 40_000, view.count - (windows - 1) * hop - w] {
                SeamMetrics.ownEnergies(
                    view, energy: energy, from: first, hop: hop, windows: windows, count: w, into: &out)
                for i in 0..<windows {
                    let one = SeamMetrics.ownEnergy(view, energy: energy, from: first + i * hop, count: w)
                    #expect(out[i].bitPattern == one.bitPattern, "w \(w), window \(i) from \(first)")
                }
            }
        }
    }

    /// The dip's window sums, every window of every channel side by side (eight chains at a time), equal the
    /// one-by-one sums to the bit for one, two and three channels, with chain counts that do and do not fill the
    /// eight lanes (3 × 11 = 33, 2 × 5 = 10, 1 × 3 = 3, …).
    @Test func chainedWindowSumsEqualOneByOneOnAnyChannelCount() {
        for channels in [1, 2, 3] {
            let buffer = LoopSignals.periodicNoise(
                period: 9_601, frames: 48_000, channels: channels, amplitude: 0.3, smoothingHz: 900, poles: 2,
                seed: UInt64(20 + channels))
            let view = LoopView(buffer: buffer, loop: 500..<47_000)
            let energy = CyclicEnergy(view)
            var out: [Double] = []
            for (w, windows) in [(240, 11), (960, 5), (240, 8), (240, 2), (61, 7), (960, 1)] {
                let hop = max(1, w / 2)
                for first in [0, 333, view.count - (windows - 1) * hop - w] {
                    SeamMetrics.ownEnergies(
                        view, energy: energy, from: first, hop: hop, windows: windows, count: w, into: &out)
                    for i in 0..<windows {
                        let one = SeamMetrics.ownEnergy(view, energy: energy, from: first + i * hop, count: w)
                        #expect(
                            out[i].bitPattern == one.bitPattern, "\(channels) ch, w \(w), window \(i) from \(first)")
                    }
                }
            }
        }
    }

    /// The fade's block sums (``SeamMetrics/blockPrefixSums(_:block:blocks:)``, the blocks summed eight side by side)
    /// equal the running sums of the blocks added one by one, to the bit, on one to three channels, a loop that starts
    /// inside the file, block counts that do and do not fill the eight lanes, and no block at all.
    @Test func blockPrefixSumsSideBySideEqualOneByOne() {
        for channels in [1, 2, 3] {
            var buffer = LoopSignals.periodicNoise(
                period: 9_601, frames: 48_000, channels: channels, amplitude: 0.3, smoothingHz: 900, poles: 2,
                seed: UInt64(40 + channels))
            for i in 0..<buffer.frameCount { buffer[0, i] += 0.003 }
            let view = LoopView(buffer: buffer, loop: 700..<46_100)
            for (block, blocks) in [(240, 189), (480, 8), (37, 1_000), (1, 13), (960, 0)] {
                let sums = SeamMetrics.blockPrefixSums(view, block: block, blocks: blocks)
                #expect(sums.count == channels)
                for c in 0..<channels {
                    var prefix = [0.0]
                    view.withChannel(c) { x in
                        for k in 0..<blocks {
                            var s = 0.0
                            for v in x[(k * block)..<((k + 1) * block)] { s += Double(v) }
                            prefix.append(prefix[k] + s)
                        }
                    }
                    #expect(
                        sums[c].map(\.bitPattern) == prefix.map(\.bitPattern),
                        "\(channels) ch, channel \(c), \(blocks) blocks of \(block)")
                }
            }
        }
    }

    /// The continuity metric's moving steps around a junction, taken in one pass each side, are the very values the
    /// walk outwards from the junction collects (as multisets: the median reads no order), on noise, on noise with
    /// runs of digital silence and repeated samples (steps of 0, left out), and on a signal that is silent throughout.
    @Test func movingStepsInOnePassAreTheWalksSteps() {
        var rng = SeededRandom(seed: 17)
        let n = 4_000
        let noise = (0..<n).map { _ in rng.nextSigned() * 0.3 }
        var gappy = noise
        for i in 1_000..<1_150 { gappy[i] = 0 }
        for i in stride(from: 2_000, to: 2_400, by: 3) { gappy[i + 1] = gappy[i] }
        let silent = [Float](repeating: 0, count: n)
        for signal in [noise, gappy, silent] {
            for half in [2, 17, 240] {
                for k in [half + 1, 1_010, 1_150, 2_200, n - half - 1] {
                    var walk: [Float] = []
                    for d in 1...half {
                        let before = abs(signal[k - d] - signal[k - d - 1])
                        let after = abs(signal[k + d] - signal[k + d - 1])
                        if before > 0 { walk.append(before) }
                        if after > 0 { walk.append(after) }
                    }
                    var out = [Float](repeating: -1, count: 2 * half)
                    let m = signal.withUnsafeBufferPointer { x in
                        out.withUnsafeMutableBufferPointer {
                            SeamMetrics.movingSteps(around: x.baseAddress! + k, half: half, into: $0.baseAddress!)
                        }
                    }
                    #expect(
                        out[0..<m].map(\.bitPattern).sorted() == walk.map(\.bitPattern).sorted(), "half \(half), k \(k)"
                    )
                }
            }
        }
    }

    /// The texture's band tracks with each step's bins shared into the bands through registers equal the bands
    /// filled share by share in bin order (the loop as it was written before), to the bit: random spectra of four
    /// frames a step at 44.1 and 48 kHz.
    @Test func bandSharingInRegistersEqualsShareByShare() {
        var rng = SeededRandom(seed: 31)
        for rate in [44_100, 48_000] {
            let size = SeamMetrics.spectralFrameSize(sampleRate: rate)
            let mono = [Float](repeating: 0.5, count: size * 12)
            var spectra = mono.withUnsafeBufferPointer { TextureSpectra(mono: $0, sampleRate: rate) }
            let bins = size / 2 + 1
            let n = spectra.bands
            let shares = PerceptualBands.shares(bins: bins, binHertz: Double(rate) / Double(size), bands: n)
            var expected: [Double] = []
            var step = [Double](repeating: 0, count: bins)
            for k in 0..<spectra.frameLimit {
                let frame = (0..<bins).map { _ in abs(rng.nextSigned()) * (rng.nextUnit() < 0.1 ? 1e-12 : 3) }
                frame.withUnsafeBufferPointer { spectra.add($0.baseAddress!) }
                for j in 0..<bins { step[j] += Double(frame[j]) }
                guard (k + 1) % TextureSpectra.framesPerStep == 0 else { continue }
                var row = [Double](repeating: 0, count: n)
                for j in 0..<bins {
                    guard let (i, w) = shares[j] else { continue }
                    row[i] += step[j] * w
                    if w < 1 && i + 1 < n { row[i + 1] += step[j] * (1 - w) }
                    step[j] = 0
                }
                expected += row
            }
            #expect(spectra.steps.count == expected.count)
            #expect(
                zip(spectra.steps, expected).allSatisfy { $0.bitPattern == $1.bitPattern },
                "\(rate) Hz: \(zip(spectra.steps, expected).filter { $0 != $1 }.prefix(4))")
        }
    }

    /// The loop view's sum and peak of each channel in one pass equal `SampleKernels.sum` and `PeakScan.absMax` to
    /// the bit, on lengths around the 8-lane and 4 096-sample blocks, with NaN and ±∞ (which the peak leaves out).
    @Test func sumAndPeakInOnePassEqualTheTwoPasses() {
        var rng = SeededRandom(seed: 23)
        for n in [0, 1, 7, 8, 9, 4_095, 4_096, 4_097, 12_301] {
            var x = (0..<n).map { _ in rng.nextSigned() * 0.8 }
            for bad in [Float.nan, .infinity, -.infinity] where n > 100 { x[Int(rng.nextUnit() * Double(n))] = bad }
            for signal in [x, x.map { abs($0) < 0.5 ? $0 : 0.25 }] {
                signal.withUnsafeBufferPointer { b in
                    let (sum, peak) = SampleKernels.sumAndPeak(b)
                    let expected = SampleKernels.sum(b)
                    #expect(sum.bitPattern == expected.bitPattern || (sum.isNaN && expected.isNaN), "n \(n): sum")
                    #expect(peak.bitPattern == PeakScan.absMax(b).bitPattern, "n \(n): peak")
                }
            }
        }
    }

    /// The loop view's mono mix made in one pass (channels summed in order, scaled, the DC taken off) equals the
    /// mix, scale and subtraction as separate passes, to the bit, for one, two and three channels, with and without
    /// an offset, and its peak and means equal the two whole-channel passes.
    @Test func monoMixInOnePassEqualsThePasses() {
        for channels in [1, 2, 3] {
            for offset: Float in [0, 0.004] {
                var buffer = LoopSignals.periodicNoise(
                    period: 7_001, frames: 30_000, channels: channels, amplitude: 0.3, seed: UInt64(40 + channels))
                for i in 0..<buffer.frameCount { buffer[0, i] += offset }
                let loop = 120..<29_000
                let view = LoopView(buffer: buffer, loop: loop)
                let n = loop.count
                var means: [Double] = []
                var peak: Float = 0
                for c in 0..<channels {
                    buffer.withChannel(c) { all in
                        let x = UnsafeBufferPointer(rebasing: all[loop])
                        means.append(SampleKernels.sum(x) / Double(n))
                        peak = max(peak, PeakScan.absMax(x))
                    }
                }
                let scale = 1 / Float(channels)
                var mono = (0..<n).map { i in
                    var v = buffer[0, loop.lowerBound + i]
                    for c in 1..<channels { v += buffer[c, loop.lowerBound + i] }
                    return channels == 1 ? v : v * scale
                }
                let dc = Float(means.reduce(0, +) / Double(channels))
                if dc != 0 { for i in 0..<n { mono[i] -= dc } }
                #expect(view.means.map(\.bitPattern) == means.map(\.bitPattern), "\(channels) ch: means")
                #expect(view.peak.bitPattern == peak.bitPattern, "\(channels) ch: peak")
                #expect(view.mono.map(\.bitPattern) == mono.map(\.bitPattern), "\(channels) ch, offset \(offset)")
            }
        }
    }

    /// The pulse search's boxcar decimation, eight outputs summed side by side, equals each output summed in order
    /// on its own (the loop as it was written before), to the bit, for the 4 kHz factors of 44.1 to 192 kHz and
    /// lengths that leave outputs past the last eight.
    @Test func decimationEightOutputsAtATimeEqualsOneByOne() {
        var rng = SeededRandom(seed: 37)
        for factor in [1, 2, 11, 12, 24, 48] {
            for n in [factor * 7, factor * 8 + 3, 10_007] {
                let x = (0..<n).map { _ in rng.nextSigned() * 0.6 }
                let scale = 1 / Float(factor)
                let expected = (0..<(n / factor)).map { i -> Float in
                    var s: Float = 0
                    for k in 0..<factor { s += x[i * factor + k] }
                    return factor == 1 ? x[i] : s * scale
                }
                let fast = CrossCorrelation.decimate(x, by: factor)
                #expect(fast.map(\.bitPattern) == expected.map(\.bitPattern), "factor \(factor), n \(n)")
            }
        }
    }

    /// The spectral metric's band energies with four frames' bands summed side by side equal each frame's bands
    /// summed on its own (``SpectralBands/energies(_:fft:into:scratch:)``), to the bit, and the power spectra reach
    /// the texture in frame order, for frame counts that do and do not fill the last group of four.
    @Test func bandsOfFourFramesSideBySideEqualOneByOne() {
        var rng = SeededRandom(seed: 41)
        let size = 1_024
        let bands = SpectralBands(size: size, sampleRate: 48_000)
        let fft = RealFFT(size: size)
        let x = (0..<(size * 12)).map { i in (i / 3_000) % 2 == 0 ? rng.nextSigned() * 0.4 : 0 }
        for (frames, hop) in [(21, 512), (20, 512), (37, 64), (1, 512)] {
            var fast = [Float](repeating: -1, count: frames * bands.bandCount)
            var seen: [[Float]] = []
            x.withUnsafeBufferPointer { p in
                fast.withUnsafeMutableBufferPointer { out in
                    bands.energies(
                        p.baseAddress!, hop: hop, frames: frames, fft: fft, into: out.baseAddress!, spectra: true
                    ) { seen.append(Array(UnsafeBufferPointer(start: $0, count: size / 2 + 1))) }
                }
            }
            var scratch = SpectralBands.Scratch(size: size)
            var one = [Float](repeating: 0, count: bands.bandCount)
            for k in 0..<frames {
                x.withUnsafeBufferPointer { p in
                    one.withUnsafeMutableBufferPointer {
                        bands.energies(p.baseAddress! + k * hop, fft: fft, into: $0.baseAddress!, scratch: &scratch)
                    }
                }
                let row = fast[(k * bands.bandCount)..<((k + 1) * bands.bandCount)]
                #expect(row.map(\.bitPattern) == one.map(\.bitPattern), "\(frames) frames, frame \(k)")
                #expect(seen[k].map(\.bitPattern) == scratch.power.map(\.bitPattern), "frame \(k): its spectrum")
            }
            #expect(seen.count == frames)
        }
    }

    /// The branch-free selection the continuity metric takes its medians with gives the k-th smallest value, as the
    /// sort and Hoare's selection do: on noise, on runs of equal values (quantised quiet steps), on sorted input.
    @Test func branchFreeSelectionGivesTheKthSmallest() {
        var rng = SeededRandom(seed: 9)
        for n in [1, 2, 3, 16, 17, 40, 97, 480, 600] {
            let inputs: [[Float]] = [
                (0..<n).map { _ in abs(rng.nextSigned()) },
                (0..<n).map { _ in Float(Int(abs(rng.nextSigned()) * 4)) / 32_768 },
                (0..<n).map { Float($0) },
                [Float](repeating: 0.25, count: n),
            ]
            for values in inputs {
                let sorted = values.sorted()
                for k in Set([0, n / 2, n - 1, n / 3]) {
                    var work = values
                    var spare = [Float](repeating: 0, count: n)
                    let v = work.withUnsafeMutableBufferPointer { w in
                        spare.withUnsafeMutableBufferPointer { s in
                            OrderStatistic.select(w.baseAddress!, count: n, k, scratch: s.baseAddress!)
                        }
                    }
                    #expect(v == sorted[k], "n \(n) k \(k)")
                    var again = values
                    #expect(v == OrderStatistic.select(&again, k), "n \(n) k \(k): Hoare's selection")
                }
            }
        }
    }

    /// The modulation depths with the cosines and sines read from one table of the unit circle, shared by every
    /// group, equal one transform per group with its own `cos`/`sin` (the loop as it was written before) to 1e-9 dB
    /// (the table holds the same angles reduced mod 2π), including a group without power.
    @Test func sharedModulationTablesEqualOneTransformPerGroup() {
        let frames = 700
        var rng = SeededRandom(seed: 5)
        var envelopes: [[Double]?] = (0..<6).map { g in
            (0..<frames).map { k in 0.3 * sin(Double(k) * 0.05 * Double(g + 1)) + 0.1 * Double(rng.nextSigned()) }
        }
        envelopes[2] = nil
        let frameRate = 48_000.0 / 512
        let fast = LikenessSignature.modulationDepths(envelopes, frameRate: frameRate)
        for (g, m) in envelopes.enumerated() {
            let reference = Self.oneGroup(m, frames: frames, frameRate: frameRate)
            #expect(
                zip(fast[g], reference).allSatisfy { abs($0 - $1) < 1e-9 }, "group \(g): \(fast[g]) vs \(reference)")
        }
    }

    /// The modulation depths of one relative envelope as `LikenessSignature.texture` computed them before: each
    /// group's own cosines and sines.
    static func oneGroup(_ m: [Double]?, frames: Int, frameRate: Double) -> [Double] {
        let floor = LikenessSignature.modulationFloor
        guard let m else { return LikenessSignature.modulationRates.map { _ in floor } }
        return LikenessSignature.modulationRates.map { r in
            // Bin f is the rate f / T, shared near the band's edges; a band narrower than a bin is not read.
            let width = frameRate / Double(frames)
            guard r.upperBound <= frameRate / 2, frames >= 8, r.upperBound - r.lowerBound >= width else { return floor }
            var variance = 0.0
            for f in 1...(frames / 2) {
                let share = LikenessSignature.rateShare(Double(f) * width, in: r)
                guard share > 0 else { continue }
                var re = 0.0
                var im = 0.0
                let w = 2 * Double.pi * Double(f) / Double(frames)
                for k in 0..<frames {
                    re += m[k] * cos(w * Double(k))
                    im -= m[k] * sin(w * Double(k))
                }
                variance += share * 2 * (re * re + im * im) / Double(frames * frames)
            }
            let depth2 = 2 * variance
            return depth2 > 0 ? max(floor, 10 * log10(depth2)) : floor
        }
    }
}
