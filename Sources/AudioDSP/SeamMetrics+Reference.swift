import Foundation

/// The file's own reference for each seam metric: the same measure at ordinary junctions of the loop.
///
/// A seam is judged against the distribution of its measure over ``interiorJunctions`` junctions spread evenly
/// through the loop (read cyclically), never against the largest value anywhere: one transient inside the file
/// would excuse any seam. The reference is the 99th percentile of that distribution (with 512 junctions, the
/// value five of them exceed). How far past it a seam may lie is the judgment side's (AssetPipeline's `SeamRules`,
/// from the tail each measure has).
extension SeamMetrics {
    /// How many ordinary junctions each metric measures for its reference: 512, spread evenly.
    static let interiorJunctions = 512

    /// `count` positions spread evenly over `range` (all of them when the range holds fewer).
    static func evenly(_ count: Int, over range: ClosedRange<Int>) -> [Int] {
        let span = range.upperBound - range.lowerBound
        guard span >= count else { return Array(range) }
        return (0..<count).map { range.lowerBound + Int((Double(span) * Double($0) / Double(count - 1)).rounded()) }
    }

    /// The `q` quantile (0 ... 1) of `values`, by linear interpolation between order statistics (0 when empty).
    ///
    /// - Complexity: O(n) on average (selection, not a sort: the click metric asks this of ~80 000 windows).
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        var s = values
        let x = q * Double(s.count - 1)
        let i = Int(x)
        let low = OrderStatistic.select(&s, i)
        guard i + 1 < s.count else { return low }
        // After the selection every value after index i is at least s[i]: the next order statistic is their least.
        var next = s[i + 1]
        for k in (i + 2)..<s.count where s[k] < next { next = s[k] }
        return low + (x - Double(i)) * (next - low)
    }

}

/// Prefix sums of the energy of all channels of a loop (each channel's own mean removed: a constant offset is not
/// level), read cyclically: ``mean(_:_:)`` takes any frames `a ..< b` with `−count ≤ a < b ≤ 2·count`.
struct CyclicEnergy {
    let count: Int
    private let prefix: [Double]

    init(_ view: LoopView) {
        let n = view.count
        let channels = view.channelCount
        let means = view.means.map { Float($0) }
        let stride = view.buffer.frameCount
        // One pass, frame by frame: each frame's energy in Float (the channels in order, from 0), summed in Double
        // (a 60 s loop adds millions of values). No per-frame array between the two: a 30 s loop's 5.8 MB of it
        // was written and read back, and its pages faulted in, for every file.
        prefix = [Double](unsafeUninitializedCapacity: n + 1) { p, initialized in
            var total = 0.0
            p[0] = 0
            view.buffer.samples.withUnsafeBufferPointer { s in
                let x = s.baseAddress! + view.loop.lowerBound
                if channels == 2 {
                    let (m0, m1) = (means[0], means[1])
                    for i in 0..<n {
                        var e: Float = 0
                        let v0 = x[i] - m0
                        e += v0 * v0
                        let v1 = x[stride + i] - m1
                        e += v1 * v1
                        total += Double(e)
                        p[i + 1] = total
                    }
                } else {
                    for i in 0..<n {
                        var e: Float = 0
                        for c in 0..<channels {
                            let v = x[c * stride + i] - means[c]
                            e += v * v
                        }
                        total += Double(e)
                        p[i + 1] = total
                    }
                }
            }
            initialized = n + 1
        }
        count = n
    }

    /// Σ energy over the loop's frames `a ..< b` (cyclic).
    func sum(_ a: Int, _ b: Int) -> Double {
        let n = count
        func at(_ i: Int) -> Double {
            // prefix of the cyclic signal: whole turns plus the remainder.
            let turns = i >= 0 ? i / n : -((-i + n - 1) / n)
            let r = i - turns * n
            return Double(turns) * prefix[n] + prefix[r]
        }
        return at(b) - at(a)
    }

    /// Mean energy per frame over `a ..< b` (cyclic).
    func mean(_ a: Int, _ b: Int) -> Double { sum(a, b) / Double(max(1, b - a)) }
}
