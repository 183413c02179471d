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
/// - Complexity: O(n log n) to sort the keys, plus one distance per pair within a block; memory O(n) plus the
///   pairs of one block.
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
        var parent = Array(signatures.indices)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        for (i, j) in candidatePairs(signatures) {
            let (ri, rj) = (find(i), find(j))
            guard ri != rj, let a = signatures[i], let b = signatures[j], a.kind == b.kind else { continue }
            if LikenessDistance(a, b).nearDuplicate { parent[max(ri, rj)] = min(ri, rj) }
        }
        var number: [Int: Int] = [:]
        var members: [Int: Int] = [:]
        return signatures.indices.map { i in
            let root = find(i)
            let g = number[root] ?? (number.count + 1)
            number[root] = g
            members[root, default: 0] += 1
            return (g, members[root]!)
        }
    }

    /// The pairs `(i, j)`, `i < j`, that share a block, each once.
    static func candidatePairs(_ signatures: [LikenessSignature?]) -> [(Int, Int)] {
        var pitchKeys: [(key: Double, index: Int)] = []
        var centroidKeys: [(key: Double, index: Int)] = []
        for (i, s) in signatures.enumerated() {
            guard let s else { continue }
            let loudest = s.partials.map(\.level).max()
            if s.kind == .struck, let loudest {
                for p in s.partials where p.level >= loudest - blockingPartialRange { pitchKeys.append((p.cents, i)) }
            } else if let c = centroid(s) {
                // Struck sounds without partials and textures are kept apart.
                centroidKeys.append((c + (s.kind == .struck ? 1000 : 0), i))
            }
        }
        var seen = Set<Int64>()
        var out: [(Int, Int)] = []
        for (keys, reach) in [(pitchKeys, blockingCents), (centroidKeys, blockingERB)] {
            let sorted = keys.sorted { $0.key < $1.key }
            for a in sorted.indices {
                var b = a + 1
                while b < sorted.count && sorted[b].key - sorted[a].key <= reach {
                    let (i, j) = (min(sorted[a].index, sorted[b].index), max(sorted[a].index, sorted[b].index))
                    if i != j, seen.insert(Int64(i) << 32 | Int64(j)).inserted { out.append((i, j)) }
                    b += 1
                }
            }
        }
        return out
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
