import AudioDSP
import Foundation

/// Groups of near-duplicates in a batch: the union of near-duplicate pairs (two sounds share a group when a chain
/// of near-duplicates joins them), found without comparing every pair.
///
/// Blocking: near-duplicates share their strongest partials within a few cents, or (textures, and struck sounds
/// without partials) lie within half an ERB of each other's spectral centroid. Each signature is filed under
/// those keys (every strong partial within ``blockingPartialRange`` dB of its strongest; the centroid); only
/// signatures whose keys lie within ``blockingCents`` or ``blockingERB`` of each other are compared. A pair outside
/// its block differs in its loudest partial by more than four times the pitch JND (or, without one, in spectral
/// balance by far more than a 1 dB tilt), so it is no near-duplicate.
///
/// - Complexity: O(n log n) to sort the keys, plus one distance per pair within a block (most stop at their first
///   cue: ``LikenessDistance/areNearDuplicates(_:_:)``), none for a pair already joined; memory O(n).
/// - Thread safety: pure functions; any thread.
/// - Real-time safe: no.
public enum LikenessGroups {
    /// Keys are taken from partials within this of the strongest (dB): a near-duplicate's strongest partial is
    /// among them (its level differs by about 1 dB).
    public static let blockingPartialRange = 6.0
    /// Signatures whose pitch keys are closer than this (cents) are compared: four pitch JNDs.
    public static let blockingCents = 20.0
    /// Signatures whose centroid keys are closer than this (ERB) are compared.
    public static let blockingERB = 0.5

    /// One group per near-duplicate chain: for each signature in the order given (the caller's rank order), its
    /// group number (1 = the group of the first signature, numbered in order of first appearance) and its rank in
    /// its group (1 = the first in the given order). A nil signature (a file that could not be analysed) is a group
    /// of its own.
    public static func group(_ signatures: [LikenessSignature?]) -> [(group: Int, groupRank: Int)] {
        group(count: signatures.count) { signatures[$0] }
    }

    /// ``group(_:)`` of `count` signatures, each given by `signature(i)` when needed, so a caller holding many in a
    /// compact form (``LikenessSignature/Packed``: `bells rank`) builds one or two at a time, never all of them.
    public static func group(
        count: Int, _ signature: (Int) -> LikenessSignature?
    ) -> [(group: Int, groupRank: Int)] {
        var parent = Array(0..<count)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        let pitch = PitchTables(count: count, signature)
        // Pairs come `i` ascending: the signature of `i` is built once for all its `j`.
        var current: (index: Int, signature: LikenessSignature?) = (-1, nil)
        forEachCandidatePair(count: count, signature) { i, j in
            let (ri, rj) = (find(i), find(j))
            guard ri != rj, pitch.kinds[i] != nil, pitch.kinds[i] == pitch.kinds[j] else { return }
            // Most pairs in a block differ in pitch alone by more than one JND: answered from the flat tables,
            // without copying the signatures (the same formula and order as the pitch cue's own measure).
            if pitch.kinds[i] == .struck {
                let jnds = pitch.difference(i, j) / LikenessComponent.pitch.jnd
                if jnds * jnds > LikenessDistance.nearDuplicateThreshold * LikenessDistance.nearDuplicateThreshold {
                    return
                }
            }
            if current.index != i { current = (i, signature(i)) }
            if LikenessDistance.areNearDuplicates(current.signature!, signature(j)!) {
                parent[max(ri, rj)] = min(ri, rj)
            }
        }
        var number: [Int: Int] = [:]
        var members: [Int: Int] = [:]
        return (0..<count).map { i in
            let root = find(i)
            let g = number[root] ?? (number.count + 1)
            number[root] = g
            members[root, default: 0] += 1
            return (g, members[root]!)
        }
    }

