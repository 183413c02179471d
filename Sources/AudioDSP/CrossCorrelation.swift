/// Correlation tools for loop seams and loop search: decimation, FFT auto- and cross-correlation normalised to
/// −1 ... 1, and exact direct correlation of two runs at full rate.
///
/// FFT correlation goes through ``RealFFT`` (KissFFT). Normalised means each value is divided by the energies of
/// the two runs it compares, so 1 means "identical up to gain" whatever the level.
///
/// - Thread safety: pure functions; call from any thread.
/// - Real-time safe: no (allocates).
public enum CrossCorrelation {
    /// `x` averaged over blocks of `factor` samples (a boxcar low-pass and decimation); a partial last block is dropped.
    ///
    /// - Complexity: O(n).
    public static func decimate(_ x: [Float], by factor: Int) -> [Float] {
        precondition(factor >= 1, "decimation factor must be at least 1")
        if factor == 1 { return x }
        let m = x.count / factor
        let scale = 1 / Float(factor)
        return [Float](unsafeUninitializedCapacity: m) { out, initialized in
            x.withUnsafeBufferPointer { p in
                var i = 0
                // Eight outputs at a time, each summed in order in a lane of its own (the additions one output at a
                // time made, without each waiting on the one before).
                while i + 8 <= m {
                    let b = p.baseAddress! + i * factor
                    let f = factor
                    var s = SIMD8<Float>(repeating: 0)
                    for k in 0..<f {
                        s += SIMD8<Float>(
                            b[k], b[f + k], b[2 * f + k], b[3 * f + k], b[4 * f + k], b[5 * f + k], b[6 * f + k],
                            b[7 * f + k])
                    }
                    let scaled = s * scale
                    for l in 0..<8 { out[i + l] = scaled[l] }
                    i += 8
                }
                while i < m {
                    var s: Float = 0
                    let base = i * factor
                    for k in 0..<factor { s += p[base + k] }
                    out[i] = s * scale
                    i += 1
                }
            }
            initialized = m
        }
    }

    /// Prefix sums of squares: `result[i]` is the energy of `x[0..<i]` (so `result.count == x.count + 1`).
    public static func energyPrefix(_ x: [Float]) -> [Double] {
        var out = [Double](repeating: 0, count: x.count + 1)
        var acc = 0.0
        for i in 0..<x.count {
            acc += Double(x[i]) * Double(x[i])
            out[i + 1] = acc
        }
        return out
    }

    /// The normalised linear autocorrelation of `x` for lags `0 ... maxLag`:
    /// `r[k] = Σ x[t]·x[t+k] / √(E(x[0..<n−k]) · E(x[k..<n]))`.
    ///
    /// - Complexity: O(n log n).
    public static func normalizedAutocorrelation(_ x: [Float], maxLag: Int) -> [Float] {
        let n = x.count
        precondition(maxLag >= 0 && maxLag < n, "maxLag must be within 0..<count")
        let fft = RealFFT.pooled(size: RealFFT.poolSize(atLeast: n + maxLag + 1))
        defer { RealFFT.recycle(fft) }
        let raw = fft.autocorrelation(x)
        let e = energyPrefix(x)
        return (0...maxLag).map { k in
            let denom = ((e[n - k] - e[0]) * (e[n] - e[k])).squareRoot()
            return denom > 0 ? Float(Double(raw[k]) / denom) : 0
        }
    }

    /// The normalised correlation of `template` with every `template.count`-long run of `signal`:
    /// `r[o] = Σ t[j]·s[o+j] / √(E(t) · E(s[o..<o+w]))` for `o` in `0 ... signal.count − template.count`.
    ///
    /// - Complexity: O((n + w) log (n + w)).
    public static func normalizedSliding(template: [Float], in signal: [Float]) -> [Float] {
        let w = template.count
        let n = signal.count
        precondition(w >= 1 && w <= n, "the template must be 1 ... signal.count frames long")
        let fft = RealFFT.pooled(size: RealFFT.poolSize(atLeast: n + w))
        defer { RealFFT.recycle(fft) }
        let raw = fft.crossCorrelation(template, signal)
        let e = energyPrefix(signal)
        let et = energyPrefix(template)[w]
        return (0...(n - w)).map { o in
            let denom = (et * (e[o + w] - e[o])).squareRoot()
            return denom > 0 ? Float(Double(raw[o]) / denom) : 0
        }
    }

    /// The normalised correlation of two runs of `count` samples, computed directly (exact, in `Double`).
    ///
    /// - Returns: a value in −1 ... 1; 0 when either run is silent.
    /// - Complexity: O(count).
    public static func normalized(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Double {
        // Float accumulation in eight lanes over blocks of 4096, summed in Double: 1e-6 relative accuracy.
        var sab = 0.0
        var saa = 0.0
        var sbb = 0.0
        let ra = UnsafeRawPointer(a)
        let rb = UnsafeRawPointer(b)
        var i = 0
        while i < count {
            let end = min(count, i + 4096)
            var ab = SIMD8<Float>(repeating: 0)
            var aa = SIMD8<Float>(repeating: 0)
            var bb = SIMD8<Float>(repeating: 0)
            while i + 8 <= end {
                let x = ra.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
                let y = rb.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
                ab += x * y
                aa += x * x
                bb += y * y
                i += 8
            }
            var sab1 = ab.sum()
            var saa1 = aa.sum()
            var sbb1 = bb.sum()
            while i < end {
                sab1 += a[i] * b[i]
                saa1 += a[i] * a[i]
                sbb1 += b[i] * b[i]
                i += 1
            }
            sab += Double(sab1)
            saa += Double(saa1)
            sbb += Double(sbb1)
        }
        let denom = (saa * sbb).squareRoot()
        return denom > 0 ? sab / denom : 0
    }

    /// ``normalized(_:_:count:)`` of `a[aStart..<aStart+count]` and `b[bStart..<bStart+count]`.
    public static func normalized(_ a: [Float], from aStart: Int, _ b: [Float], from bStart: Int, count: Int) -> Double
    {
        precondition(
            aStart >= 0 && bStart >= 0 && aStart + count <= a.count && bStart + count <= b.count, "run out of bounds")
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                normalized(pa.baseAddress! + aStart, pb.baseAddress! + bStart, count: count)
            }
        }
    }
}
