import AudioCore

/// Whole-signal passes of the seam metrics, eight lanes at a time (`SIMD8<Float>`), so that a 30 s stereo loop
/// costs a few milliseconds rather than tens.
///
/// - Thread safety: pure functions.
/// - Real-time safe: yes (no allocation).
enum SampleKernels {
    /// Σ x[i], accumulated in `Float` lanes over blocks of 4096 samples and in `Double` across blocks.
    static func sum(_ x: UnsafeBufferPointer<Float>) -> Double {
        blockSum(x) { _ in }
    }

    /// ``sum(_:)`` and `PeakScan.absMax` of `x` in one pass: the sum added exactly as ``sum(_:)`` adds it (the same
    /// value to the bit), the peak the largest finite |x[i]| as `PeakScan.absMax` finds it (NaN and ±∞ left out; 0
    /// for an empty signal). A loop's view reads both of every channel; one pass reads 11.5 MB of a 30 s stereo
    /// loop once instead of twice.
    static func sumAndPeak(_ x: UnsafeBufferPointer<Float>) -> (sum: Double, peak: Float) {
        guard let base = x.baseAddress else { return (0, 0) }
        let infinity = SIMD8<Float>(repeating: .infinity)
        var peaks = SIMD8<Float>(repeating: 0)
        let total = blockSum(x) { v in
            let a = SIMDLanes.abs(v)
            peaks = SIMDLanes.max(peaks, a.replacing(with: 0, where: .!(a .< infinity)))
        }
        var peak = peaks.max()
        // The samples after the last whole eight, as `PeakScan.absMax` reads them.
        for k in (x.count - x.count % 8)..<x.count {
            let a = abs(base[k])
            if a > peak && a < .infinity { peak = a }
        }
        return (total, peak)
    }

    /// Σ x[i] as ``sum(_:)`` adds it, handing each whole eight samples read (in order) to `each` as well: the one
    /// summing loop of ``sum(_:)`` and ``sumAndPeak(_:)``.
    @inline(__always)
    private static func blockSum(_ x: UnsafeBufferPointer<Float>, _ each: (SIMD8<Float>) -> Void) -> Double {
        guard let base = x.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var total = 0.0
        var i = 0
        while i < x.count {
            let end = min(x.count, i + 4096)
            var lanes = SIMD8<Float>(repeating: 0)
            while i + 8 <= end {
                let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
                lanes += v
                each(v)
                i += 8
            }
            var block = lanes.sum()
            while i < end {
                block += base[i]
                i += 1
            }
            total += Double(block)
        }
        return total
    }

    /// Writes one analysis frame: `frame[i] = x[start + i] · window[i]` where `start + i` lies inside `x`, 0 elsewhere
    /// (a frame that hangs over either end of the signal sees silence there), eight products at a time.
    ///
    /// - Precondition: `frame.count == window.count`.
    static func windowedFrame(
        _ x: UnsafeBufferPointer<Float>, start: Int, window: UnsafeBufferPointer<Float>,
        into frame: UnsafeMutableBufferPointer<Float>
    ) {
        let size = frame.count
        precondition(window.count == size, "the window and the frame differ in length")
        guard let f = frame.baseAddress else { return }
        let i0 = min(size, max(0, -start))
        let i1 = max(i0, min(size, x.count - start))
        if i0 > 0 { f.update(repeating: 0, count: i0) }
        if i1 < size { (f + i1).update(repeating: 0, count: size - i1) }
        guard i1 > i0, let xs = x.baseAddress, let w = window.baseAddress else { return }
        // From here on every index is inside all three buffers: unchecked pointer arithmetic.
        let src = UnsafeRawPointer(xs + (start + i0))
        let win = UnsafeRawPointer(w + i0)
        let dst = UnsafeMutableRawPointer(f + i0)
        let count = i1 - i0
        var i = 0
        while i + 8 <= count {
            let v =
                src.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
                * win.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
            dst.storeBytes(of: v, toByteOffset: i &* 4, as: SIMD8<Float>.self)
            i &+= 8
        }
        while i < count {
            dst.storeBytes(
                of: src.load(fromByteOffset: i &* 4, as: Float.self) * win.load(fromByteOffset: i &* 4, as: Float.self),
                toByteOffset: i &* 4, as: Float.self)
            i &+= 1
        }
    }