    /// Calls `body(i, j)`, `i < j`, once for each pair that shares a block, `i` ascending, without holding the pairs:
    /// for each signature, the keys of every block it is filed under are scanned in the sorted keys (binary search to
    /// the block's start), and a stamp per signature says which `j` were already met for this `i`.
    ///
    /// - Complexity: O(n log n) to sort the keys, plus the pairs in blocks; memory O(n).
    static func forEachCandidatePair(
        count: Int, _ signature: (Int) -> LikenessSignature?, _ body: (Int, Int) -> Void
    ) {
        var pitchKeys: [(key: Double, index: Int)] = []
        var centroidKeys: [(key: Double, index: Int)] = []
        // Each signature's keys: (which table, key).
        var own = Array(repeating: [(pitch: Bool, key: Double)](), count: count)
        for i in 0..<count {
            guard let s = signature(i) else { continue }
            let loudest = s.partials.map(\.level).max()
            if s.kind == .struck, let loudest {
                for p in s.partials where p.level >= loudest - blockingPartialRange {
                    pitchKeys.append((p.cents, i))
                    own[i].append((true, p.cents))
                }
            } else if let c = centroid(s) {
                // Struck sounds without partials and textures are kept apart.
                let key = c + (s.kind == .struck ? 1000 : 0)
                centroidKeys.append((key, i))
                own[i].append((false, key))
            }
        }
        pitchKeys.sort { $0.key < $1.key }
        centroidKeys.sort { $0.key < $1.key }
        var stamp = Array(repeating: -1, count: count)
        for i in 0..<count {
            for (pitch, key) in own[i] {
                let (keys, reach) = pitch ? (pitchKeys, blockingCents) : (centroidKeys, blockingERB)
                // The first key at or above `key - reach`.
                var low = 0
                var high = keys.count
                while low < high {
                    let mid = (low + high) / 2
                    if keys[mid].key < key - reach { low = mid + 1 } else { high = mid }
                }
                var b = low
                while b < keys.count && keys[b].key <= key + reach {
                    let j = keys[b].index
                    if j > i && stamp[j] != i {
                        stamp[j] = i
                        body(i, j)
                    }
                    b += 1
                }
            }
        }
    }

    /// Each signature's pitch cue in flat tables, made once: its strong partials' cents and weights, and the cents
    /// a partial of another is matched against (``LikenessComponent/pitchOneWay(_:_:)``).
    struct PitchTables {
        /// Each signature's kind; nil for none.
        var kinds: [LikenessSignature.Kind?]
        private var cents: [Double] = []
        private var weights: [Double] = []
        private var others: [Double] = []
        private var partials: [Range<Int>] = []
        private var matched: [Range<Int>] = []

        init(count: Int, _ signature: (Int) -> LikenessSignature?) {
            kinds = []
            for i in 0..<count {
                let s = signature(i)
                kinds.append(s?.kind)
                let strong = s?.partials ?? []
                let against = s.map { $0.weakPartials.isEmpty ? $0.partials : $0.weakPartials } ?? []
                partials.append(cents.count..<cents.count + strong.count)
                cents += strong.map(\.cents)
                weights += strong.map(LikenessComponent.pitchWeight)
                matched.append(others.count..<others.count + against.count)
                others += against.map(\.cents)
            }
        }

        /// The pitch cue's difference of signatures `i` and `j`, in cents (``LikenessComponent/pitch``'s measure).
        func difference(_ i: Int, _ j: Int) -> Double {
            cents.withUnsafeBufferPointer { c in
                weights.withUnsafeBufferPointer { w in
                    others.withUnsafeBufferPointer { o in
                        let ij = LikenessComponent.pitchOneWay(
                            cents: c[partials[i]], weights: w[partials[i]], others: o[matched[j]])
                        let ji = LikenessComponent.pitchOneWay(
                            cents: c[partials[j]], weights: w[partials[j]], others: o[matched[i]])
                        return (ij + ji) / 2
                    }
                }
            }
        }
    }

    /// The power-weighted mean band of the sound's spectrum, in ERB (bands are ``PerceptualBands/widthERB`` wide).
    static func centroid(_ s: LikenessSignature) -> Double? {
        let levels = s.kind == .texture ? s.bandLevels : s.envelope.first ?? []
        var num = 0.0
        var den = 0.0
        for (i, l) in levels.enumerated() {
            let p = pow(10, l / 10)
            num += p * Double(i)
            den += p
        }
        return den > 0 ? num / den * PerceptualBands.widthERB : nil
    }
}
