import Testing

@testable import FileBatch

/// ``Shard``: `I/N` parsed strictly, and N shards cover every path exactly once.
@Suite struct ShardTests {
    @Test func parsesIOfN() {
        #expect(Shard(parsing: "1/1") == Shard(index: 1, count: 1))
        #expect(Shard(parsing: "3/4")?.description == "3/4")
        for bad in ["3/2", "0/4", "a/b", "1/", "/2", "1/2/3", "-1/2", "1/0", "+1/2", " 1/2", "1/2000000", "١/٢"] {
            #expect(Shard(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func everyPathFallsInExactlyOneShard() throws {
        let paths = (0..<2000).map { "takes/bell-\($0).wav" }
        for count in [1, 2, 3, 7] {
            var seen: [String: Int] = [:]
            for index in 1...count {
                let shard = try #require(Shard(index: index, count: count))
                for p in paths where shard.contains(relativePath: p) { seen[p, default: 0] += 1 }
            }
            #expect(seen.count == paths.count && seen.values.allSatisfy { $0 == 1 })
        }
        // Not all in one shard: 2000 paths over 2 shards split near half (a hash, not the first letter).
        let first = paths.filter { Shard(index: 1, count: 2)!.contains(relativePath: $0) }.count
        #expect((800...1200).contains(first), "\(first)")
    }

    /// The hash is XXH3-64 (seed 0) of the UTF-8: the same shard on every machine, as `xxhsum -H3` computes it.
    @Test func theHashIsXXH3() {
        // The XXH3-64 of no bytes, from xxHash's own test vectors.
        #expect(ContentHash.of([UInt8]()) == 0x2D06_8005_38D3_94C2)
        #expect(ContentHash.hex(0x2D06_8005_38D3_94C2) == "2d06800538d394c2")
        #expect(ContentHash.hex(0xAB) == "00000000000000ab")
        #expect(ContentHash.of(utf8: "b07.wav") == ContentHash.of(Array("b07.wav".utf8)))
        #expect(Shard.index(of: "", count: 1000) == Int(0x2D06_8005_38D3_94C2 % 1000) + 1)
    }
}
