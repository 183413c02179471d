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

    /// The `k`-th smallest (0-based) of `p[0 ..< count]`: the value ``select(_:_:count:)`` gives, found by partitions
    /// that neither branch on the values nor swap in place. Each pass copies every value to both ends of `scratch`
    /// (`count` values) and moves only the end its comparison with the pivot (a median of three) chooses, the
    /// values equal to the pivot being left out between the two; the next pass reads the side that holds `k` back
    /// into `p`. The continuity metric takes a median of ~480 steps at each of 513 junctions per channel, where
    /// Hoare's loop above spent three quarters of its time on mispredicted branches.
    ///
    /// - Important: `p[0 ..< count]` and `scratch` are overwritten (no longer a permutation of the values).
    /// - Complexity: O(count) on average.
    static func select(
        _ p: UnsafeMutablePointer<Float>, count n: Int, _ k: Int, scratch: UnsafeMutablePointer<Float>
    ) -> Float {
        precondition(n > 0 && (0..<n).contains(k))
        var source = p
        var inScratch = false
        var count = n
        var k = k
        while count > 16 {
            let target = inScratch ? p : scratch
            inScratch.toggle()
            let (a, b, c) = (source[0], source[count / 2], source[count - 1])
            let pivot = max(min(a, b), min(max(a, b), c))
            // Below the pivot from the front of `target`, above it from the back; a value's tentative copy at the
            // other end is overwritten by the next value (the two ends never cross: they hold at most the values read).
            var below = 0
            var above = 0
            for i in 0..<count {
                let v = source[i]
                target[below] = v
                target[count - 1 - above] = v
                // The comparison's bit as a number (a `? 1 : 0` compiles to a branch).
                below &+= Int(unsafeBitCast(v < pivot, to: UInt8.self))
                above &+= Int(unsafeBitCast(v > pivot, to: UInt8.self))
            }
            if k < below {
                (source, count) = (target, below)
            } else if k < count - above {
                return pivot
            } else {
                (source, k, count) = (target + (count - above), k - (count - above), above)
            }
        }
        // A few values left: insertion sort.
        var i = 1
        while i < count {
            let v = source[i]
            var j = i
            while j > 0 && source[j - 1] > v {
                source[j] = source[j - 1]
                j -= 1
            }
            source[j] = v
            i += 1
        }
        return source[k]
    }
}
