import AudioCore
import CSndFile

/// Cue points to and from `SF_CUES`, the struct `SFC_GET_CUE` and `SFC_SET_CUE` take (at most 100 points, a name of
/// up to 255 bytes each).
enum SndfileCues {
    /// The most cue points libsndfile's `SF_CUES` holds.
    static let capacity = 100

    /// `cues` (at most ``capacity``) as libsndfile writes them: each at its frame in the `data` chunk.
    static func make(_ cues: [CuePoint]) -> SF_CUES {
        var out = SF_CUES()
        out.cue_count = UInt32(min(cues.count, capacity))
        withUnsafeMutableBytes(of: &out.cue_points) { raw in
            let points = raw.bindMemory(to: SF_CUE_POINT.self)
            for (i, cue) in cues.prefix(capacity).enumerated() {
                var p = SF_CUE_POINT()
                p.indx = cue.id
                p.position = UInt32(clamping: cue.position)
                p.fcc_chunk = Int32(bitPattern: 0x6174_6164)  // "data", little-endian
                p.sample_offset = UInt32(clamping: cue.position)
                withUnsafeMutableBytes(of: &p.name) { name in
                    for (j, byte) in cue.name.utf8.prefix(name.count - 1).enumerated() { name[j] = byte }
                }
                points[i] = p
            }
        }
        return out
    }
}

extension CuePoint {
    /// This cue on a file resampled by `ratio` (new rate / old rate): its frame scaled and rounded, as loop points
    /// are (``LoopRegion/scaled(by:)``).
    public func scaled(by ratio: Double) -> CuePoint {
        var c = self
        c.position = FramePosition((Double(position) * ratio).rounded())
        return c
    }
}
