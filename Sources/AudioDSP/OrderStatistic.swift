/// Order statistics by selection: medians and percentiles in linear time on average, where sorting costs n log n
/// (the seam metrics take percentiles of thousands of windows per file, the tonality a median per spectrum bin).
enum OrderStatistic {
    /// The `k`-th smallest (0-based) of `a[0 ..< count]` (all of `a` by default), reordering that prefix so that
    /// `a[k]` holds it, everything before it is no larger and everything after it (within the prefix) no smaller
    /// (Hoare's quickselect).
    ///
    /// - Complexity: O(count) on average.
    static func select<T: Comparable>(_ a: inout [T], _ k: Int, count: Int? = nil) -> T {
        let n = count ?? a.count
        precondition(n > 0 && n <= a.count && (0..<n).contains(k))
        // Through the buffer: the same steps without a bounds check or copy-on-write test on every swap (the
        // seam metrics take a median of hundreds of steps at each of 513 junctions per channel).
        return a.withUnsafeMutableBufferPointer { p in
            var lo = 0
            var hi = n - 1
            while lo < hi {
                let pivot = p[lo + (hi - lo) / 2]
                var i = lo
                var j = hi
                while i <= j {
                    while p[i] < pivot { i += 1 }
                    while p[j] > pivot { j -= 1 }
                    if i <= j {
                        p.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if k <= j { hi = j } else if k >= i { lo = i } else { break }
            }
            return p[k]
        }
    }
}