    /// Raises `peaks[b]` to the largest |x| of block `b` of `x` (blocks of `block` samples, a multiple of 8; the last
    /// may be shorter), for blocks `0 ..< peaks.count`. A NaN never wins (it compares false); the samples are
    /// expected finite.
    static func raiseBlockPeaks(
        _ x: UnsafeBufferPointer<Float>, block: Int, into peaks: UnsafeMutableBufferPointer<Float>
    ) {
        precondition(block > 0 && block % 8 == 0, "blocks must be a positive multiple of 8 samples")
        precondition(peaks.count == (x.count + block - 1) / block, "one peak per block")
        guard let base = x.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        for b in 0..<peaks.count {
            var i = b &* block
            let end = min(x.count, i &+ block)
            var lanes = SIMD8<Float>(repeating: 0)
            while i &+ 8 <= end {
                lanes = SIMDLanes.max(
                    lanes, SIMDLanes.abs(raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)))
                i &+= 8
            }
            var m: Float = 0
            for j in 0..<8 where lanes[j] > m { m = lanes[j] }
            while i < end {
                let a = Swift.abs(base[i])
                if a > m { m = a }
                i &+= 1
            }
            if m > peaks[b] { peaks[b] = m }
        }
    }

    /// Energy of the second difference d[i] = x[i+1] − 2x[i] + x[i−1] in consecutive blocks of `block` samples:
    /// `result[k]` is Σ d[i]² for i in `start + k·block ..< start + (k+1)·block`, for `count` blocks (which must
    /// leave one sample either side inside `x`).
    static func curvatureEnergy(_ x: UnsafeBufferPointer<Float>, start: Int, block: Int, count: Int) -> [Double] {
        precondition(start >= 1 && start + block * count + 1 <= x.count, "blocks must leave a neighbour either side")
        let raw = UnsafeRawPointer(x.baseAddress!)
        return blockSquares(start: start, block: block, count: count) { i in
            let prev = raw.loadUnaligned(fromByteOffset: (i - 1) * 4, as: SIMD8<Float>.self)
            let here = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            let next = raw.loadUnaligned(fromByteOffset: (i + 1) * 4, as: SIMD8<Float>.self)
            return next - 2 * here + prev
        } one: { i in
            x[i + 1] - 2 * x[i] + x[i - 1]
        }
    }

    /// Energy in consecutive blocks of `block` samples: `result[k]` is Σ x[i]² for i in
    /// `start + k·block ..< start + (k+1)·block`, for `count` blocks (which must lie inside `x`).
    static func blockEnergy(_ x: UnsafeBufferPointer<Float>, start: Int, block: Int, count: Int) -> [Double] {
        precondition(start >= 0 && start + block * count <= x.count, "blocks must lie inside the samples")
        let raw = UnsafeRawPointer(x.baseAddress!)
        return blockSquares(start: start, block: block, count: count) { i in
            raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
        } one: { i in
            x[i]
        }
    }

    /// Σ v² per block of a sequence given eight values at a time (`eight(i)`: values i ..< i + 8) and one at a time
    /// (`one(i)`), in `Float` lanes within a block and `Double` per block.
    @inline(__always)
    private static func blockSquares(
        start: Int, block: Int, count: Int, eight: (Int) -> SIMD8<Float>, one: (Int) -> Float
    ) -> [Double] {
        [Double](unsafeUninitializedCapacity: count) { out, initialized in
            for k in 0..<count {
                var i = start + k * block
                let end = i + block
                var lanes = SIMD8<Float>(repeating: 0)
                while i + 8 <= end {
                    let v = eight(i)
                    lanes += v * v
                    i += 8
                }
                var e = Double(lanes.sum())
                while i < end {
                    let d = one(i)
                    e += Double(d * d)
                    i += 1
                }
                out[k] = e
            }
            initialized = count
        }
    }
}
