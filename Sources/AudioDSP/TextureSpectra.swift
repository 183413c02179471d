import Foundation

/// The short-time spectra a texture's likeness signature is read from (``LikenessSignature/texture(_:duration:)``),
/// summed into ``PerceptualBands``: the very frames the seam's spectral metric transforms (``SeamMetrics``, metric 2),
/// so `loops verify` transforms each moment of a loop once for both (issue #42 §1: one set of spectra per file).
///
/// The frames are the spectral metric's: Hann windows of ``SeamMetrics/spectralFrameSize(sampleRate:)`` samples (a
/// power of two near 21 ms: 1024 at 44.1 and 48 kHz) every half frame from the loop's first sample, over the loop's
/// mono mix without its DC, wholly within its first ``LikenessSignature/textureSeconds``. A loop no longer than
/// that is read as it plays, a cycle: its last frames run on past its end into its start (``wrapFrames``), so that
/// every moment of it is read alike, wherever the file starts it (a rotation of a loop plays the same loop). Each
/// frame's power spectrum is summed into the perceptual bands, and every ``framesPerStep`` frames in a row into one
/// step of the signature's band tracks; and, frame by frame, into the wide bands the modulation is read in
/// (``groupPower``).
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct TextureSpectra: Sendable {
    /// Frames summed into one step of the band tracks: four frames half a frame apart span 2.5 frames (about 53 ms)
    /// and steps fall two frames (about 43 ms, 23 per second) apart: where a texture's sound starts and ends, and
    /// its band levels. The modulation is read frame by frame (``groupPower``): at the steps' rate the hits of a
    /// beat, whose level changes reach far above 12 Hz, would fold back into the modulation rates, differently
    /// wherever a rotation of the loop puts them on the steps' grid.
    public static let framesPerStep = 4

    /// The frame (FFT) size in samples.
    public let size: Int
    public let sampleRate: Int
    /// The perceptual bands under the Nyquist frequency (``PerceptualBands/count(nyquist:)``).
    public let bands: Int
    /// How many frames are read wholly within the loop: those within its first ``LikenessSignature/textureSeconds``.
    public let frameLimit: Int
    /// How many frames are read after them, across the loop's end into its start, when the whole loop is read: one
    /// every half frame from the first frame's start to the loop's end (0 for a loop longer than
    /// ``LikenessSignature/textureSeconds`` or shorter than one frame).
    public let wrapFrames: Int
    /// The loop's length in samples.
    public let loopSamples: Int
    /// Whether a sample of the part read rises above ``OnsetAnalysis/silenceThreshold`` (−60 dBFS): a silent
    /// texture has no signature.
    public let audible: Bool
    /// `steps × bands` band powers, step after step (each the sum of ``framesPerStep`` frames).
    public private(set) var power: [Double] = []
    /// Frames added so far.
    public private(set) var framesRead = 0
    /// The first bin inside the bands, and for each bin from it: its lower band (−1 outside the bands) and its
    /// weight there (the rest goes to the band above).
    private let firstBin: Int
    private let lowBand: [Int]
    private let lowWeight: [Double]
    /// The power of each bin from `firstBin`, summed over the frames of the step being read.
    private var stepSpectrum: [Double]
    /// The wide bands the modulation is read in: three bands each, ``LikenessSignature/modulationGroups`` of them
    /// at most (fewer under a low Nyquist frequency).
    public let groups: Int
    /// `frames × groups` powers, frame after frame: each frame's power in each wide band (its bins shared between
    /// bands as for the band tracks).
    public private(set) var groupPower: [Double] = []
    /// For each bin from `firstBin`: the wide band its lower band lies in (−1 for none), and the one its upper share
    /// goes to (−1 for none).
    private let lowGroup: [Int]
    private let highGroup: [Int]

    /// The spectra of `mono` (the loop's mono mix without its DC) at `sampleRate` Hz, before any frame is added.
    public init(mono: UnsafeBufferPointer<Float>, sampleRate: Int) {
        let size = SeamMetrics.spectralFrameSize(sampleRate: sampleRate)
        self.size = size
        self.sampleRate = sampleRate
        let binHertz = Double(sampleRate) / Double(size)
        let n = PerceptualBands.count(nyquist: Double(sampleRate) / 2)
        bands = n
        let shares = PerceptualBands.shares(bins: size / 2 + 1, binHertz: binHertz, bands: n)
        let first = shares.firstIndex { $0 != nil } ?? shares.count
        firstBin = first
        lowBand = shares[first...].map { $0?.band ?? -1 }
        // ``share(_:into:low:weight:bands:)`` relies on it: a bin's lower band never falls as the bins rise.
        let inside = lowBand.filter { $0 >= 0 }
        precondition(zip(inside, inside.dropFirst()).allSatisfy { $0 <= $1 }, "perceptual bands out of order")
        lowWeight = shares[first...].map { $0?.weight ?? 0 }
        stepSpectrum = [Double](repeating: 0, count: lowBand.count)
        let groups = min(LikenessSignature.modulationGroups, n / 3)
        self.groups = groups
        lowGroup = lowBand.map { $0 >= 0 && $0 < 3 * groups ? $0 / 3 : -1 }
        highGroup = zip(lowBand, lowWeight).map { band, weight in
            band >= 0 && weight < 1 && band + 1 < n && band + 1 < 3 * groups ? (band + 1) / 3 : -1
        }
        let read = min(mono.count, Int(LikenessSignature.textureSeconds * Double(sampleRate)))
        frameLimit = read >= size ? (read - size) / (size / 2) + 1 : 0
        loopSamples = mono.count
        let cycle = (mono.count + size / 2 - 1) / (size / 2)
        wrapFrames = frameLimit > 0 && read == mono.count ? cycle - frameLimit : 0
        power.reserveCapacity(frameLimit / Self.framesPerStep * n)
        groupPower.reserveCapacity((frameLimit + wrapFrames) * groups)
        audible = UnsafeBufferPointer(rebasing: mono[0..<read]).contains { abs($0) > OnsetAnalysis.silenceThreshold }
    }

    /// Whether every frame to read has been added, the ones across the loop's end included.
    public var isComplete: Bool { framesRead == frameLimit + wrapFrames }

    /// Adds the next frame's power spectrum (`size / 2 + 1` bins); a frame past ``frameLimit`` and ``wrapFrames``
    /// is ignored.
    ///
    /// The step's frames are summed bin by bin and shared into the bands once per step (the sharing is linear).
    public mutating func add(_ spectrum: UnsafePointer<Float>) {
        guard framesRead < frameLimit + wrapFrames else { return }
        framesRead += 1
        let from = spectrum + firstBin
        stepSpectrum.withUnsafeMutableBufferPointer { s in
            // Bin by bin, each on its own (the loop vectorises).
            for j in 0..<s.count { s[j] += Double(from[j]) }
        }
        let frameRow = groupPower.count
        groupPower.append(contentsOf: repeatElement(0, count: groups))
        groupPower.withUnsafeMutableBufferPointer { g in
            let out = g.baseAddress! + frameRow
            lowGroup.withUnsafeBufferPointer { low in
                highGroup.withUnsafeBufferPointer { high in
                    lowWeight.withUnsafeBufferPointer { weight in
                        for j in 0..<low.count {
                            let v = Double(from[j])
                            if low[j] >= 0 { out[low[j]] += v * weight[j] }
                            if high[j] >= 0 { out[high[j]] += v * (1 - weight[j]) }
                        }
                    }
                }
            }
        }
        guard framesRead % Self.framesPerStep == 0 else { return }
        let row = power.count
        let (low, weight, n) = (lowBand, lowWeight, bands)
        power.append(contentsOf: repeatElement(0, count: n))
        power.withUnsafeMutableBufferPointer { p in
            stepSpectrum.withUnsafeMutableBufferPointer { s in
                Self.share(s, into: p.baseAddress! + row, low: low, weight: weight, bands: n)
            }
        }
    }

    /// The band tracks to read: the whole steps, or for a file shorter than one step (under about 53 ms) the frames
    /// it holds as one step.
    public var steps: [Double] { power.isEmpty && framesRead > 0 ? rest : power }

    /// The band powers of the frames read after the last whole step (zeros when there are none).
    public var rest: [Double] {
        var partial = stepSpectrum
        var row = [Double](repeating: 0, count: bands)
        partial.withUnsafeMutableBufferPointer { s in
            row.withUnsafeMutableBufferPointer {
                Self.share(s, into: $0.baseAddress!, low: lowBand, weight: lowWeight, bands: bands)
            }
        }
        return row
    }

    /// Seconds between frames (half a frame).
    public var frameSeconds: Double { Double(size / 2) / Double(sampleRate) }

    /// Adds the summed bins `s` into the `n` bands at `out` (bin `j` to band `low[j]` with `weight[j]`, the rest to
    /// the band above), setting `s` back to 0.
    ///
    /// Each band receives its shares in bin order: first the upper shares of the bins whose lower band is the one
    /// below, then the lower shares of its own bins (a bin's bands rise with its frequency). The two bands a run of
    /// bins feeds are summed in registers and stored when the run ends, the same additions in the same order as
    /// adding each share to `out` in turn (which waited on the store of the addition before it, bin after bin).
    private static func share(
        _ s: UnsafeMutableBufferPointer<Double>, into out: UnsafeMutablePointer<Double>, low: [Int], weight: [Double],
        bands n: Int
    ) {
        low.withUnsafeBufferPointer { low in
            weight.withUnsafeBufferPointer { weight in
                // `here` is band `band`'s running sum, `above` band `band + 1`'s (when it exists).
                var band = -1
                var here = 0.0
                var above = 0.0
                for j in 0..<s.count {
                    let i = low[j]
                    guard i >= 0 else { continue }
                    if i != band {
                        if band >= 0 {
                            out[band] = here
                            if band + 1 < n { out[band + 1] = above }
                        }
                        here = out[i]
                        above = i + 1 < n ? out[i + 1] : 0
                        band = i
                    }
                    let v = s[j]
                    let w = weight[j]
                    here += v * w
                    if w < 1 && i + 1 < n { above += v * (1 - w) }
                    s[j] = 0
                }
                if band >= 0 {
                    out[band] = here
                    if band + 1 < n { out[band + 1] = above }
                }
            }
        }
    }

    /// Reads every frame of `mono` (the signal given to ``init(mono:sampleRate:)``) itself, from the start: for a
    /// loop whose spectral metric did not run on these frames (too short for it, or silent).
    public mutating func measure(_ mono: UnsafeBufferPointer<Float>) {
        power.removeAll(keepingCapacity: true)
        groupPower.removeAll(keepingCapacity: true)
        framesRead = 0
        for j in stepSpectrum.indices { stepSpectrum[j] = 0 }
        readRest(mono)
    }

    /// Reads the frames of `mono` (the signal given to ``init(mono:sampleRate:)``) not added yet: the rest of those
    /// within the loop, then the ones across its end (``wrapFrames``), whose samples past the end are the loop's
    /// first ones.
    public mutating func readRest(_ mono: UnsafeBufferPointer<Float>) {
        precondition(mono.count == loopSamples, "TextureSpectra read from another signal")
        guard !isComplete else { return }
        let fft = RealFFT.pooled(size: size)
        defer { RealFFT.recycle(fft) }
        let frameBands = SpectralBands(size: size, sampleRate: sampleRate)
        var scratch = SpectralBands.Scratch(size: size)
        var unused = [Float](repeating: 0, count: frameBands.bandCount)
        var across = [Float](repeating: 0, count: size)
        unused.withUnsafeMutableBufferPointer { out in
            for k in framesRead..<(frameLimit + wrapFrames) {
                let start = k * (size / 2)
                if start + size <= mono.count {
                    frameBands.energies(mono.baseAddress! + start, fft: fft, into: out.baseAddress!, scratch: &scratch)
                } else {
                    for i in 0..<size { across[i] = mono[(start + i) % mono.count] }
                    across.withUnsafeBufferPointer {
                        frameBands.energies($0.baseAddress!, fft: fft, into: out.baseAddress!, scratch: &scratch)
                    }
                }
                scratch.power.withUnsafeBufferPointer { add($0.baseAddress!) }
            }
        }
    }
}
