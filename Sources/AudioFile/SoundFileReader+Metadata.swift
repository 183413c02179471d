import AudioCore
import CSndFile

// Loop points, cue points and format names from an open libsndfile handle.

/// The header's loops, and a warning for each one that is ignored because its end is not after its start (it used to
/// be dropped silently). A loop past the file's end is kept: the callers report that it does not fit.
func readLoops(_ h: SndfileHandle) -> (loops: [LoopRegion], warnings: [String]) {
    var inst = SF_INSTRUMENT()
    let ok = system_sf_command(h, Int32(SFC_GET_INSTRUMENT), &inst, Int32(MemoryLayout<SF_INSTRUMENT>.size))
    guard ok == Int32(SF_TRUE) else { return ([], []) }
    var loops: [LoopRegion] = []
    var warnings: [String] = []
    for (i, loop) in SndfileInstrument.loops(of: &inst).enumerated() where loop.mode != Int32(SF_LOOP_NONE) {
        if loop.end <= loop.start {
            warnings.append("loop \(i + 1) (\(loop.start)..<\(loop.end)) ignored: its end is not after its start")
        } else {
            loops.append(LoopRegion(start: FramePosition(loop.start), end: FramePosition(loop.end)))
        }
    }
    return (loops, warnings)
}

func readCues(_ h: SndfileHandle) -> [CuePoint] {
    var count: UInt32 = 0
    guard system_sf_command(h, Int32(SFC_GET_CUE_COUNT), &count, Int32(MemoryLayout<UInt32>.size)) != 0,
        count > 0
    else { return [] }
    var cues = SF_CUES()
    guard system_sf_command(h, Int32(SFC_GET_CUE), &cues, Int32(MemoryLayout<SF_CUES>.size)) == Int32(SF_TRUE) else {
        return []
    }
    let n = Int(min(cues.cue_count, 100))
    return withUnsafeBytes(of: &cues.cue_points) { raw -> [CuePoint] in
        let points = raw.bindMemory(to: SF_CUE_POINT.self)
        return (0..<n).map { i in
            var p = points[i]
            let name = withUnsafeBytes(of: &p.name) { bytes -> String in
                let chars = bytes.prefix { $0 != 0 }
                return String(decoding: chars, as: UTF8.self)
            }
            return CuePoint(id: p.indx, position: FramePosition(p.sample_offset), name: name)
        }
    }
}

func formatName(major: Int32) -> String {
    switch Int(major) {
    case Int(SF_FORMAT_WAV): return "WAV"
    case Int(SF_FORMAT_AIFF): return "AIFF"
    case Int(SF_FORMAT_AU): return "AU"
    case Int(SF_FORMAT_RAW): return "RAW"
    case Int(SF_FORMAT_W64): return "W64"
    case Int(SF_FORMAT_RF64): return "RF64"
    case Int(SF_FORMAT_FLAC): return "FLAC"
    case Int(SF_FORMAT_OGG): return "OGG"
    case Int(SF_FORMAT_CAF): return "CAF"
    case Int(SF_FORMAT_WAVEX): return "WAVEX"
    case Int(SF_FORMAT_MPEG): return "MPEG"
    default: return "0x" + String(major, radix: 16)
    }
}

func subtypeName(minor: Int32) -> String {
    switch Int(minor) {
    case Int(SF_FORMAT_PCM_S8): return "PCM_S8"
    case Int(SF_FORMAT_PCM_U8): return "PCM_U8"
    case Int(SF_FORMAT_PCM_16): return "PCM_16"
    case Int(SF_FORMAT_PCM_24): return "PCM_24"
    case Int(SF_FORMAT_PCM_32): return "PCM_32"
    case Int(SF_FORMAT_FLOAT): return "FLOAT"
    case Int(SF_FORMAT_DOUBLE): return "DOUBLE"
    case Int(SF_FORMAT_ULAW): return "ULAW"
    case Int(SF_FORMAT_ALAW): return "ALAW"
    case Int(SF_FORMAT_VORBIS): return "VORBIS"
    case Int(SF_FORMAT_OPUS): return "OPUS"
    case Int(SF_FORMAT_MPEG_LAYER_I): return "MPEG_LAYER_I"
    case Int(SF_FORMAT_MPEG_LAYER_II): return "MPEG_LAYER_II"
    case Int(SF_FORMAT_MPEG_LAYER_III): return "MPEG_LAYER_III"
    default: return "0x" + String(minor, radix: 16)
    }
}
